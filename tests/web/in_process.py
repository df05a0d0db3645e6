"""`inboxdesk ... --web` run by the command line's `main()` in this process, as a user
starts it, while the test asks its page from another thread.

A start of the command in a process of its own cost a CPU-second and more (the
interpreter, the command line's imports, aiohttp and textual-serve's): the page, its
guard and the apps it starts are the same in-process. The apps of browser sessions are
still processes of their own (textual-serve starts them), children of this one.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests import waiting
from tests.client.faults import answers

TIMEOUT = 60.0


@dataclass(frozen=True)
class WebPage:
    """The page as the command printed it."""

    printed: str  # the address printed, with the run's token
    base: str  # http://127.0.0.1:PORT: the page on loopback
    port: int
    token: str
    banner: str  # everything printed up to the address

    @property
    def cookie(self) -> str:
        return f"inboxdesk-web-{self.port}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def on_the_web(
    capsys: pytest.CaptureFixture[str], args: list[str], during: Callable[[WebPage], None]
) -> tuple[int, str, str]:
    """`inboxdesk ARGS --web --port PORT` in this process until `during`, handed the page
    once it answers, returns; then it is stopped as a user stops it (SIGTERM). Its exit
    status, standard output and errors; what `during` raised is raised here.

    The command runs on the main thread, where it takes SIGINT and SIGTERM over before
    it serves; the signal is sent only once the page answers, and both handlers are
    given back after it."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ended = threading.Event()
    failed: list[BaseException] = []
    said: list[tuple[str, str]] = []
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def watch() -> None:
        try:
            # A 403 without the token is an answer.
            waiting.wait_for("the page", lambda: ended.is_set() or answers(f"{base}/"), TIMEOUT)
            if not ended.is_set():
                said.append(capsys.readouterr())
                out = said[0][0]
                line = next(x for x in out.splitlines() if "in a browser:" in x)
                printed = line.split()[4]
                token = re.search(r"token=([A-Za-z0-9_-]+)", printed)
                assert token, printed
                during(WebPage(printed, base, port, token[1], out))
        except BaseException as exc:
            failed.append(exc)
        finally:
            if not ended.is_set() and signal.getsignal(signal.SIGTERM) != before[signal.SIGTERM]:
                os.kill(os.getpid(), signal.SIGTERM)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        code = main([*args, "--web", "--port", str(port)])
    finally:
        ended.set()
        watcher.join(timeout=TIMEOUT)
        for sig, handler in before.items():
            signal.signal(sig, handler)
    out, err = capsys.readouterr()
    if failed:
        raise failed[0]
    banner_out, banner_err = said[0] if said else ("", "")
    return code, banner_out + out, banner_err + err


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def apps() -> set[int]:
    """The app processes below this one: `inboxdesk tui`, one per browser session."""
    return set(_apps())


def _apps() -> Iterator[int]:
    for pid in descendants(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"inboxdesk" in command and b"tui" in command:
            yield pid
