"""The console script `inboxdesk` and `python -m inboxdesk`: the command line, imported
with the garbage collector paused (gc_paused.py)."""

from __future__ import annotations


def main() -> int:
    from inboxdesk.gc_paused import collector_paused
    from inboxdesk.private_apis import skip_httpx_command_line

    skip_httpx_command_line()

    with collector_paused():
        from inboxdesk.cli import main as run
    return run()
