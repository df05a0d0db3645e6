"""A schedule write: a subscriber's quiet hours set whole, or turned off, with one
`PATCH /v2/subscribers/{id}/preferences` body `{schedule}`.

Kept in a Write as: `target` the subscriberId, `change` `{"set": schedule, "before":
the schedule before or None}` (no "before" key: unknown, and no undo), `label` what it
does in words. An undo sets the schedule before back whole; where there was none it
turns the schedule off (the service has no way to remove one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inboxdesk.schedule import DAYS, OFF, day_words, is_on
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients
from inboxdesk.writes.kinds.data import SubscriberData
from inboxdesk.writes.model import Kind, Write


def words(schedule: Mapping[str, Any] | None) -> str:
    """`mon 09:00-17:30, sat closed …` or `off`, in one line, safe."""
    if not is_on(schedule):
        return "off"
    assert schedule is not None
    weekly = schedule.get("weeklySchedule")
    weekly = weekly if isinstance(weekly, Mapping) else {}
    open_days = [f"{d[:3]} {day_words(weekly[d])}" for d in DAYS if d in weekly]
    return "; ".join(open_days) or "on, no day listed"


def schedule_write(
    subscriber_id: str,
    schedule: Mapping[str, Any],
    before: Mapping[str, Any] | None,
    *,
    known: bool = True,
    undoes: str | None = None,
) -> Write:
    """The write that sets `schedule` whole; `before`: the schedule now (None: none is
    set), known only when `known` (else the write cannot be undone)."""
    change: dict[str, Any] = {"set": dict(schedule)}
    if known:
        change["before"] = None if before is None else dict(before)
    said = f"quiet hours of {subscriber_id}: {words(schedule)}"
    return Write(
        Kind.SCHEDULE,
        subscriber_id,
        (),
        label=f"undo: {said}" if undoes else said,
        undoes=undoes,
        change=change,
    )


class Schedule(SubscriberData):
    """A subscriber's quiet hours set whole, or turned off."""

    kind = Kind.SCHEDULE

    async def perform(self, write: Write, clients: Clients) -> Sent:
        assert write.change is not None
        prefs = await clients.client.update_schedule(
            write.target, write.change["set"], idempotency_key=write.key
        )
        return Sent(write, Result(values={"schedule": prefs.global_.schedule}))

    def refusal(self, write: Write, answers: Answers) -> str | None:
        if write.change is None or "before" not in write.change:
            return "This cannot be undone: the schedule before it is unknown."
        return None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        """The write that puts the schedule before back whole, or turns it off where there
        was none."""
        assert write.change is not None
        was = write.change["before"]
        current = answers.values_after(write).get("schedule", write.change["set"])
        return schedule_write(write.target, OFF if was is None else was, current, undoes=write.id)

    def public(self, write: Write, values: Mapping[str, Any] | None) -> tuple[Any, Any]:
        """The before and after History shows (a schedule holds no secret)."""
        change = write.change or {}
        return change.get("before"), (values or {}).get("schedule", change.get("set"))
