"""The console script `inboxdesk` and `python -m inboxdesk`: the command line, imported
with the garbage collector paused.

The imports build some 100,000 objects and no garbage, and the collector, left on, made
about 150 passes over them while they were built: 40 ms of the app's start-up
(benchmarks/startup.py). The app's own regime then takes over (tui/collector.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection while the block runs (imports); what it built is then frozen, so
    that no later pass walks it again (the first young pass would take 23 ms)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_on:
            gc.enable()


def main() -> int:
    with collector_paused():
        from inboxdesk.cli import main as run
    return run()
