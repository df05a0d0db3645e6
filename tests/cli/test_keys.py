"""Keys are checked where they enter; an error never contains the key."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from inboxdesk.cli import main

SECRET = "sk0123456789abcdefQZXJ"
BAD = [SECRET + " ", SECRET + "\n", "sk01234\t56789abcdefQZXJ", SECRET + "é"]


def run(
    args: list[str], tmp_path: Path, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "NOVU_SECRET_KEY"}
    environ |= {"INBOXDESK_CONFIG": str(tmp_path / "config.toml"), **env}
    return subprocess.run(
        [sys.executable, "-m", "inboxdesk", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )


Run = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """`run`, in this process (no interpreter start-up): a crash fails the test itself."""

    def call(
        args: list[str], tmp_path: Path, stdin: str = "", **env: str
    ) -> subprocess.CompletedProcess[str]:
        monkeypatch.delenv("NOVU_SECRET_KEY", raising=False)
        monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main(args)
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, out, err)

    return call


def refused(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert "API key" in result.stderr
    assert "Traceback" not in result.stderr
    assert "QZXJ" not in result.stdout + result.stderr and "sk0123" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("key", BAD, ids=["space", "newline", "tab", "non-ascii"])
def test_a_bad_key_is_refused_from_the_environment_and_flags(
    key: str, tmp_path: Path, here: Run
) -> None:
    refused(here(["integrations"], tmp_path, NOVU_SECRET_KEY=key))
    refused(here(["integrations", "--api-key", key], tmp_path))


@pytest.mark.parametrize("key", BAD[2:], ids=["tab", "non-ascii"])
def test_a_bad_key_is_refused_from_stdin(key: str, tmp_path: Path, here: Run) -> None:
    refused(here(["config", "add-profile", "work", "--api-key", "-"], tmp_path, stdin=key + "\n"))
    assert not (tmp_path / "config.toml").exists()


def test_a_bad_key_in_a_profile_is_refused_when_used(tmp_path: Path, here: Run) -> None:
    (tmp_path / "config.toml").write_text(
        f'default_profile = "p"\n[profiles.p]\napi_key = "{SECRET} "\n', encoding="utf-8"
    )
    (tmp_path / "config.toml").chmod(0o600)
    result = here(["integrations"], tmp_path)
    refused(result)
    assert "profile p" in result.stderr


def test_bad_numbers_in_the_environment_get_one_line(tmp_path: Path, here: Run) -> None:
    for name, value in (("INBOXDESK_TIMEOUT", "nan"), ("INBOXDESK_AUTO_REFRESH", "soon")):
        result = here(["config", "show"], tmp_path, **{name: value})
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_keymap_that_collides_in_a_view_is_refused_naming_both(tmp_path: Path, here: Run) -> None:
    result = here(["config", "set", "app.keymap.inbox.mark_read", "u"], tmp_path)
    assert result.returncode == 2, result.stderr
    assert "inbox.mark_read and inbox.mark_unread would both be on u" in result.stderr
    assert (
        not (tmp_path / "config.toml").exists()
        or "mark_read" not in (tmp_path / "config.toml").read_text()
    )
    # A key used only in another view is free here; a move of both is fine too.
    result = here(["config", "set", "app.keymap.inbox.mark_read", "w"], tmp_path)
    assert result.returncode == 0, result.stderr


# A FIFO or a device would hang a reader, and deep nesting may end the interpreter: each
# runs in a process of its own, which a test run outlives. A huge file is only large.
@pytest.mark.parametrize("kind", ["fifo", "device", "deep", "huge"])
def test_a_config_file_that_is_not_one_is_one_line_never_a_hang(
    kind: str, tmp_path: Path, here: Run
) -> None:
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path = Path("/dev/zero")
    elif kind == "deep":
        path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    else:
        path.write_text("# " + "x" * (2 << 20) + "\n")
    result = (here if kind == "huge" else run)(
        ["config", "show"], tmp_path, INBOXDESK_CONFIG=str(path)
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and str(path) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
