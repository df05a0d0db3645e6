"""The queue across keys, processes and faults: a queued write is sent by the key that
made it, once, and an answer that says "not now" keeps it queued."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import httpx

from inboxdesk.client import RetryPolicy
from inboxdesk.models import MarkAs
from inboxdesk.writes import Failed, Outbox, Queued, Sent, Where, WriteStore
from inboxdesk.writes.store import secret_path
from tests.client.conftest import Counted
from tests.client.faults import FaultTransport, status
from tests.conftest import OTHER_KEY, STAGING_KEY, jane_message
from tests.writes.test_outbox import Gate, client_for, flags, mark

UNKNOWN = Where("work", "127.0.0.1")  # the environment not known yet
OTHER_ENV = Where("work", "127.0.0.1", "env-of-the-other-key")
RetryOnce = RetryPolicy(attempts=1)


async def test_a_write_queued_with_one_key_is_never_sent_with_another(
    counted: Counted, tmp_path: Path
) -> None:
    path = tmp_path / "writes.db"
    before = flags(counted, jane_message(9))
    async with client_for(counted, Gate(down=True)) as client:
        outbox = Outbox(client, UNKNOWN, WriteStore(path))
        queued = await outbox.submit(mark(MarkAs.READ, jane_message(9)))
        assert isinstance(queued, Queued)
        outbox.store.close()
    secret = secret_path(path)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and len(secret.read_bytes()) == 32
    assert STAGING_KEY.encode() not in path.read_bytes() + secret.read_bytes()

    gate = Gate()
    async with counted.client(OTHER_KEY, transport=FaultTransport(inner=gate)) as other:
        store = WriteStore(path)
        stranger = Outbox(other, UNKNOWN, store)
        assert stranger.queued() == [], "another key is never offered it"
        assert stranger.held() == 1, "and is told why"
        # Its environment becomes known: the write stays filed as it was.
        stranger.move_to(OTHER_ENV)
        assert stranger.queued() == [] and await stranger.flush() == []
        assert store.queued(UNKNOWN, stranger.fingerprint) == []
        store.close()
    assert gate.seen == [] and flags(counted, jane_message(9)) == before

    async with client_for(counted, Gate()) as client:
        own = Outbox(client, UNKNOWN, WriteStore(path))
        own.move_to(Where("work", "127.0.0.1", "env-1"))
        [write] = own.queued()
        assert write.id == queued.write.id and own.held() == 0
        [sent] = await own.flush()
        own.store.close()
    assert isinstance(sent, Sent) and flags(counted, jane_message(9)) == (True, True)


async def test_two_processes_on_one_data_folder_send_a_queued_write_once(
    counted: Counted, tmp_path: Path
) -> None:
    path = tmp_path / "writes.db"
    async with client_for(counted, Gate(down=True)) as client:
        outbox = Outbox(client, UNKNOWN, WriteStore(path))
        await outbox.submit(mark(MarkAs.READ, jane_message(8)))
        outbox.store.close()
    first, second = Gate(), Gate()
    async with client_for(counted, first) as one, client_for(counted, second) as two:
        a = Outbox(one, UNKNOWN, WriteStore(path))
        b = Outbox(two, UNKNOWN, WriteStore(path))
        assert len(a.queued()) == len(b.queued()) == 1, "both see it waiting"
        sent_a, sent_b = await asyncio.gather(a.flush(), b.flush())
        a.store.close()
        b.store.close()
    posts = [r for r in first.seen + second.seen if r.method == "POST"]
    assert len(posts) == 1, "claimed by one before it is sent"
    assert len(sent_a + sent_b) == 1 and isinstance((sent_a + sent_b)[0], Sent)


def timed_out(request: httpx.Request, _: httpx.Response | None) -> httpx.Response:
    raise httpx.ReadTimeout("no answer", request=request)


async def test_an_answer_that_says_not_now_keeps_a_write_queued(counted: Counted) -> None:
    statuses = [408, 409, 425, 429, 500, 502, 503, 504]
    faults = FaultTransport(before=[status(code) for code in statuses] + [timed_out])
    async with client_for(counted, Gate(down=True)) as away:
        outbox = Outbox(away, UNKNOWN)
        queued = await outbox.submit(mark(MarkAs.READ, jane_message(7)))
        store = outbox.store
    key = queued.write.key
    async with counted.client(transport=faults, retry=RetryOnce) as client:
        outbox = Outbox(client, UNKNOWN, store)
        for code in [*statuses, "timeout"]:
            [event] = await outbox.flush()
            assert isinstance(event, Queued), f"{code}: kept"
            assert event.reason and event.write.key == key
            assert [w.id for w in outbox.queued()] == [queued.write.id], f"{code}: still queued"
            [entry] = store.entries(UNKNOWN)
            assert entry.outcome == "queued" and entry.detail["reason"] == event.reason
        [sent] = await outbox.flush()
    assert isinstance(sent, Sent) and flags(counted, jane_message(7)) == (True, True)
    keys = {r.headers["idempotency-key"] for r in faults.seen if r.method == "POST"}
    assert keys == {key}, "every try with the key it was first tried with"


async def test_any_other_refusal_fails_a_queued_write(counted: Counted) -> None:
    for code in (400, 403, 404, 410, 422):
        async with client_for(counted, Gate(down=True)) as away:
            outbox = Outbox(away, UNKNOWN)
            await outbox.submit(mark(MarkAs.READ, jane_message(6)))
            store = outbox.store
        faults = FaultTransport(before=[status(code)])
        async with counted.client(transport=faults, retry=RetryOnce) as client:
            outbox = Outbox(client, UNKNOWN, store)
            [event] = await outbox.flush()
        assert isinstance(event, Failed), code
        assert outbox.queued() == []
