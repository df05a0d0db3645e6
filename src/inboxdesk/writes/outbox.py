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
from typing import Any

from inboxdesk.client import ApiError, InboxClient, InboxdeskError
from inboxdesk.client.errors import transient
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import (
    Dropped,
    Event,
    Failed,
    Partial,
    Queued,
    Refused,
    Sent,
)
from inboxdesk.writes.kinds import describe, kind_of, overlaps
from inboxdesk.writes.kinds.base import Clients
from inboxdesk.writes.model import Where, Write
from inboxdesk.writes.store import Entry, WriteStore

Listener = Callable[[Event], None]


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
        # Writes on messages' flags handed in and not answered yet, oldest first; for
        # each write, those that were open as it was handed in (its "before" was read
        # before their answers); and what each answered one found (its "before" as sent).
        self._open: dict[str, None] = {}
        self._behind: dict[str, tuple[str, ...]] = {}
        self._found: dict[str, Mapping[str, Flags]] = {}

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
        client = kind_of(write).client(write, self._clients())
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
        self._closed(write)
        return self._emit(Dropped(write))

    # -- sending ---------------------------------------------------------------------------

    async def submit(self, write: Write) -> Event:
        """Send `write` now, or queue it behind the writes already waiting."""
        if self.read_only:
            return self._emit(Failed(write, InboxdeskError("Read-only: nothing was sent.")))
        if not write.tried:
            write = replace(write, made_at=self.clock())  # made now, by the outbox's clock
        self._hand_in(write)
        try:
            async with self._lock:
                self._made.append(write)
                kind = kind_of(write)
                if kind.journal_first:
                    # Journalled before the first try: its transactionId is never lost.
                    self.store.record(self.where, write, "sending")
                if kind.queued and self.queues:
                    waiting = self.queued()
                    if self.away or waiting:
                        self.store.enqueue(self.where, write, self.fingerprint)
                        why = "the service is away" if self.away else "earlier writes wait"
                        return self._emit(Queued(write, len(waiting), why))
                return await self._send(write)
        except asyncio.CancelledError:
            self._closed(write)  # its answer, if any, is not known here
            raise

    async def flush(self, writes: list[Write] | None = None) -> list[Event]:
        """Send the queued writes (or those of them given) in order; stop at the first
        that finds the service still away. One another process claimed is its to send."""
        events: list[Event] = []
        if self.read_only:
            return events  # listed, never sent
        async with self._lock:
            chosen = None if writes is None else {w.id for w in writes}
            queued = self.queued()
            for number, write in enumerate(queued):
                if write.id not in self._open and write.undoes is None:
                    # Queued by an earlier session: made from rows that showed none of
                    # the writes queued before it.
                    self._behind.setdefault(write.id, tuple(w.id for w in queued[:number]))
            for write in queued:
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
        tried = self._as_sent(write.as_tried())
        try:
            event = await kind_of(tried).perform(tried, self._clients())
        except InboxdeskError as exc:
            if not transient(exc) or not kind_of(tried).queued or not self.queues:
                self.store.dequeue(tried.id)
                self._closed(tried)
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
        if tried.before is not None and kind_of(tried).flags_before:
            self._found[tried.id] = tried.before
        self._closed(tried)
        return self._emit(event)

    # -- a write's "before" as it goes out ------------------------------------------------

    def _hand_in(self, write: Write) -> None:
        """Note the writes on the same flags not answered yet as `write` is handed in:
        this session's, and those queued by an earlier one."""
        if write.before is None or not kind_of(write).flags_before:
            return
        if write.undoes is None:  # an undo's "before" is worked out from the answers
            queued = [w.id for w in self.queued()]
            self._behind[write.id] = tuple(dict.fromkeys([*self._open, *queued]))
        self._open[write.id] = None

    def _closed(self, write: Write) -> None:
        """`write` is answered, failed or dropped: no longer open. What an answered one
        found is kept only while a write behind it has yet to go out."""
        self._open.pop(write.id, None)
        self._behind.pop(write.id, None)
        wanted = {earlier for behind in self._behind.values() for earlier in behind}
        for answered in [i for i in self._found if i not in wanted]:
            del self._found[answered]

    def _as_sent(self, write: Write) -> Write:
        """`write`, its "before" brought up to date as it goes out.

        A write's "before" is the flags its rows showed when it was made: a write still
        open then (on its way, or queued) had not changed them yet (two quick keys). By
        now each of those is answered, failed, dropped, or still queued behind. A
        message's "before" equal to what an answered one found is that write's outcome
        instead, so that undo restores the state just before this write, not the one
        before both. One that differs was read after, and stays; a write that failed or
        was dropped changed nothing; one still queued goes out after this one."""
        behind = self._behind.get(write.id)
        if not behind or write.before is None or not kind_of(write).flags_before:
            return write
        for earlier in behind:
            if earlier not in self._found:
                self._answered_elsewhere(earlier)
        before = dict(write.before)
        # In the order they were answered, which is the order the service applied them.
        for earlier, found in [(i, f) for i, f in self._found.items() if i in behind]:
            after = self._after.get(earlier, {})
            for message_id, flags in before.items():
                if message_id in after and found.get(message_id) == flags:
                    before[message_id] = after[message_id]
        return write if before == write.before else replace(write, before=before)

    def _answered_elsewhere(self, write_id: str) -> None:
        """A write sent by another process (sharing the queue), as it journaled it."""
        entry = self.store.entry(write_id)
        if entry is None or entry.outcome not in ("sent", "partial"):
            return
        self._open.pop(write_id, None)
        if entry.write.before is not None and kind_of(entry.write).flags_before:
            self._found[write_id] = entry.write.before
            self._after.setdefault(write_id, self._journaled_after(entry.write))

    def _clients(self) -> Clients:
        return Clients(self.client, self.client_of, self.where.environment)

    def values_after(self, write: Write) -> dict[str, Any]:
        """What the service answered to a subscriber-data write, as journaled."""
        entry = self.store.entry(write.id)
        values = entry.detail.get("values") if entry is not None else None
        return values if isinstance(values, dict) else {}

    def flags_after(self, write: Write) -> dict[str, Flags]:
        """What the service returned to `write`: this session's, else as journaled."""
        return self._after.get(write.id) or self._journaled_after(write)

    def _journaled_after(self, write: Write) -> dict[str, Flags]:
        """What the service returned to `write`, as journaled (a write of another session)."""
        entry = self.store.entry(write.id)
        after = entry.detail.get("after", {}) if entry is not None else {}
        return {str(i): (bool(f[0]), bool(f[1])) for i, f in after.items()}

    def _remember(self, write: Write, event: Sent | Partial) -> None:
        self._after[write.id] = kind_of(write).remembered(event)
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
                and kind_of(write).undone_by_z  # the rest are undone from History
            ):
                return write
        return None

    def refusal(self, write: Write) -> str | None:
        """Why `write` cannot be undone, or None."""
        if not write.tried and any(w.id == write.id for w in self.queued()):
            return None  # never tried: it just leaves the queue
        kind = kind_of(write)
        if not kind.with_environment_key and (elsewhere := self._elsewhere(write)):
            return elsewhere
        return kind.refusal(write, self)

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

    def count_of(self, write: Write) -> int | float | None:
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
        kind = kind_of(entry.write)
        later = [e for e in self.store.later(entry) if overlaps(entry.write, e.write)]
        if later:
            notes.append(
                f"{len(later)} later write{'s' if len(later) != 1 else ''} touched the same "
                f"{kind.things} since (newest: {describe(later[0].write)}, "
                f"{later[0].write.id[:10]})."
            )
        return notes + kind.undo_notes(entry.write)

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
        if write.id in self._open:
            # Still on its way (it holds the lock until answered): undone from its answer
            # and its "before" as sent; flags seen meanwhile are older than that answer.
            async with self._lock:
                pass
            write, now = next((w for w in self._made if w.id == write.id), write), None
        self._undone.add(write.id)
        back = kind_of(write).inverse(write, self, now or {})
        if isinstance(back, str):
            return self._emit(Refused(write, back))
        return await self.submit(back)


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
        after = {i: list(f) for i, f in kind_of(event.write).after(event).items()}
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
