"""Following a delivery live: when to read it again, and when to stop. One rule for the
app's timeline and `inboxdesk delivery --follow`.

It is read every second while something is not final, every ten seconds once a minute
has passed without change, and it stops when every job is final, or at the time limit
(ten minutes). Where a step was sent through an integration that reports deliveries, it
keeps going for a grace period after that, to catch the bounce or the delivery that
comes after "sent". Time comes from the caller's clock, so tests move it by hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from inboxdesk.client import InboxdeskError
from inboxdesk.client.errors import transient
from inboxdesk.core.delivery.tracking import tracks
from inboxdesk.delivery import Cause, has_failed, job_cause
from inboxdesk.models.delivery import ActivityNotification

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient
    from inboxdesk.models import Integration

POLL = 1.0  # seconds between reads while it moves
SLOW_POLL = 10.0  # once QUIET seconds have passed without change
QUIET = 60.0
LIMIT = 600.0  # the longest a delivery is followed
GRACE = 5.0  # after every job is final, where a report may still come
# Job statuses that no longer change (a provider's report may still add a detail).
FINAL = frozenset({"completed", "failed", "canceled", "skipped", "merged"})
# The longest real wait between looks at the clock: a clock moved by hand is noticed
# within it.
NAP = 0.05


class Ending(StrEnum):
    ARRIVED = "arrived"  # every job final, nothing failed
    FAILED = "failed"  # every job final, something did not arrive
    LIMIT = "limit"  # the time limit passed first


def final(notifications: Sequence[ActivityNotification]) -> bool:
    """Every job of every notification final (none found yet: not final)."""
    jobs = [j for n in notifications for j in n.jobs]
    return bool(jobs) and all(str(j.status) in FINAL for j in jobs)


def awaiting_report(notifications: Sequence[ActivityNotification], tracked: frozenset[str]) -> bool:
    """Whether a step was sent, and no more, through a provider that reports deliveries."""
    return any(
        job.provider_id in tracked and job_cause(job).cause is Cause.SENT
        for n in notifications
        for job in n.jobs
    )


def tracked_of(integrations: Sequence[Integration]) -> frozenset[str]:
    """The providers of the active integrations that report deliveries (tracking.py)."""
    return frozenset(i.provider_id for i in integrations if i.active and tracks(i))


async def tracked_providers(client: InboxClient) -> frozenset[str]:
    """tracked_of the environment's integrations; none when they cannot be read (then
    no grace is kept)."""
    try:
        return tracked_of(await client.list_integrations(active_only=True))
    except InboxdeskError:
        return frozenset()


def fingerprint(notifications: Sequence[ActivityNotification]) -> tuple[object, ...]:
    """What changes when anything lands: each job's status and its details."""
    return tuple(
        (j.id, str(j.status), tuple(d.id or d.created_at for d in j.execution_details))
        for n in notifications
        for j in n.jobs
    )


@dataclass
class Follow:
    """The state of one follow: when it started, when it last saw a change, and when
    every job became final."""

    started: datetime
    grace: float = GRACE
    limit: float = LIMIT
    tracked: frozenset[str] = frozenset()
    changed: datetime = field(init=False)
    settled: datetime | None = field(default=None, init=False)
    seen: tuple[object, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        self.changed = self.started

    def look(self, notifications: Sequence[ActivityNotification], now: datetime) -> bool:
        """Take a new reading; True when it differs from the last."""
        marks = fingerprint(notifications)
        moved = marks != self.seen
        if moved:
            self.seen = marks
            self.changed = now
        if final(notifications):
            self.settled = self.settled or now
        else:
            self.settled = None
        return moved

    def ending(self, notifications: Sequence[ActivityNotification], now: datetime) -> Ending | None:
        """Why to stop now, or None to go on."""
        if self.settled is not None:
            waiting = awaiting_report(notifications, self.tracked)
            if not waiting or now - self.settled >= timedelta(seconds=self.grace):
                return Ending.FAILED if any(map(has_failed, notifications)) else Ending.ARRIVED
        if now - self.started >= timedelta(seconds=self.limit):
            return Ending.LIMIT
        return None

    def interval(self, now: datetime) -> float:
        """Seconds to the next reading: 1, or 10 after a minute without change."""
        quiet = (now - self.changed).total_seconds() >= QUIET
        step = SLOW_POLL if quiet else POLL
        # Never past the time limit, so that it ends on time.
        left = self.limit - (now - self.started).total_seconds()
        return max(0.0, min(step, left))


async def wait(clock: Callable[[], datetime], seconds: float) -> None:
    """Until `clock` has moved `seconds` on, looking at it every NAP at most."""
    until = clock() + timedelta(seconds=seconds)
    while (left := (until - clock()).total_seconds()) > 0:
        await asyncio.sleep(min(left, NAP))


async def follow(
    read: Callable[[], Awaitable[list[ActivityNotification]]],
    state: Follow,
    clock: Callable[[], datetime],
    shown: Callable[[list[ActivityNotification], bool], None],
    first: list[ActivityNotification] | None = None,
) -> Ending:
    """Read until `state` says to stop; `shown` gets every reading and whether it moved.
    A reading the service did not answer for now (away, too slow, busy) counts as no
    change: the next one tries again; any other error ends the follow."""

    async def reading(last: list[ActivityNotification]) -> list[ActivityNotification]:
        try:
            return await read()
        except InboxdeskError as exc:
            if not transient(exc):
                raise
            return last

    found = first if first is not None else await reading([])
    while True:
        now = clock()
        shown(found, state.look(found, now))
        ending = state.ending(found, now)
        if ending is not None:
            return ending
        await wait(clock, state.interval(now))
        found = await reading(found)
