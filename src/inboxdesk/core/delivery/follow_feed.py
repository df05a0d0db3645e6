"""Following a feed: when to ask for its first page again, and the newest rows kept.

A followed feed is asked for page 0 every `fast` seconds, and every `slow` seconds once
`calm` seconds passed without a new row; it never stops by itself. What it keeps is a
ring of the newest `ring` rows, newest first: older ones leave memory (never the
service), so a run of any length holds the same. Times are the caller's clock, in
seconds, so tests drive it with a fake one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Types only: the inbox imports this module before its first frame.
    from inboxdesk.models.delivery import ActivityNotification

FAST = 3.0
SLOW = 30.0
CALM = 60.0
RING = 2_000


@dataclass
class Follow:
    ring: int = RING
    fast: float = FAST
    slow: float = SLOW
    calm: float = CALM
    # When a new row last arrived (or following started), on the caller's clock.
    changed_at: float | None = None
    rows: list[ActivityNotification] = field(default_factory=list)

    def start(self, rows: Iterable[ActivityNotification], now: float) -> None:
        """Begin from the rows already shown (newest first)."""
        self.rows = list(rows)[: self.ring]
        self.changed_at = now

    def merge(self, page: Iterable[ActivityNotification], now: float) -> list[ActivityNotification]:
        """Put the page's rows not held yet on top (in the page's order); drop what falls
        past the ring. The new rows, newest first."""
        held = {n.id for n in self.rows}
        fresh = [n for n in page if n.id not in held]
        if fresh:
            self.rows = (fresh + self.rows)[: self.ring]
            self.changed_at = now
        return fresh

    def interval(self, now: float) -> float:
        """Seconds until the next ask: fast while rows keep coming, slow once calm."""
        if self.changed_at is None or now - self.changed_at < self.calm:
            return self.fast
        return self.slow
