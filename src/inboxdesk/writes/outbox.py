"""The one path of every write: send it, or queue it while the service is away.

Policy (decisions.md 1 to 6):
- writes go out one at a time, in the order they were made, each with the
  Idempotency-Key it was first tried with; none is merged with another;
- while the service is away a write is queued (when this outbox queues at all: the
  command line's does not) and sent, in order, by `flush` once it is back;
- set primary is never queued: its confirmation named a state that may have changed;
- undo of a write never tried takes it out of the queue; any other undo is a new write.

Every outcome is recorded in the journal and handed to the listeners as one event.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from inboxdesk.client import ApiError, InboxClient, InboxdeskError, TransportError
from inboxdesk.models import MarkAs
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.writes.effects import Flags, after_mark, restore_steps
from inboxdesk.writes.events import (
    Dropped,
    Event,
    Failed,
    Partial,
    Queued,
    Refused,
    Result,
    Sent,
)
from inboxdesk.writes.model import UNDOABLE_MARK_ALL, Kind, Step, Where, Write, describe
from inboxdesk.writes.store import Entry, WriteStore

if TYPE_CHECKING:
    from inboxdesk.models import Message

Listener = Callable[[Event], None]
INBOX_IN_FLIGHT = 4  # per-notification requests of one write at a time (decisions.md 13)
INVERSE = {"archive": "unarchive", "unarchive": "archive", "snooze": "unsnooze"}
MARKS = frozenset(m.value for m in MarkAs)


class Outbox:
    def __init__(
        self,
        client: InboxClient,
        where: Where,
        store: WriteStore | None = None,
        *,
        queue: bool = True,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.client = client
        self.clock = clock or (lambda: datetime.now(UTC))
        self.where = where
        self.store = store if store is not None else WriteStore(None)
        self.queues = queue
        # True while the service is known to be away: new writes queue without a try.
        self.away = False
        # A read-only run: nothing is sent or queued, and earlier queued writes stay put.
        self.read_only = False
        self._lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        # This session's writes, newest last, with the flags the service returned.
        self._made: list[Write] = []
        self._after: dict[str, dict[str, Flags]] = {}
        self._counts: dict[str, int] = {}  # how many each mark-all changed
        self._undone: set[str] = set()

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _emit(self, event: Event) -> Event:
        outcome = type(event).__name__.lower()
        if not isinstance(event, Refused):
            detail = _detail(event)
            if "status" not in detail and (status := self._last_status(event.write)):
                detail["status"] = status
            # Filed under the environment it acted in (a switch of another environment's
            # integration), else the key's.
            acted = event.write.environment
            where = replace(self.where, environment=acted) if acted else self.where
            self.store.record(where, event.write, outcome, detail, self.clock())
        for listener in self._listeners:
            listener(event)
        return event

    def _last_status(self, write: Write) -> int | None:
        """The status the service gave the write's newest request (each request of a
        write carries one of its keys), from the client's log of this session."""
        for request in reversed(self.client.requests.entries):
            key = request.idempotency_key or ""
            if key == write.key or key.startswith(f"{write.key}-"):
                return request.status
        return None

    # -- the queue -------------------------------------------------------------------------

    def queued(self) -> list[Write]:
        """This profile's, host's and environment's writes not yet sent, oldest first."""
        return self.store.queued(self.where)

    def move_to(self, where: Where) -> None:
        """The key's environment became known: this session's queued writes follow it,
        and so do those of the same profile and host filed before it was known."""
        if where == self.where:
            return
        mine = {w.id for w in self._made}
        unknown = Where(where.profile, where.host)
        for filed in dict.fromkeys((self.where, unknown)):
            for write in self.store.queued(filed):
                if write.id in mine or filed == unknown:
                    self.store.dequeue(write.id)
                    self.store.enqueue(where, write)
        self.where = where

    def drop(self, write: Write) -> Event:
        self.store.dequeue(write.id)
        return self._emit(Dropped(write))

    # -- sending ---------------------------------------------------------------------------

    async def submit(self, write: Write) -> Event:
        """Send `write` now, or queue it behind the writes already waiting."""
        if self.read_only:
            return self._emit(Failed(write, InboxdeskError("Read-only: nothing was sent.")))
        if not write.tried:
            write = replace(write, made_at=self.clock())  # made now, by the outbox's clock
        async with self._lock:
            self._made.append(write)
            if write.kind is not Kind.SET_PRIMARY and self.queues:
                waiting = self.queued()
                if self.away or waiting:
                    self.store.enqueue(self.where, write)
                    return self._emit(Queued(write, len(waiting)))
            return await self._send(write)

    async def flush(self, writes: list[Write] | None = None) -> list[Event]:
        """Send the queued writes (or those of them given) in order; stop at the first
        that finds the service still away."""
        events: list[Event] = []
        if self.read_only:
            return events  # listed, never sent
        async with self._lock:
            chosen = None if writes is None else {w.id for w in writes}
            for write in self.queued():
                if chosen is not None and write.id not in chosen:
                    continue
                event = await self._send(write)
                events.append(event)
                if isinstance(event, Queued):
                    break
        return events

    async def _send(self, write: Write) -> Event:
        tried = write.as_tried()
        try:
            event = await self._perform(tried)
        except TransportError as exc:
            if tried.kind is Kind.SET_PRIMARY or not self.queues:
                self.store.dequeue(tried.id)
                return self._emit(Failed(tried, exc))
            self.away = True
            self.store.enqueue(self.where, tried)
            ahead = [w.id for w in self.queued()].index(tried.id)
            return self._emit(Queued(tried, ahead))
        except InboxdeskError as exc:
            self.store.dequeue(tried.id)
            return self._emit(Failed(tried, exc))
        self.away = False
        self.store.dequeue(tried.id)
        self._made = [tried if w.id == tried.id else w for w in self._made]
        self._remember(tried, event)
        return self._emit(event)

    async def _perform(self, write: Write) -> Sent | Partial:
        client = self.client
        if write.kind is Kind.SET_PRIMARY:
            integration = await client.set_primary(write.target, idempotency_key=write.key)
            return Sent(write, Result(integration=integration))
        if write.kind is Kind.MARK_ALL:
            count = await client.mark_all(
                write.target, write.steps[0].action, idempotency_key=write.key
            )
            return Sent(write, Result(count=count, refetch=True))
        if write.kind is Kind.INBOX:
            return await self._inbox(write)
        if write.kind is Kind.ARCHIVE_ALL:
            from inboxdesk.client.inbox import bulk

            await bulk(client, write.target, write.steps[0].action, idempotency_key=write.key)
            return Sent(write, Result(refetch=True))  # 204: no count, no items
        messages: list[Message] = []
        not_updated: list[str] = []
        for number, step in enumerate(write.steps):
            try:
                answer = await client.mark_as(
                    write.target,
                    list(step.ids),
                    step.action,
                    idempotency_key=write.step_key(number),
                )
            except InboxdeskError as exc:
                if number == 0 or isinstance(exc, TransportError):
                    raise  # nothing done yet, or to be resent whole (the keys make it once)
                result = Result(tuple(messages), not_updated=tuple(not_updated))
                return Partial(
                    write,
                    result,
                    failed=len(write.steps) - number,
                    requests=len(write.steps),
                    error=exc,
                )
            messages.extend(answer.updated)
            not_updated.extend(answer.not_updated)
        result = Result(tuple(messages), not_updated=tuple(dict.fromkeys(not_updated)))
        return Partial(write, result) if not_updated else Sent(write, result)

    async def _inbox(self, write: Write) -> Sent | Partial:
        """One PATCH per notification, at most INBOX_IN_FLIGHT at a time, each with its
        own key derived from the write's; a write with none done and the service away
        raises, to be queued whole (the keys make a resend apply once)."""
        step = write.steps[0]
        until = datetime.fromisoformat(write.until) if write.until else None
        gate = asyncio.Semaphore(INBOX_IN_FLIGHT)

        async def one(number: int, notification_id: str) -> InboxNotification:
            async with gate:
                return await self.client.notification_action(
                    write.target, notification_id, step.action, until, write.step_key(number + 1)
                )

        answers = await asyncio.gather(
            *(one(n, i) for n, i in enumerate(step.ids)), return_exceptions=True
        )
        done = [a for a in answers if isinstance(a, InboxNotification)]
        failures = [a for a in answers if isinstance(a, BaseException)]
        away = [f for f in failures if isinstance(f, TransportError)]
        if away:
            raise away[0]
        for failure in failures:
            if not isinstance(failure, InboxdeskError):
                raise failure  # a bug: reported as one
        result = Result(
            notifications=tuple(done),
            not_updated=tuple(
                i
                for i, a in zip(step.ids, answers, strict=True)
                if not isinstance(a, InboxNotification)
            ),
        )
        if not failures:
            return Sent(write, result)
        first = failures[0]
        assert isinstance(first, InboxdeskError)
        return Partial(write, result, failed=len(failures), requests=len(step.ids), error=first)

    def _journaled_after(self, write: Write) -> dict[str, Flags]:
        """What the service returned to `write`, as journaled (a write of another session)."""
        entry = self.store.entry(write.id)
        after = entry.detail.get("after", {}) if entry is not None else {}
        return {str(i): (bool(f[0]), bool(f[1])) for i, f in after.items()}

    def _remember(self, write: Write, event: Sent | Partial) -> None:
        after = {m.id: (m.read, m.seen) for m in event.result.messages if m.id}
        if write.kind is Kind.MARK_ALL and write.before is not None:
            after = {i: after_mark(write.steps[0].action, f) for i, f in write.before.items()}
        self._after[write.id] = after
        if event.result.count is not None:
            self._counts[write.id] = event.result.count

    # -- undo ------------------------------------------------------------------------------

    def last(self, target: str) -> Write | None:
        """The newest write of this session on `target` that `undo` would take back."""
        for write in reversed(self._made):
            if (
                write.target == target
                and write.undoes is None
                and write.id not in self._undone
                and write.kind is not Kind.SET_PRIMARY
            ):
                return write
        return None

    @staticmethod
    def primary_again(write: Write) -> Write | str:
        """A set primary's undo (decisions.md 32): making the one it replaced primary
        again, a new switch; or why there is none."""
        if not write.previous:
            return "This cannot be undone: no other integration was primary before it."
        earlier, name = write.previous[0]
        return Write(
            Kind.SET_PRIMARY,
            earlier,
            (),
            label=name,
            undoes=write.id,
            environment=write.environment,
        )

    def refusal(self, write: Write) -> str | None:
        """Why `write` cannot be undone (decisions.md 32), or None."""
        if not write.tried and any(w.id == write.id for w in self.queued()):
            return None  # never tried: it just leaves the queue
        if write.kind is Kind.SET_PRIMARY:
            again = self.primary_again(write)
            return again if isinstance(again, str) else None
        if write.kind is Kind.ARCHIVE_ALL:
            return "This cannot be undone: the service has no unarchive-all."
        if write.kind is Kind.INBOX:
            if write.steps[0].action not in INVERSE:
                return "This cannot be undone: the end of the earlier snooze is not known."
            return None
        if write.before is None:
            count = self._count(write)
            reason = (
                f"it changed more than {UNDOABLE_MARK_ALL:,} messages"
                if write.kind is Kind.MARK_ALL and count is not None and count > UNDOABLE_MARK_ALL
                else "the state before it is unknown"
            )
            return f"This cannot be undone: {reason}."
        return None

    def _count(self, write: Write) -> int | None:
        """How many messages a mark-all changed, as the service said (this session's, or
        journaled): over UNDOABLE_MARK_ALL is why its "before" was not listed."""
        if write.id in self._counts:
            return self._counts[write.id]
        entry = self.store.entry(write.id)
        count = entry.detail.get("count") if entry is not None else None
        return count if isinstance(count, int) else None

    def undo_notes(self, entry: Entry) -> list[str]:
        """What to say before undoing a journal entry: later writes that touched the same
        things (the state it restores may not be the one meant), and that a switch back
        is a new switch. Empty: nothing to ask."""
        notes = []
        later = self.store.later(entry)
        if later:
            things = "integrations" if entry.write.kind is Kind.SET_PRIMARY else "messages"
            notes.append(
                f"{len(later)} later write{'s' if len(later) != 1 else ''} touched the same "
                f"{things} since (newest: {describe(later[0].write)}, {later[0].write.id[:10]})."
            )
        if entry.write.kind is Kind.SET_PRIMARY:
            notes.append(
                "This is a new switch: it cannot restore cleared conditions or an activation."
            )
        return notes

    async def undo(self, write: Write, now: Mapping[str, Flags] | None = None) -> Event:
        """Take `write` back: out of the queue if it was never tried, else by a new write
        that restores each message's state before it. `now`: the flags as last seen,
        where fresher than what the service answered to `write`."""
        refused = self.refusal(write)
        if refused is not None:
            return self._emit(Refused(write, refused))
        if not write.tried and any(w.id == write.id for w in self.queued()):
            self._undone.add(write.id)
            return self.drop(write)
        if write.kind is Kind.SET_PRIMARY:
            again = self.primary_again(write)
            assert isinstance(again, Write)
            self._undone.add(write.id)
            return await self.submit(again)
        if write.kind is Kind.INBOX:
            step = write.steps[0]
            self._undone.add(write.id)
            back = Step(INVERSE[step.action], step.ids)
            return await self.submit(Write(Kind.INBOX, write.target, (back,), undoes=write.id))
        assert write.before is not None
        current = predicted(write)
        current.update(self._after.get(write.id) or self._journaled_after(write))
        current.update({i: f for i, f in (now or {}).items() if i in write.before})
        steps = restore_steps(write.before, current)
        self._undone.add(write.id)
        if not steps:
            return self._emit(Refused(write, "Nothing to undo: the messages are as they were."))
        undo = Write(
            Kind.MARK,
            write.target,
            tuple(Step(m.value, tuple(ids)) for m, ids in steps),
            before=current,
            undoes=write.id,
        )
        return await self.submit(undo)


