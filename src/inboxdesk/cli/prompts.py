"""Questions asked on the terminal before a write; anything but a clear yes declines."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Sequence

from inboxdesk.config import ConfigError


class NeedsYes(ConfigError):
    """A write that asks first, with no terminal to ask and no --yes: exit 2."""


def ask(question: str) -> str | None:
    """One line typed on the terminal, or None when input ended."""
    # Ctrl-C stops the command at once (exit 130; main ends the line), never a quiet
    # "no". Inside asyncio.run, the loop's own SIGINT handler would wait for the loop,
    # which this read blocks: the interrupt came only after Enter, which it swallowed.
    interrupting = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler) if interrupting else None
    try:
        print(question, end=" ", file=sys.stderr, flush=True)  # after: Ctrl-C is ready
        answer = sys.stdin.readline()
    finally:
        if interrupting:
            signal.signal(signal.SIGINT, previous)
    return answer if answer else None


def confirm(question: str) -> bool:
    """Ask on the terminal; anything but y or yes declines."""
    answer = ask(f"{question} [y/N]")
    return answer is not None and answer.strip().lower() in {"y", "yes"}


def go_ahead(question: str, yes: bool, details: Sequence[str] = ()) -> bool:
    """The one confirmation rule of the writes that ask first (set-primary, mark-all,
    archive-all, undo, and any write that asks): `--yes` goes on; on a terminal the
    details, then the question, and anything but a clear yes declines (False); with no
    terminal to ask and no `--yes`, NeedsYes (exit 2, one line naming --yes)."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise NeedsYes(
            f"{question.rstrip('?')}: no terminal to ask, so nothing was sent; "
            "pass --yes to go ahead."
        )
    for line in details:
        print(f"  {line}", file=sys.stderr)
    return confirm(question)
