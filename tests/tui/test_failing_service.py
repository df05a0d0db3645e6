"""The app against an endless service: the search for the feed's end gives up at
`max_pages`; a lone surrogate from the wire is shown as a stand-in. (A failing service,
a 5xx at start and a first page failing later, each shown and retried, never a spinner
that never ends: the outage walk of tests/tui/test_inbox.py.)"""

from __future__ import annotations

from urllib.parse import parse_qs

from inboxdesk.client import ClientOptions, InboxClient, Limits, RetryPolicy
from inboxdesk.config import Settings
from inboxdesk.tui.app import make_app
from tests.client.hostile_server import HostileServer, Reply, Seen, json_reply
from tests.client.test_cli_limits import COUNTS
from tests.client.test_limits import KEY, item
from tests.tui.conftest import NOW, SIZE, Notices, detail_text, until
from tests.tui.test_inbox import opened


async def test_the_end_search_stops_at_max_pages(notices: Notices) -> None:
    """A service that always says "more": `G` says so instead of searching forever. Its
    first message's title holds a lone surrogate: shown as a stand-in, list and detail."""

    def always_more(seen: Seen) -> Reply:
        assert len(server.seen) <= 200, "the end search did not stop"
        if seen.path.endswith("/count"):
            return json_reply(COUNTS)
        if seen.path.endswith("/notifications"):
            return json_reply(NO_ROUTE, 404)  # an older service: the v1 feed
        if seen.path.startswith("/v2/subscribers/"):
            return json_reply({"data": JANE})
        query = parse_qs(seen.query)
        page, limit = int(query["page"][0]), int(query["limit"][0])
        items = [item(page * limit + n) for n in range(limit)]
        if page == 0:
            items[0] = item(0, title="hi \ud800 there")
        return json_reply({"data": items, "page": page, "pageSize": limit, "hasMore": True})

    with HostileServer(always_more) as server:
        options = ClientOptions(
            timeout=5, retry=RetryPolicy(attempts=1), limits=Limits(max_pages=20)
        )
        client = InboxClient(server.url, KEY, options)
        settings = Settings(base_url=server.url, api_key=KEY)
        app = make_app(settings, client=client, subscriber_id="jane", clock=lambda: NOW)
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            screen = await opened(pilot, rows=100)
            assert "hi <U+D800> there" in screen.table.row_text(0)
            assert "hi <U+D800> there" in detail_text(screen)
            await pilot.press("G")
            await until(pilot, lambda: notices.saying("after 20 pages"), what="the limit")
    assert notices.saying("after 20 pages")[0].title == "Stopped at a limit"
    probes = [s for s in server.seen if s.query.endswith("limit=1")]
    assert 0 < len(probes) <= 20


NO_ROUTE = {"statusCode": 404, "message": "Cannot GET", "error": "Not Found"}
JANE = {
    "_id": "65e000000000000000000009",
    "subscriberId": "jane",
    "_organizationId": "65e000000000000000000002",
    "_environmentId": "65e000000000000000000001",
    "deleted": False,
    "createdAt": "2026-01-01T00:00:00.000Z",
    "updatedAt": "2026-01-01T00:00:00.000Z",
}
