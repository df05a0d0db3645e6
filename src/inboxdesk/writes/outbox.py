"""The one path of every write: send it, or queue it while the service is away.

Policy:
- writes go out one at a time, in the order they were made, each with the
  Idempotency-Key it was first tried with; none is merged with another;
- while the service is away a write is queued (when this outbox queues at all: the
  command line's does not) and sent, in order, by `flush` once it is back;
- a write stays queued on an answer that says "not now" (a timeout, 408, 409, 425, 429,
  500, 502, 503, 504) and fails on any other refusal;
- a queued write is filed with the fingerprint of the key it was made with: another
  key never sends it, and a process claims it in the store before sending it;
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

from inboxdesk.client import ApiError, InboxClient, InboxdeskError
from inboxdesk.client.errors import ProtocolError, transient
from inboxdesk.models import MarkAs
from inboxdesk.models.inbox import InboxAction, InboxNotification
from inboxdesk.text import safe
from inboxdesk.writes import credentials, schedule, subscriber
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
from inboxdesk.writes.model import (
    DATA_KINDS,
    TRIGGERS,
    UNDOABLE_MARK_ALL,
    Kind,
    Step,
    Where,
    Write,
    describe,
    never_undone,
)
from inboxdesk.writes.preference import after_of, toggle_of, undo_of
from inboxdesk.writes.store import Entry, WriteStore

if TYPE_CHECKING:
    from inboxdesk.models import Integration, Message

Listener = Callable[[Event], None]
# Kinds the inbox's undo never takes back: what they did cannot be taken back.
NEVER_UNDONE = (Kind.SEND, Kind.RESEND, Kind.CANCEL)
INBOX_IN_FLIGHT = 4  # per-notification requests of one write at a time
MARKS = frozenset(m.value for m in MarkAs)
# Fail while the service is away, never wait in the queue: what they confirmed, or a
# notification's moment, may not hold later.
NEVER_QUEUED = frozenset({Kind.SET_PRIMARY, Kind.SEND, Kind.RESEND, Kind.CANCEL})


class Outbox:
    def __init__(
        self,
        client: InboxClient,
        where: Where,
        store: WriteStore | None = None,
        *,
        queue: bool = True,
        clock: Callable[[], datetime] | None = None,
        client_of: Callable[[str], InboxClient] | None = None,
    ) -> None:
        self.client = client
        # A switch of an environment's primary goes with that environment's key.
        self.client_of = client_of
        self.clock = clock or (lambda: datetime.now(UTC))
        self.where = where
        self.store = store if store is not None else WriteStore(None)
        self.queues = queue
        # Which key the queued writes of this outbox were made with (never the key).
        self.fingerprint = client.key_fingerprint(self.store.secret)
        # True while the service is known to be away: new writes queue without a try.
        self.away = False
        # Whether the run, or the environment acted in now, is read-only: asked at each
        # write and each replay, so that it follows a switch of environment both ways.
        self.read_only_of: Callable[[], bool] = lambda: False
        self._lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        # This session's writes, newest last, with the flags the service returned.
        self._made: list[Write] = []
        self._after: dict[str, dict[str, Flags]] = {}
        self._counts: dict[str, int | float] = {}  # how many each mark-all changed
        self._undone: set[str] = set()

    @property
    def read_only(self) -> bool:
        """Read-only now: nothing is sent or queued, and earlier queued writes stay put."""
        return self.read_only_of()

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self.read_only_of = lambda: value

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
        client = self.client
        if write.kind is Kind.SET_PRIMARY and write.environment and self.client_of is not None:
            client = self.client_of(write.environment)
        for request in reversed(client.requests.entries):
            key = request.idempotency_key or ""
            if key == write.key or key.startswith(f"{write.key}-"):
                return request.status
        return None

    # -- the queue -------------------------------------------------------------------------

    def queued(self) -> list[Write]:
        """This profile's, host's and environment's writes not yet sent, made with this
        key, oldest first."""
        return self.store.queued(self.where, self.fingerprint)

    def held(self) -> int:
        """Queued writes of this profile and host made with another key: they wait for it."""
        return self.store.held(self.where, self.fingerprint)

    def held_note(self) -> str | None:
        """Why some queued writes are not offered, or None."""
        held = self.held()
        if not held:
            return None
        return (
            f"{held} queued write{'s were' if held != 1 else ' was'} made with another API "
            "key: kept for that key, never sent with this one."
        )

    def move_to(self, where: Where) -> None:
        """The key's environment became known: this session's queued writes follow it,
        and so do those of the same profile and host filed before it was known, if this
        key made them (a key has one environment; another key's may be another)."""
        if where == self.where:
            return
        mine = {w.id for w in self._made}
        unknown = Where(where.profile, where.host)
        for filed in dict.fromkeys((self.where, unknown)):
            for write in self.store.queued(filed, self.fingerprint):
                if write.id in mine or filed == unknown:
                    self.store.refile(write.id, where)
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
            if write.kind in TRIGGERS:
                # Journalled before the first try: its transactionId is never lost.
                self.store.record(self.where, write, "sending")
            if write.kind not in NEVER_QUEUED and self.queues:
                waiting = self.queued()
                if self.away or waiting:
                    self.store.enqueue(self.where, write, self.fingerprint)
                    why = "the service is away" if self.away else "earlier writes wait"
                    return self._emit(Queued(write, len(waiting), why))
            return await self._send(write)

    async def flush(self, writes: list[Write] | None = None) -> list[Event]:
        """Send the queued writes (or those of them given) in order; stop at the first
        that finds the service still away. One another process claimed is its to send."""
        events: list[Event] = []
        if self.read_only:
            return events  # listed, never sent
        async with self._lock:
            chosen = None if writes is None else {w.id for w in writes}
            for write in self.queued():
                if chosen is not None and write.id not in chosen:
                    continue
                if not self.store.claim(write.id):
                    continue
                try:
                    event = await self._send(write)
                finally:
                    self.store.release(write.id)
                events.append(event)
                if isinstance(event, Queued):
                    break
        return events

    async def _send(self, write: Write) -> Event:
        tried = write.as_tried()
        try:
            event = await self._perform(tried)
        except InboxdeskError as exc:
            if not transient(exc) or tried.kind in NEVER_QUEUED or not self.queues:
                self.store.dequeue(tried.id)
                return self._emit(Failed(tried, exc))
            # Away, too slow, or "not now": kept, with its key, to be sent again.
            self.away = True
            self.store.enqueue(self.where, tried, self.fingerprint)
            ahead = [w.id for w in self.queued()].index(tried.id)
            return self._emit(Queued(tried, ahead, exc.message))
        self.away = False
        self.store.dequeue(tried.id)
        self._made = [tried if w.id == tried.id else w for w in self._made]
        self._remember(tried, event)
        return self._emit(event)

    async def _perform(self, write: Write) -> Sent | Partial:
        client = self.client
        if write.kind is Kind.SUBSCRIBER:
            return await subscriber.perform(client, write)
        if write.kind is Kind.SCHEDULE:
            return await schedule.perform(client, write)
        if write.kind in DATA_KINDS:
            return await credentials.perform(client, write)
        if write.kind is Kind.SET_PRIMARY:
            if write.environment and self.client_of is not None:
                client = self.client_of(write.environment)
            integration = await client.set_primary(write.target, idempotency_key=write.key)
            _answers_the_switch(write, integration, self.where.environment)
            return Sent(write, Result(integration=integration))
        if write.kind is Kind.SEND:
            step = write.steps[0]
            triggered = await client.trigger(
                step.action, write.target, write.payload, step.ids[0], idempotency_key=write.key
            )
            return Sent(write, Result(trigger=triggered))
        if write.kind is Kind.RESEND:
            step = write.steps[0]
            triggered = await client.trigger(
                step.action,
                write.target,
                write.payload,
                step.ids[0],
                idempotency_key=write.key,
                extra=write.trigger,
            )
            return Sent(write, Result(trigger=triggered))
        if write.kind is Kind.CANCEL:
            cancelled = await client.cancel_trigger(write.target, idempotency_key=write.key)
            return Sent(write, Result(cancelled=cancelled))
        if write.kind is Kind.MARK_ALL:
            count = await client.mark_all(
                write.target, write.steps[0].action, idempotency_key=write.key
            )
            return Sent(write, Result(count=count, refetch=True))
        if write.kind is Kind.INBOX:
            return await self._inbox(write)
        if write.kind is Kind.PREFERENCE:
            toggle = toggle_of(write)
            prefs = await client.update_preferences(
                write.target,
                {toggle.channel: toggle.on},
                workflow_id=toggle.workflow or None,
                idempotency_key=write.key,
                context_keys=write.context,
            )
            return Sent(write, Result(preferences=prefs))
        if write.kind is Kind.ARCHIVE_ALL:
            await client.bulk(write.target, write.steps[0].action, idempotency_key=write.key)
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
                if number == 0 or transient(exc):
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
        away = [f for f in failures if isinstance(f, InboxdeskError) and transient(f)]
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

    def values_after(self, write: Write) -> dict[str, object]:
        """What the service answered to a subscriber-data write, as journaled."""
        entry = self.store.entry(write.id)
        values = entry.detail.get("values") if entry is not None else None
        return values if isinstance(values, dict) else {}

    def _journaled_after(self, write: Write) -> dict[str, Flags]:
        """What the service returned to `write`, as journaled (a write of another session)."""
        entry = self.store.entry(write.id)
        after = entry.detail.get("after", {}) if entry is not None else {}
        return {str(i): (bool(f[0]), bool(f[1])) for i, f in after.items()}

    def _remember(self, write: Write, event: Sent | Partial) -> None:
        after = {m.id: (m.read, m.seen) for m in event.result.messages if m.id}
        if event.result.preferences is not None:
            after = {k: (v[0], v[1]) for k, v in after_of(write, event.result.preferences).items()}
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
                # A switch or a preference is undone from History, never by the inbox's z.
                and write.kind
                not in (Kind.SET_PRIMARY, Kind.PREFERENCE, *NEVER_UNDONE, *DATA_KINDS)
            ):
                return write
        return None

    @staticmethod
    def primary_again(write: Write) -> Write | str:
        """A set primary's undo: making the one it replaced primary
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
        """Why `write` cannot be undone, or None."""
        if not write.tried and any(w.id == write.id for w in self.queued()):
            return None  # never tried: it just leaves the queue
        if write.kind is not Kind.SET_PRIMARY and (elsewhere := self._elsewhere(write)):
            return elsewhere
        if write.kind is Kind.SET_PRIMARY:
            again = self.primary_again(write)
            return again if isinstance(again, str) else None
        if write.kind is Kind.SUBSCRIBER:
            return subscriber.refusal(write)
        if write.kind is Kind.SCHEDULE:
            return schedule.refusal(write)
        if write.kind in DATA_KINDS:
            return credentials.refusal(write)
        if write.kind is Kind.PREFERENCE and write.before is None:
            return "This cannot be undone: the channel's value before it is unknown."
        if write.kind is Kind.ARCHIVE_ALL:
            return "This cannot be undone: the service has no unarchive-all."
        if (never := never_undone(write)) is not None:
            return never
        if write.kind is Kind.INBOX:
            if InboxAction(write.steps[0].action).inverse is None:
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

    def _elsewhere(self, write: Write) -> str | None:
        """Why a write made in another environment than the one acted in now is not
        undone here: its undo would go with this environment's key (a switch back goes
        with its own environment's key, and is not asked here)."""
        entry = self.store.entry(write.id)
        made = entry.where.environment if entry is not None else ""
        here = self.where.environment
        if not made or not here or made == here:
            return None
        return (
            "This write was made in another environment: act in that one (ctrl+e, or "
            "--environment) to undo it with its key."
        )

    def _count(self, write: Write) -> int | float | None:
        """How many messages a mark-all changed, as the service said (this session's, or
        journaled): over UNDOABLE_MARK_ALL is why its "before" was not listed."""
        if write.id in self._counts:
            return self._counts[write.id]
        entry = self.store.entry(write.id)
        count = entry.detail.get("count") if entry is not None else None
        return count if isinstance(count, int | float) and not isinstance(count, bool) else None

    def undo_notes(self, entry: Entry) -> list[str]:
        """What to say before undoing a journal entry: later writes that touched the same
        things (the state it restores may not be the one meant), and that a switch back
        is a new switch. Empty: nothing to ask."""
        notes = []
        later = self.store.later(entry)
        if later:
            things = {Kind.SET_PRIMARY: "integrations", Kind.PREFERENCE: "preferences"}.get(
                entry.write.kind,
                "subscriber's data" if entry.write.kind in DATA_KINDS else "messages",
            )
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
        if write.kind is Kind.SUBSCRIBER:
            self._undone.add(write.id)
            return await self.submit(subscriber.undo_of(write, self.values_after(write)))
        if write.kind is Kind.SCHEDULE:
            self._undone.add(write.id)
            return await self.submit(schedule.undo_of(write, self.values_after(write)))
        if write.kind in (Kind.CREDENTIALS, Kind.CREDENTIALS_REMOVED):
            self._undone.add(write.id)
            return await self.submit(credentials.undo_of(write))
        if write.kind is Kind.PREFERENCE:
            self._undone.add(write.id)
            after = self._after.get(write.id) or self._journaled_after(write)
            return await self.submit(undo_of(write, after))
        if write.kind is Kind.INBOX:
            step = write.steps[0]
            self._undone.add(write.id)
            inverse = InboxAction(step.action).inverse
            assert inverse is not None  # refusal() said so otherwise
            back = Step(inverse.value, step.ids)
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


