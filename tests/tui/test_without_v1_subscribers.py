"""The app on a service without the hidden v1 subscriber endpoints (production may drop
them): it opens, lists subscribers, comes back after an outage and sends what waited."""

from __future__ import annotations

import httpx

from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from tests.client.faults import FaultTransport
from tests.conftest import ServiceFactory, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, until
from tests.tui.test_inbox import stored

MARK = "/v1/subscribers/jane/messages/mark-as"


def rows(app: object) -> int:
    """The inbox's rows, 0 until the inbox shows."""
    screen = app.screen  # type: ignore[attr-defined]
    tables = list(screen.query(MessageTable)) if isinstance(screen, InboxScreen) else []
    return tables[0].row_count if tables else 0


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


async def test_the_app_needs_no_v1_subscribers(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service(v1_subscribers=False)
    with service.http() as http:
        assert http.get("/v1/subscribers").status_code == 404
    transport = FaultTransport()
    app = app_for(service, subscriber=None, transport=transport)

    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        # No --subscriber: the first subscriber of the v2 listing is opened.
        await until(pilot, lambda: rows(app) > 0, what="an inbox")
        assert app.subscribers, "the picker's list came from v2"
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        if screen.subscriber_id != "jane":
            app.open_subscriber("jane")
        await until(pilot, lambda: screen.subscriber_id == "jane" and rows(app) == 12)
        transport.route[MARK] = refused  # the service is away for marks only
        await pilot.press("r")  # the newest: jane 11
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
        del transport.route[MARK]
        # The probe (v2 only) finds the service there, and the queued mark goes out.
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True), 15, "sent")
        await until(pilot, lambda: not app.offline and not app.outbox.queued(), what="back")
    listed = [r.url.path for r in transport.seen if r.url.path.startswith("/v1/subscribers")]
    assert all(p.endswith(("/feed", "/unseen", "/mark-as", "/mark-all")) for p in listed)
