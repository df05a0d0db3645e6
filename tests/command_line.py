"""The command line run in-process with one key from the environment, as a script runs
it: a config file of the test's own, no terminal on standard input."""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from inboxdesk.cli import main
from inboxdesk.config.file import ConfigFile


def run_with_key(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    url: str,
    key: str,
    *args: str,
    **env: str,
) -> tuple[int, str, str]:
    """`inboxdesk ARGS` against `url` with `key` in NOVU_SECRET_KEY (and `env` set);
    the exit status, standard output and standard error."""
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    monkeypatch.setenv("NOVU_SECRET_KEY", key)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@contextmanager
def as_from_a_terminal() -> Iterator[None]:
    """Processes started here get Ctrl-C as a terminal's shell gives it to them.

    A test run started in the background (`pytest &`, a CI step run so) ignores SIGINT,
    as POSIX has a shell start background jobs, and a started process inherits that:
    it would never see the Ctrl-C a test sends, and rightly so (Python keeps ignoring a
    SIGINT ignored at its start). A handler, unlike an ignore, ends at exec."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def real_profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str, key: str) -> ConfigFile:
    """A real profile `real` (the default) for `url`: the config file where the user's
    own lives, under a temp HOME, with nothing in the environment choosing."""
    for name in ("INBOXDESK_CONFIG_DIR", "INBOXDESK_CONFIG", "XDG_CONFIG_HOME", "NOVU_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name in ("INBOXDESK_BASE_URL", "INBOXDESK_PROFILE", "INBOXDESK_ENVIRONMENT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    config = ConfigFile.load()
    assert str(config.path).startswith(str(tmp_path / "home"))
    config.add_profile("real", {"base_url": url, "api_key": key})
    config.save()
    return config


def piped(
    capsys: pytest.CaptureFixture[str],
    args: Sequence[str],
    each_line: Callable[[list[str]], None],
) -> tuple[int, list[str], str]:
    """`inboxdesk ARGS` in this process, its standard output a real pipe read line by line
    on another thread (so what the command does not flush is not seen), `each_line`
    handed the lines read so far after each. The exit status, the lines and standard
    error."""
    read, write = os.pipe()
    lines: list[str] = []

    def head() -> None:
        with os.fdopen(read, encoding="utf-8") as pipe:
            for line in pipe:
                lines.append(line)
                each_line(lines)

    reader = threading.Thread(target=head, daemon=True)
    saved = sys.stdout
    reader.start()
    with os.fdopen(write, "w", encoding="utf-8") as out:
        sys.stdout = out
        try:
            code = main(list(args))
        finally:
            sys.stdout = saved
    reader.join(timeout=30)
    return code, lines, capsys.readouterr().err


def ctrl_c_when(
    capsys: pytest.CaptureFixture[str],
    args: Sequence[str],
    ready: Callable[[list[str]], bool],
) -> tuple[int, list[str], str]:
    """`piped`, and Ctrl-C as a terminal gives it once `ready` holds of the lines read.

    The signal goes to the main thread, where the command runs: a process-directed one
    may land on the reading thread, and the command's loop would see it only when it
    next wakes."""
    sent: list[bool] = []

    def interrupt(lines: list[str]) -> None:
        if not sent and ready(lines):
            sent.append(True)
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    with as_from_a_terminal():
        return piped(capsys, args, interrupt)
