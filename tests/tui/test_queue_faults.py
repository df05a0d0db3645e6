"""The app's queue under faults: a "not now" answer keeps a write queued, with its key
and the reason said; a write another key made is never offered, and the app says why."""

from __future__ import annotations

from pathlib import Path

from inboxdesk.tui.screens.queued import QueuedWritesScreen
from inboxdesk.writes import WriteStore
from inboxdesk.writes.model import Kind, Step, Where, Write
from tests.client.faults import FaultTransport, status
from tests.conftest import OTHER_KEY, Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, until
from tests.tui.test_inbox import opened, stored


async def test_a_503_keeps_a_mark_queued_with_its_key_and_the_reason(
    service: Service, notices: Notices
) -> None:
    busy = FaultTransport()
    app = app_for(service, transport=busy)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot)
        # Every try of the mark, and the probes after it, answer 503 for a while.
        busy.before = [status(503, {"Retry-After": "0"}) for _ in range(6)]
        await pilot.press("r")
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued, not failed")
        [write] = app.outbox.queued()
        said = notices.saying("Not applied yet")
        assert said and write.key in said[0].message and "503" in said[0].message
        assert stored(service, jane_message(11)) == (False, False)
        # The service is back: the probe finds it and the write goes, with its key.
        await until(pilot, lambda: not app.outbox.queued(), 15, "sent once back")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
    keys = {r.headers.get("idempotency-key") for r in busy.seen if r.method == "POST"}
    assert keys == {write.key}


async def test_a_write_another_key_queued_is_never_offered(
    service: Service, tmp_path: Path, notices: Notices
) -> None:
    path = tmp_path / "writes.db"
    store = WriteStore(path)
    other = app_for(service, key=OTHER_KEY).client.key_fingerprint(store.secret)
    mark = Write(Kind.MARK, "jane", (Step("read", (jane_message(11),)),))
    store.enqueue(Where.of(None, service.url), mark, other)  # its environment unknown
    store.close()
    app = app_for(service, writes=WriteStore(path))
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot)
        await until(pilot, lambda: notices.saying("made with another API key"), what="said")
        assert not isinstance(app.screen, QueuedWritesScreen)
        assert app.outbox.queued() == [] and app.outbox.held() == 1
    assert stored(service, jane_message(11)) == (False, False)
