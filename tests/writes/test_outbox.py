"""The outbox against the real local service: send, queue while away, order, undo, files."""

from __future__ import annotations

import asyncio
import stat
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.models import MarkAs
from inboxdesk.writes import (
    Dropped,
    Failed,
    Kind,
    Outbox,
    Partial,
    Queued,
    Refused,
    Sent,
    Step,
    Where,
    Write,
    WriteStore,
    after_mark,
)
from tests.client.conftest import Counted
from tests.client.faults import Hold
from tests.conftest import JOE_MESSAGES, MAILGUN, STAGING_KEY, jane_message

HERE = Where("work", "127.0.0.1", "env-1")


@dataclass
class Gate(httpx.AsyncBaseTransport):
    """The real service, unless `down`: then every request fails to connect. With
    `hold`, its answers are held back."""

    down: bool = False
    inner: httpx.AsyncBaseTransport = field(default_factory=httpx.AsyncHTTPTransport)
    seen: list[httpx.Request] = field(default_factory=list)
    hold: Hold | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        self.seen.append(request)
        response = await self.inner.handle_async_request(request)
        return response if self.hold is None else await self.hold.back(response)


def client_for(counted: Counted, gate: Gate) -> InboxClient:
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=1, base=0.01, deadline=5))
    return InboxClient(counted.url, STAGING_KEY, options, gate)


def mark(mark_as: MarkAs, *ids: str, before: dict[str, tuple[bool, bool]] | None = None) -> Write:
    return Write(Kind.MARK, "jane", (Step(mark_as.value, ids),), before=before)


def flags(counted: Counted, message_id: str) -> tuple[bool, bool]:
    read, seen = (
        counted.store.read()
        .execute("SELECT read, seen FROM messages WHERE id = ?", (message_id,))
        .fetchone()
    )
    return bool(read), bool(seen)


async def test_a_write_is_sent_and_journaled(counted: Counted) -> None:
    gate = Gate()
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        events: list[object] = []
        outbox.listen(events.append)
        event = await outbox.submit(mark(MarkAs.READ, jane_message(1)))
    assert isinstance(event, Sent) and events == [event]
    assert [m.id for m in event.result.messages] == [jane_message(1)]
    assert flags(counted, jane_message(1)) == (True, True)
    [entry] = outbox.store.entries(HERE)
    assert entry.outcome == "sent" and entry.write.tried and not entry.queued
    assert entry.detail["after"] == {jane_message(1): [True, True]}


async def test_writes_queue_while_away_and_go_out_in_order_with_their_keys(
    counted: Counted,
) -> None:
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        first = await outbox.submit(mark(MarkAs.READ, jane_message(2)))
        second = await outbox.submit(mark(MarkAs.UNREAD, jane_message(2)))
        assert isinstance(first, Queued) and first.write.tried and first.behind == 0
        assert isinstance(second, Queued) and not second.write.tried and second.behind == 1
        assert [w.id for w in outbox.queued()] == [first.write.id, second.write.id]
        gate.down = False
        events = await outbox.flush()
    assert [type(e) for e in events] == [Sent, Sent]
    # In the order made: read, then unread; never merged into one request.
    assert [r.headers["idempotency-key"] for r in gate.seen] == [
        first.write.key,
        second.write.key,
    ]
    assert flags(counted, jane_message(2)) == (False, True)
    assert outbox.queued() == [] and not outbox.away


async def test_undo_of_a_write_never_tried_takes_it_out_of_the_queue(counted: Counted) -> None:
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        outbox.away = True  # known away: queued without a try
        start = flags(counted, jane_message(3))
        queued = await outbox.submit(mark(MarkAs.READ, jane_message(3), before={}))
        assert isinstance(queued, Queued) and not queued.write.tried
        undo = await outbox.undo(queued.write)
        gate.down = False
        assert await outbox.flush() == []
    assert isinstance(undo, Dropped) and gate.seen == []
    assert flags(counted, jane_message(3)) == start


async def test_undo_of_a_sent_write_is_a_new_write_that_restores_the_state(
    counted: Counted,
) -> None:
    ids = [jane_message(4), jane_message(5)]
    before = {i: flags(counted, i) for i in ids}
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        sent = await outbox.submit(mark(MarkAs.READ, *ids, before=before))
        assert outbox.last("jane") == sent.write
        undone = await outbox.undo(sent.write)
        assert outbox.last("jane") is None  # an undo is not undone by the next z
    assert isinstance(undone, Sent) and undone.write.undoes == sent.write.id
    assert {i: flags(counted, i) for i in ids} == before


