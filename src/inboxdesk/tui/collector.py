"""The garbage collector's regime while the app runs: started, settled and undone by
the App, the one owner of this process-wide setting.

The imports leave some 60,000 objects, start-up adds as many again (widgets, styles,
the first page), and the app keeps hundreds of thousands once it holds pages. Left to
the defaults, start-up made full passes over the whole heap, and each later full pass
made the whole tail of a mark's latency (BENCHMARKS.md). Frozen objects are skipped
by every pass.
"""

from __future__ import annotations

import gc


class Collector:
    def __init__(self) -> None:
        self._before: tuple[int, int, int] | None = None
        self._was_on = True
        self._settled = False

    def start(self) -> None:
        """Before the first frame: what the imports built is frozen, and no pass runs
        until `settle` (the first rows, or the App's deadline): start-up builds some
        100,000 objects that live on, and young passes over them find no garbage."""
        if self._before is None:
            self._before = gc.get_threshold()
            self._was_on = gc.isenabled()
            gc.freeze()
            gc.disable()
            gc.set_threshold(20_000, 10, 10)

    def settle(self) -> None:
        """Start-up is over (or has taken too long): what it built is frozen too, and
        the young passes start, rarer than the defaults."""
        if self._before is None or self._settled:
            return
        self._settled = True
        # The young garbage only: a full pass (tens of ms) would hold up the first keys;
        # what older garbage there is stays frozen until the app ends.
        gc.collect(1)
        gc.freeze()
        if self._was_on:
            gc.enable()

    def stop(self) -> None:
        if self._before is not None:
            gc.set_threshold(*self._before)
            if self._was_on:
                gc.enable()
            self._before = None
            self._settled = False
            # Back into the collector's care; no full pass here (100+ ms in a process
            # that holds much more, as a test run does): the next ordinary one will do.
            gc.unfreeze()
