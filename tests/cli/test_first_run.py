"""A first run from nothing: `config init`, then every command on that profile."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests.conftest import STAGING_KEY, Service


@pytest.fixture
def nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No config file, no key and no INBOXDESK_ variable."""
    for name in ("NOVU_SECRET_KEY", "INBOXDESK_PROFILE", "INBOXDESK_BASE_URL", "INBOXDESK_THEME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    return tmp_path / "config.toml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_missing_key_hint_is_one_command_that_works(
    nothing: Path,
    service: Service,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, _, err = run(capsys, "integrations")
    assert code == 2 and "`inboxdesk config init`" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(STAGING_KEY + "\n"))
    code, out, _ = run(capsys, "config", "init", "--region", "local", "--api-key", "-")
    assert code == 0 and "Saved profile 'local'" in out and STAGING_KEY not in out
    # The local region is 127.0.0.1:3000; the test's service has its own port.
    code, _, _ = run(capsys, "config", "set", "base_url", service.url)
    assert code == 0
    code, out, _ = run(capsys, "integrations")
    assert code == 0 and "SendGrid" in out


def test_init_asks_for_what_it_is_not_given(
    nothing: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("eu\n"))
    monkeypatch.setattr("getpass.getpass", lambda prompt: STAGING_KEY)
    code, out, err = run(capsys, "config", "init")
    assert code == 0 and "Region" in err and "https://eu.api.novu.co" in out
    assert err.count("local") == 2, "the regions are listed once (and local explained)"
    code, out, _ = run(capsys, "config", "show", "--json")
    shown = json.loads(out)["data"]
    assert shown["settings"]["base_url"] == "https://eu.api.novu.co"
    assert shown["settings"]["api_key"] == "••••cdef" and STAGING_KEY not in out
    assert shown["sources"]["api_key"] == "profile eu"


def test_unset_remove_profile_and_true_sources(
    nothing: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "config", "add-profile", "work", "--region", "eu")[0] == 0
    assert run(capsys, "config", "add-profile", "home", "--region", "us")[0] == 0
    assert run(capsys, "config", "set", "app.theme", "dracula")[0] == 0
    assert run(capsys, "config", "set", "timeout", "4")[0] == 0
    monkeypatch.setenv("INBOXDESK_AUTO_REFRESH", "30")
    code, out, _ = run(capsys, "config", "show", "--json")
    sources = json.loads(out)["data"]["sources"]
    assert sources["timeout"] == "profile work"
    assert sources["base_url"] == "profile work (region eu)"
    assert sources["auto_refresh"] == "env INBOXDESK_AUTO_REFRESH"
    assert sources["theme"] == f"config [app] ({nothing})"
    assert sources["proxy"] == "default"
    code, out, _ = run(capsys, "config", "show")
    assert "env INBOXDESK_AUTO_REFRESH" in out and "profile work" in out

    assert run(capsys, "config", "unset", "timeout")[0] == 0
    code, out, _ = run(capsys, "config", "show", "--json")
    assert json.loads(out)["data"]["sources"]["timeout"] == "default"
    code, out, _ = run(capsys, "config", "unset", "timeout")
    assert code == 0 and "was not set" in out
    code, out, _ = run(capsys, "config", "remove-profile", "work")
    assert code == 0 and "The default is now 'home'" in out
    code, out, _ = run(capsys, "config", "show", "--json")
    assert json.loads(out)["data"]["settings"]["base_url"] == "https://api.novu.co"
    code, _, err = run(capsys, "config", "remove-profile", "work")
    assert code == 2 and "No profile 'work'" in err


def test_set_refuses_unknown_themes_and_binding_ids(
    nothing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "config", "set", "app.theme", "nosuchtheme")
    assert code == 2 and "app.theme=nosuchtheme: no such theme; known:" in err and "nord" in err
    code, _, err = run(capsys, "config", "set", "app.keymap.inbox.nosuch", "x")
    assert code == 2 and "no binding id inbox.nosuch" in err
    assert not nothing.exists(), "nothing written"
    assert run(capsys, "config", "set", "app.keymap.inbox.mark_read", "w")[0] == 0
    assert run(capsys, "config", "set", "app.theme", "nord")[0] == 0
    assert 'theme = "nord"' in nothing.read_text()


def test_odd_profile_names_and_bad_variables_get_one_line(
    nothing: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("", "a b", "-x"):
        code, _, err = run(capsys, "config", "add-profile", "--", name)
        assert code == 2 and "is not allowed" in err and len(err.splitlines()) == 1
    monkeypatch.setenv("INBOXDESK_AUTO_REFRESH", "soon")
    code, _, err = run(capsys, "config", "show")
    assert code == 2 and err == "inboxdesk: INBOXDESK_AUTO_REFRESH=soon: not a number.\n"


def test_every_connection_setting_is_a_flag_and_a_profile_option(
    nothing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inboxdesk.config import CONNECTION_FIELDS, PROFILE_FIELDS

    _, out, _ = run(capsys, "integrations", "--help")
    assert all(f"--{name.replace('_', '-')}" in out for name in ["profile", *CONNECTION_FIELDS])
    _, out, _ = run(capsys, "config", "add-profile", "--help")
    assert all(f"--{name.replace('_', '-')}" in out for name in PROFILE_FIELDS)
    code, _, err = run(capsys, "config", "add-profile", "w", "--timeout", "0")
    assert code == 2 and "profiles.w.timeout=0.0: must be more than 0." in err
    code, _, _ = run(capsys, "config", "add-profile", "w", "--region", "eu", "--max-pages", "5")
    assert code == 0 and "max_pages = 5" in nothing.read_text()
    code, out, _ = run(capsys, "config", "show", "--json", "--timeout", "7")
    data = json.loads(out)["data"]
    assert data["settings"]["max_pages"] == "5" and data["sources"]["max_pages"] == "profile w"
    assert data["settings"]["timeout"] == "7.0" and data["sources"]["timeout"] == "flag"
