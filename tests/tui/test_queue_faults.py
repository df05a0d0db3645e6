"""The app's queue under faults: a "not now" answer keeps a write queued, with its key
and the reason said (on a service without the v1 subscriber endpoints, which the app
never needs). (A write another key made is never offered:
tests/tui/test_queued_writes.py.)"""

from __future__ import annotations

import httpx

from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from tests.client.faults import FaultTransport, status
from tests.conftest import ServiceFactory, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, until
from tests.tui.test_inbox import opened, stored

MARK = "/v1/subscribers/jane/messages/mark-as"


def rows(app: object) -> int:
    """The inbox's rows, 0 until the inbox shows."""
    screen = app.screen  # type: ignore[attr-defined]
    tables = list(screen.query(MessageTable)) if isinstance(screen, InboxScreen) else []
    return tables[0].row_count if tables else 0


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


async def test_a_503_keeps_a_mark_queued_with_its_key_and_the_reason(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """On a service without the hidden v1 subscriber endpoints (production may drop
    them): the app opens, lists subscribers, keeps a mark the service cannot take yet
    queued, says why, and sends it with its key once the service is back."""
    service = make_service(v1_subscribers=False)
    with service.http() as http:
        assert http.get("/v1/subscribers").status_code == 404
    busy = FaultTransport()
    app = app_for(service, subscriber=None, transport=busy)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        # No --subscriber: the first subscriber of the v2 listing is opened.
        await until(pilot, lambda: rows(app) > 0, what="an inbox")
        assert app.subscribers, "the picker's list came from v2"
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        if screen.subscriber_id != "jane":
            app.open_subscriber("jane")
        await until(pilot, lambda: screen.subscriber_id == "jane" and rows(app) == 12)
        await opened(pilot)
        assert screen.table.cursor_key == jane_message(11)
        # Every try of the mark, and the probes after it, answer 503 for a while.
        busy.before = [status(503, {"Retry-After": "0"}) for _ in range(6)]
        await pilot.press("r")
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued, not failed")
        [write] = app.outbox.queued()
        said = notices.saying("Not applied yet")
        assert said and write.key in said[0].message and "503" in said[0].message
        assert stored(service, jane_message(11)) == (False, False)
        # The service is back: the probe (v2 only) finds it and the write goes, with its
        # key.
        await until(pilot, lambda: not app.outbox.queued(), 15, "sent once back")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: not app.offline, what="back")
    keys = {r.headers.get("idempotency-key") for r in busy.seen if r.method == "POST"}
    assert keys == {write.key}
    listed = [r.url.path for r in busy.seen if r.url.path.startswith("/v1/subscribers")]
    assert all(p.endswith(("/feed", "/unseen", "/mark-as", "/mark-all")) for p in listed)
