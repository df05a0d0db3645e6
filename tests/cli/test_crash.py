"""A crash is never silent: non-zero, one line, and the traceback in a log file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from textual.app import App

from inboxdesk.cli import integration_commands, main
from inboxdesk.cli.app_commands import run_app
from inboxdesk.cli.crash import CRASHED
from tests.conftest import STAGING_KEY, Service


def crash_line(err: str, what: str, logs: Path) -> Path:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"inboxdesk: {what} crashed"), err
    (log,) = logs.iterdir()
    assert str(log) in lines[0]
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    return log


def test_a_command_that_crashes_says_where_the_traceback_is(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)

    def broken(*args: object) -> str:
        raise RuntimeError("a bug in the table")

    # The one mock: a bug cannot be produced on purpose through the public commands.
    monkeypatch.setattr(integration_commands, "table", broken)
    code = main(["integrations", "--base-url", service.url])
    _, err = capsys.readouterr()
    assert code == CRASHED
    log = crash_line(err, "the command (RuntimeError)", tmp_path / "logs")
    text = log.read_text()
    assert "Traceback" in text and "RuntimeError: a bug in the table" in text
    assert STAGING_KEY not in text


class Broken(App[None]):
    def on_mount(self) -> None:
        key = "sk-held-in-a-local-QZXJ"
        raise RuntimeError(f"the app broke ({len(key)})")


def test_an_app_that_crashes_says_where_the_traceback_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    assert run_app(Broken(), headless=True) == CRASHED
    log = crash_line(capsys.readouterr().err, "the app", tmp_path / "logs")
    text = log.read_text()
    assert "RuntimeError: the app broke (23)" in text and "on_mount" in text
    assert "QZXJ" not in text, "local values (a key, credentials) are not saved"


def test_an_app_that_quits_is_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    class Quits(App[None]):
        def on_mount(self) -> None:
            self.exit()

    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    assert run_app(Quits(), headless=True) == 0
    assert capsys.readouterr().err == "" and not (tmp_path / "logs").exists()


def test_a_closed_terminal_is_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Closing the window of a running app makes its writes to the terminal fail (EIO):
    the run ends quietly with SIGHUP's status, and writes no crash log."""
    import errno

    class HungUp(App[None]):
        def on_mount(self) -> None:
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    assert run_app(HungUp(), headless=True) == 129
    assert capsys.readouterr().err == "" and not (tmp_path / "logs").exists()