async def test_undo_while_away_is_queued_not_lost(counted: Counted) -> None:
    gate = Gate()
    message = jane_message(7)  # unread and unseen
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        sent = await outbox.submit(
            mark(MarkAs.READ, message, before={message: flags(counted, message)})
        )
        gate.down = True
        undo = await outbox.undo(sent.write)
        assert isinstance(undo, Queued)
        gate.down = False
        [resent] = await outbox.flush()
    assert isinstance(resent, Sent)
    assert flags(counted, message) == (False, False)


async def test_a_write_made_before_an_earlier_one_was_answered_undoes_to_that_ones_outcome(
    counted: Counted,
) -> None:
    """Two quick keys on an unread message: `r`, then `u` made while the first was on its
    way, from rows that still showed it unread. The second's "before" is the first's
    outcome: its undo marks the message read again, and the first's undo (History)
    then unread, each write taken back to the state just before it."""
    message = jane_message(7)  # unread and unseen
    shown = {message: flags(counted, message)}
    assert shown[message] == (False, False)
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        first, second = await asyncio.gather(
            outbox.submit(mark(MarkAs.READ, message, before=shown)),
            outbox.submit(mark(MarkAs.UNREAD, message, before=shown)),
        )
        assert isinstance(first, Sent) and isinstance(second, Sent)
        journaled = outbox.store.entry(second.write.id)
        assert journaled is not None and journaled.write.before == {message: (True, True)}
        assert flags(counted, message) == (False, True)
        undone = await outbox.undo(second.write)
        assert isinstance(undone, Sent) and flags(counted, message) == (True, True)
        undone = await outbox.undo(first.write)
        assert isinstance(undone, Sent) and flags(counted, message) == (False, False)


async def test_a_before_read_after_an_earlier_write_was_answered_stays(counted: Counted) -> None:
    """Only the writes still open as a write is made can have left its rows behind: after
    a mark's answer, another client puts the message back as the mark found it, and a
    mark made from rows read then keeps that "before" (its undo marks it unread)."""
    message = jane_message(7)
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        await outbox.submit(mark(MarkAs.READ, message, before={message: flags(counted, message)}))
        await client.mark_as("jane", message, MarkAs.UNREAD)  # another client's
        await client.mark_as("jane", message, MarkAs.UNSEEN)
        shown = {message: flags(counted, message)}
        assert shown[message] == (False, False)
        sent = await outbox.submit(mark(MarkAs.SEEN, message, before=shown))
        assert sent.write.before == shown
        await outbox.undo(sent.write)
    assert flags(counted, message) == (False, False)


async def test_behind_a_queued_write_the_before_is_its_answer_unless_it_never_went(
    counted: Counted,
) -> None:
    """Two marks made while away from the same rows: the second goes out after the first
    and its "before" is the first's answer. Had the first been dropped (undone from
    History while still queued), the second keeps the rows' "before"."""
    message, other = jane_message(7), jane_message(5)
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        outbox.away = True
        rows = {message: flags(counted, message), other: flags(counted, other)}
        assert rows[message] == rows[other] == (False, False)
        await outbox.submit(mark(MarkAs.READ, message, before=rows))
        dropped = await outbox.submit(mark(MarkAs.READ, other, before=rows))
        await outbox.submit(mark(MarkAs.SEEN, message, other, before=rows))
        assert isinstance(await outbox.undo(dropped.write), Dropped)
        gate.down = False
        first, last = await outbox.flush()
        assert isinstance(first, Sent) and isinstance(last, Sent)
        assert last.write.before == {message: (True, True), other: (False, False)}
        await outbox.undo(last.write)
    assert flags(counted, message) == (True, True) and flags(counted, other) == (False, False)


async def queued_and_quit(counted: Counted, path: Path, *writes: Write) -> None:
    """A session that makes `writes` while the service is away, each queued, and quits:
    its queue is kept in `path` for the next."""
    async with client_for(counted, Gate(down=True)) as client:
        outbox = Outbox(client, HERE, WriteStore(path))
        for write in writes:
            assert isinstance(await outbox.submit(write), Queued)
        outbox.store.close()