def predicted(write: Write) -> dict[str, Flags]:
    """Each id's flags after `write`, from its "before" and the rule of each step."""
    current = dict(write.before or {})
    for step in write.steps:
        if step.action in MARKS:
            # A mark-all names no ids: it marks every one (and its "before" lists them).
            ids = step.ids if write.kind is not Kind.MARK_ALL else tuple(current)
            for message_id in ids:
                if message_id in current:
                    current[message_id] = after_mark(step.action, current[message_id])
    return current


def _error_detail(error: InboxdeskError) -> dict[str, object]:
    detail: dict[str, object] = {"error": error.message, "kind": type(error).__name__}
    if isinstance(error, ApiError):
        detail["status"] = error.status
        if error.error_id:
            detail["errorId"] = error.error_id
    return detail


def _detail(event: Event) -> dict[str, object]:
    if isinstance(event, Sent | Partial):
        result = event.result
        after = {m.id: [m.read, m.seen] for m in result.messages if m.id}
        after.update({n.id: [n.is_read, n.is_seen] for n in result.notifications})
        detail: dict[str, object] = {"after": after, "notUpdated": list(result.not_updated)}
        if result.notifications:
            detail["state"] = {
                n.id: {"archived": n.is_archived, "snoozedUntil": n.snoozed_until}
                for n in result.notifications
            }
        if result.count is not None:
            detail["count"] = result.count
        if result.integration is not None:
            detail["integration"] = result.integration.id
        if isinstance(event, Partial) and event.error is not None:
            detail.update(_error_detail(event.error))
            detail["failed"] = event.failed
        return detail
    if isinstance(event, Failed):
        return _error_detail(event.error)
    if isinstance(event, Queued):
        return {"behind": event.behind}
    return {}
