"""What the inbox's tests share: a client on the real local service, a listing read into a
`Feed`, the stored flags, and the demo's big inbox behind answers capped as production
caps them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.client.source import V2, InboxSource
from inboxdesk.core.inbox import loading
from inboxdesk.core.inbox.feed import Feed
from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.writes import Outbox, Where
from tests.client.faults import FaultTransport
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.templates import DEMO_NOW, demo_at

HERE = Where("work", "127.0.0.1", "env-1")
PAGING_KEY = "paging-key-0123456789abcdef"


def client_for(
    service: Service, transport: httpx.AsyncBaseTransport | None = None, key: str = STAGING_KEY
) -> InboxClient:
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=2, base=0.05, deadline=3))
    return InboxClient(service.url, key, options, transport or FaultTransport())


def outbox_for(client: InboxClient) -> Outbox:
    return Outbox(client, HERE)


async def listed(
    client: InboxClient,
    subscriber_id: str = "jane",
    tab: InboxTab = InboxTab.INBOX,
    source: InboxSource = V2,
) -> Feed:
    """The first page of the tab's listing, as the screen holds it."""
    feed = Feed()
    (page,) = await loading.pages(client, subscriber_id, [0], tab, source)
    feed.add_page(0, page.items, page.has_more, page.total)
    return feed


def stored(service: Service, message_id: str) -> tuple[bool, bool]:
    read, seen = service.row("SELECT read, seen FROM messages WHERE id = ?", message_id)
    return bool(read), bool(seen)


def inbox_state(service: Service, message_id: str) -> tuple[bool, str | None]:
    """Archived, and snoozed until, as the service stores them."""
    doc = json.loads(service.row("SELECT doc FROM messages WHERE id = ?", message_id)[0])
    return bool(doc.get("archived")), doc.get("snoozedUntil")


def mark_posts(transport: FaultTransport) -> list[dict[str, object]]:
    return [
        json.loads(r.content)
        for r in transport.seen
        if r.method == "POST" and r.url.path.endswith("/mark-as")
    ]


def demo_service(make_service: ServiceFactory, **settings: object) -> Service:
    """The demo's data, with a key of its Development environment (PAGING_KEY): the
    run's one demo at DEMO_NOW, whose template the demo's other tests share."""
    service = make_service(fixture=demo_at(DEMO_NOW), **settings)
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    service.store.add_api_key(env["id"], PAGING_KEY)
    return service


def capped_big_inbox(make_service: ServiceFactory, transport: FaultTransport) -> Service:
    """The demo's big inbox behind feed answers whose totalCount stops at the page size."""

    def capped(body: object) -> object:
        assert isinstance(body, dict)
        return {**body, "totalCount": min(body["totalCount"], body["pageSize"])}

    service = demo_service(make_service)
    transport.inner = CappingTransport(transport.inner, capped)
    return service


def feed_requests(sent: list[httpx.Request], limit: str) -> list[httpx.Request]:
    return [r for r in sent if r.url.path.endswith("/feed") and r.url.params.get("limit") == limit]


def inbox_requests(sent: list[httpx.Request], limit: str) -> list[httpx.Request]:
    """Requests of the v2 inbox list with this limit, the counts' searches left out."""
    return [
        r
        for r in sent
        if r.url.path.endswith("/notifications")
        and r.url.params.get("limit") == limit
        and "read" not in r.url.params
        and "seen" not in r.url.params
    ]


def visible(service: Service, key: str, subscriber_id: str) -> int:
    """How many notifications the Inbox tab holds, walked by offset."""
    found = 0
    with service.http(key) as http:
        while True:
            body = http.get(
                f"/v2/subscribers/{subscriber_id}/notifications",
                params={"archived": "false", "snoozed": "false", "limit": 100, "offset": found},
            ).json()
            found += len(body["data"])
            if not body["hasMore"]:
                return found


class CappingTransport(httpx.AsyncBaseTransport):
    """Feed answers changed as production's are: totalCount at most the page size."""

    def __init__(self, inner: httpx.AsyncBaseTransport, change: Callable[[object], object]):
        self.inner = inner
        self.change = change
        # When set: single-row list requests (the search for the end) wait for it.
        self.hold: asyncio.Event | None = None
        # So many single-row list requests fail with a 500 first.
        self.fail = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # The listing's own probes; the counts' searches (read or seen) go through.
        params = request.url.params
        probe = params.get("limit") == "1" and "read" not in params and "seen" not in params
        if self.hold is not None and probe:
            await self.hold.wait()
        if self.fail and probe:
            self.fail -= 1
            body = {"statusCode": 500, "message": "Internal server error", "errorId": "e1"}
            return httpx.Response(500, json=body, request=request)
        response = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/notifications/feed"):
            return response
        await response.aread()
        body = self.change(json.loads(response.content))
        return httpx.Response(response.status_code, json=body, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()