async def test_behind_a_write_an_earlier_session_queued_the_before_is_its_answer(
    counted: Counted, tmp_path: Path
) -> None:
    """A mark queued by the last session is still open as this one's first write is made
    from rows that do not show it yet: the queue sends it first, and undo of the second
    goes back to its answer."""
    message, path = jane_message(7), tmp_path / "writes.db"
    rows = {message: flags(counted, message)}
    await queued_and_quit(counted, path, mark(MarkAs.READ, message, before=rows))
    async with client_for(counted, Gate()) as client:
        again = Outbox(client, HERE, WriteStore(path))
        assert isinstance(await again.submit(mark(MarkAs.SEEN, message, before=rows)), Queued)
        *_, last = await again.flush()
        assert isinstance(last, Sent) and last.write.before == {message: (True, True)}
        await again.undo(last.write)
    assert flags(counted, message) == (True, True)


async def test_behind_an_earlier_sessions_write_and_one_of_this_session_order_is_kept(
    counted: Counted, tmp_path: Path
) -> None:
    """A read queued by the last session; this session, from rows that show neither, an
    unread then an unseen. They go out in that order: the last's "before" is the
    unread's answer (unread, seen), not the read's (read, seen)."""
    message, path = jane_message(7), tmp_path / "writes.db"
    rows = {message: flags(counted, message)}
    assert rows[message] == (False, False)
    await queued_and_quit(counted, path, mark(MarkAs.READ, message, before=rows))
    async with client_for(counted, Gate()) as client:
        again = Outbox(client, HERE, WriteStore(path))
        assert isinstance(await again.submit(mark(MarkAs.UNREAD, message, before=rows)), Queued)
        assert isinstance(await again.submit(mark(MarkAs.UNSEEN, message, before=rows)), Queued)
        *_, last = await again.flush()
        assert flags(counted, message) == (False, False)
        assert isinstance(last, Sent)
        assert last.write.before == {message: (False, True)}
        await again.undo(last.write)
    assert flags(counted, message) == (False, True)


async def test_two_writes_queued_by_an_earlier_session_the_second_follows_the_first(
    counted: Counted, tmp_path: Path
) -> None:
    """Two marks made while away from the same rows, and the app quit: the next session
    sends both, and the second's "before" is the first's answer, as it would have been
    had the same session sent them."""
    message, path = jane_message(7), tmp_path / "writes.db"
    rows = {message: flags(counted, message)}
    await queued_and_quit(
        counted,
        path,
        mark(MarkAs.READ, message, before=rows),
        mark(MarkAs.UNSEEN, message, before=rows),
    )
    async with client_for(counted, Gate()) as client:
        again = Outbox(client, HERE, WriteStore(path))
        _, last = await again.flush()
        assert isinstance(last, Sent) and flags(counted, message) == (True, False)
        assert last.write.before == {message: (True, True)}


async def test_behind_a_write_another_process_sent_the_before_is_its_answer(
    counted: Counted, tmp_path: Path
) -> None:
    """A read queued by one process; another makes an unseen from rows that do not show
    it (queued behind it). The first process sends the read; the second then sends the
    unseen, whose "before" is the read's answer as the shared journal has it."""
    message, path = jane_message(7), tmp_path / "writes.db"
    rows = {message: flags(counted, message)}
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        one = Outbox(client, HERE, WriteStore(path))
        two = Outbox(client, HERE, WriteStore(path))
        one.away = two.away = True
        assert isinstance(await one.submit(mark(MarkAs.READ, message, before=rows)), Queued)
        assert isinstance(await two.submit(mark(MarkAs.UNSEEN, message, before=rows)), Queued)
        gate.down = False
        one.away = two.away = False
        [sent] = await one.flush(writes=[w for w in one.queued() if w.steps[0].action == "read"])
        assert isinstance(sent, Sent)
        [last] = await two.flush()
        assert isinstance(last, Sent) and flags(counted, message) == (True, False)
        assert last.write.before == {message: (True, True)}


async def test_undo_of_a_write_still_on_its_way_waits_for_its_answer(counted: Counted) -> None:
    """`z` just after `r`, while the mark's answer is on its way: the rows still show the
    message unread, but the undo is made from the mark's answer, and marks it unread
    again (not "nothing to undo" from the rows, which would also use up that `z`)."""
    message = jane_message(7)
    rows = {message: flags(counted, message)}
    hold = Hold()
    async with client_for(counted, Gate(hold=hold)) as client:
        outbox = Outbox(client, HERE)
        sending = asyncio.create_task(outbox.submit(mark(MarkAs.READ, message, before=rows)))
        await hold.reached.wait()
        made = outbox.last("jane")
        assert made is not None and not made.tried
        undoing = asyncio.create_task(outbox.undo(made, rows))  # the rows as shown
        hold.release.set()
        sent, undone = await sending, await undoing
    assert isinstance(sent, Sent) and isinstance(undone, Sent)
    assert undone.write.undoes == made.id and flags(counted, message) == (False, False)


