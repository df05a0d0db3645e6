"""Settings an attacker (or a slip) can write: a base URL that would split a header or a
line is refused in one line everywhere; a key bound for plain HTTP off this machine is
warned about before it goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from inboxdesk.cli import main

KEY = "settings-key-0123456789abcdef"
BAD_URLS = [
    'http://example.com"; rm -rf ~',
    "http://example.com\nX-Injected: 1",
    "http://example.com\r",
    "http://exa\x1b]0;title\x07mple.com",
    "http://example.com/\u2028",
    "http://exa mple.com",
    "http:///nohost",
    "http://example.com:port",
]


@pytest.fixture
def config_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(folder))
    monkeypatch.delenv("INBOXDESK_BASE_URL", raising=False)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)
    return folder


def one_line(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("inboxdesk: "), err
    assert "\x1b" not in err and "\x07" not in err


@pytest.mark.parametrize("url", BAD_URLS)
def test_add_profile_refuses_a_base_url_no_service_has(
    config_dir: Path, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    code = main(["config", "add-profile", "work", "--base-url", url, "--api-key", KEY])
    _, err = capsys.readouterr()
    assert code == 2
    one_line(err)
    assert not (config_dir / "config.toml").exists()


@pytest.mark.parametrize("url", BAD_URLS[:4])
def test_every_command_refuses_such_a_url_from_the_file_or_the_environment(
    config_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    url: str,
) -> None:
    config_dir.mkdir()
    escaped = url.encode("unicode_escape").decode().replace('"', '\\"')
    (config_dir / "config.toml").write_text(f'[profiles.work]\nbase_url = "{escaped}"\n')
    for argv in (["subscribers"], ["environments"], ["messages", "jane"], ["history"]):
        code = main([*argv, "--profile", "work"])
        _, err = capsys.readouterr()
        assert code == 2, (argv, err)
        one_line(err)
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    code = main(["counts", "jane"])
    _, err = capsys.readouterr()
    assert code == 2
    one_line(err)


@pytest.mark.parametrize(
    ("url", "warned"),
    [
        ("http://192.0.2.7:3000", True),
        ("http://localhost:3000", False),
        ("http://127.0.0.2:3000", False),
        ("http://[::1]:3000", False),
        ("https://api.novu.co", False),
    ],
)
def test_a_key_bound_for_plain_http_beyond_this_machine_is_warned_about(
    config_dir: Path, capsys: pytest.CaptureFixture[str], url: str, warned: bool
) -> None:
    code = main(["history", "--base-url", url])  # the journal: nothing is sent
    _, err = capsys.readouterr()
    assert code == 0
    assert ("over plain http://" in err) == warned, err
