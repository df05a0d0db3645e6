"""Large imports, and the demo's data, with the garbage collector paused.

Importing the command line or the app builds some 100,000 objects and no garbage; a
collector left on walks them again and again while they are built. Paused, it makes
no pass, and what the block built is then frozen, so that no later pass walks it
either. The app's own regime then takes over (tui/collector.py). Data that is built
and then dropped (the demo's fixture, a fixture's rows) is built with the collector
off (`collector_off`), and not frozen.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection while the block runs; what it built is then frozen."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_on:
            gc.enable()


@contextmanager
def collector_off() -> Iterator[None]:
    """No collection while the block runs, for work that builds many objects and no
    cycles (the demo's data, a fixture's rows): each pass of the collector walks them
    all again. The collector is then as it was; nothing is frozen, so what the block
    built is freed as usual once dropped."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