class SwitchUnconfirmed(ProtocolError):
    """A switch the service answered with success, naming another integration or
    environment than the one asked for: whether it took effect is unknown."""


def _answers_the_switch(write: Write, integration: Integration, own: str) -> None:
    """The service's answer to a switch names the integration and the environment asked
    for (or leaves them out); one naming another is not trusted as done."""
    asked = write.environment or own
    # An answer that leaves a field out names nothing else: production may send one so.
    other_id = bool(integration.id) and (integration.id or "").lower() != write.target.lower()
    answered = integration.environment_id
    if not other_id and not (asked and answered and answered != asked):
        return
    raise SwitchUnconfirmed(
        f"The service answered the switch of {safe(write.target, newlines=False)} with "
        f"integration {safe(integration.id or '(none)', newlines=False)} of environment "
        f"{safe(integration.environment_id, newlines=False)}: not the one asked for.",
        "Check the primaries (inboxdesk integrations) before trusting the switch.",
    )


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
        if result.trigger is not None:
            detail["transactionId"] = result.trigger.transaction_id
            detail["triggerStatus"] = result.trigger.status
        if result.cancelled is not None:
            detail["cancelled"] = result.cancelled
        if result.preferences is not None:
            detail["after"] = after_of(event.write, result.preferences)
        if result.values is not None:
            # Raw, in the 0600 journal only: History shows them through `public`.
            detail["values"] = result.values
        if isinstance(event, Partial) and event.error is not None:
            detail.update(_error_detail(event.error))
            detail["failed"] = event.failed
        return detail
    if isinstance(event, Failed):
        return _error_detail(event.error)
    if isinstance(event, Queued):
        return {"behind": event.behind, "reason": event.reason}
    return {}