async def test_an_unknown_before_refuses_undo(counted: Counted) -> None:
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        sent = await outbox.submit(mark(MarkAs.READ, jane_message(11)))
        refused = await outbox.undo(sent.write)
    assert isinstance(refused, Refused) and "unknown" in refused.reason


async def test_set_primary_is_never_queued(counted: Counted) -> None:
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE)
        event = await outbox.submit(Write(Kind.SET_PRIMARY, MAILGUN, (), label="Mailgun"))
    assert isinstance(event, Failed) and outbox.queued() == []
    assert counted.store.applied["set_primary"] == 0


async def test_ids_the_service_left_alone_make_a_partial(counted: Counted) -> None:
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        event = await outbox.submit(mark(MarkAs.READ, jane_message(8), JOE_MESSAGES[0]))
    assert isinstance(event, Partial)
    assert event.result.not_updated == (JOE_MESSAGES[0],)
    assert outbox.store.entries(HERE)[0].outcome == "partial"


async def test_a_refused_write_fails_and_leaves_the_queue(counted: Counted) -> None:
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        event = await outbox.submit(Write(Kind.MARK, "jane", (Step("read", ("not-an-id",)),)))
    assert isinstance(event, Failed | Partial)
    assert outbox.queued() == []


async def test_the_queue_outlives_the_session_and_waits_for_its_profile(
    counted: Counted, tmp_path: Path
) -> None:
    path = tmp_path / "data" / "writes.db"
    gate = Gate(down=True)
    async with client_for(counted, gate) as client:
        outbox = Outbox(client, HERE, WriteStore(path))
        queued = await outbox.submit(mark(MarkAs.READ, jane_message(9)))
        outbox.store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert STAGING_KEY.encode() not in path.read_bytes()
    gate.down = False
    async with client_for(counted, gate) as client:
        elsewhere = Outbox(client, Where("other", "127.0.0.1", "env-1"), WriteStore(path))
        # Filed under the profile, host and environment it was made in, not under these.
        assert elsewhere.queued() == []
        assert len(elsewhere.store.queued(HERE, elsewhere.fingerprint)) == 1
        again = Outbox(client, HERE, WriteStore(path))
        [write] = again.queued()
        assert write.id == queued.write.id and write.tried
        [event] = await again.flush()
    assert isinstance(event, Sent)
    assert gate.seen[0].headers["idempotency-key"] == queued.write.key


async def test_mark_all_asks_for_a_refetch_and_cannot_be_undone_without_its_ids(
    counted: Counted,
) -> None:
    async with client_for(counted, Gate()) as client:
        outbox = Outbox(client, HERE)
        event = await outbox.submit(Write(Kind.MARK_ALL, "jane", (Step("read"),)))
        assert isinstance(event, Sent) and event.result.refetch and event.result.count
        refused = await outbox.undo(event.write)
    # Jane has a handful of messages: not "more than 1,000", but never listed.
    assert isinstance(refused, Refused)
    assert refused.reason == "This cannot be undone: the state before it is unknown."


@pytest.mark.parametrize("mark_as", list(MarkAs))
async def test_the_service_applies_each_mark_as_the_rule_says(
    counted: Counted, mark_as: MarkAs
) -> None:
    """The store's SQL against `after_mark`, from every starting state."""
    starts = [(False, False), (False, True), (True, True), (True, False)]
    ids = [jane_message(n) for n in range(len(starts))]
    async with client_for(counted, Gate()) as client:
        for message, start in zip(ids, starts, strict=True):
            read, seen = start
            await client.mark_as("jane", message, MarkAs.READ if read else MarkAs.UNREAD)
            await client.mark_as("jane", message, MarkAs.SEEN if seen else MarkAs.UNSEEN)
            assert flags(counted, message) == start
        await client.mark_as("jane", ids, mark_as)
    for message, start in zip(ids, starts, strict=True):
        assert flags(counted, message) == after_mark(mark_as, start)
