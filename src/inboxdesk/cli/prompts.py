"""Questions asked on the terminal before a write; anything but a clear yes declines."""

from __future__ import annotations

import sys


def ask(question: str) -> str | None:
    """One line typed on the terminal, or None when input ended."""
    print(question, end=" ", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        # Ctrl-C stops the command (exit 130), as everywhere else: never a quiet "no".
        print(file=sys.stderr)
        raise
    return answer if answer else None


def confirm(question: str) -> bool:
    """Ask on the terminal; anything but y or yes declines."""
    answer = ask(f"{question} [y/N]")
    return answer is not None and answer.strip().lower() in {"y", "yes"}
