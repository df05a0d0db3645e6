"""The console script `inboxdesk` and `python -m inboxdesk`: the command line, imported
with the garbage collector paused (gc_paused.py)."""

from __future__ import annotations


def main() -> int:
    from inboxdesk.gc_paused import collector_paused

    with collector_paused():
        from inboxdesk.cli import main as run
    return run()
