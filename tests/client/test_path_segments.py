"""Ids that look like path syntax stay one segment, from the client to the local service."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from inboxdesk.client import ClientOptions, InboxClient, NotFoundError, RetryPolicy
from inboxdesk.models import MarkAs
from inboxdesk.server.rawpath import routed_path
from tests.conftest import ServiceFactory

KEY = "paths-key-0123456789abcdef"
# Each would change the request's path if sent as it is.
IDS = [".", "..", "a/b", "x?y", "%2e", "a#b", "100%", "../..", "a%2Fb", "é /ü"]


def fixture() -> dict[str, Any]:
    return {
        "organization": "Paths",
        "environments": [
            {
                "name": "Development",
                "apiKey": KEY,
                "workflows": [{"name": "Hello", "steps": [{"name": "In-app"}]}],
                "subscribers": [
                    {"subscriberId": sid, "firstName": f"#{n}"} for n, sid in enumerate(IDS)
                ]
                + [{"subscriberId": "jane"}],
                "messages": [
                    {"subscriberId": sid, "workflow": "Hello", "title": f"for {sid}", "read": False}
                    for sid in [*IDS, "jane"]
                ],
            }
        ],
    }


@pytest.fixture
async def client(make_service: ServiceFactory) -> Any:
    service = make_service(fixture=fixture())
    options = ClientOptions(retry=RetryPolicy(attempts=1))
    async with InboxClient(service.url, KEY, options) as api:
        yield api


@pytest.mark.parametrize("subscriber_id", IDS)
async def test_an_id_is_read_listed_and_marked_as_itself(
    client: InboxClient, subscriber_id: str
) -> None:
    subscriber = await client.get_subscriber(subscriber_id)
    assert subscriber.subscriber_id == subscriber_id
    feed = await client.feed(subscriber_id)
    assert [m.title for m in feed.data] == [f"for {subscriber_id}"], "its own message only"
    counts = await client.notification_counts(subscriber_id)
    assert counts.unread.value == 1
    result = await client.mark_as(subscriber_id, feed.data[0].id, MarkAs.READ)
    assert result.not_updated == [] and result.messages[0].read
    assert await client.unseen_count(subscriber_id) == 0
    assert await client.mark_all(subscriber_id, MarkAs.UNREAD) == 1
    # jane's message is untouched by every one of these.
    assert (await client.feed("jane")).data[0].read is False


async def test_an_unknown_id_that_looks_like_a_path_is_not_found(client: InboxClient) -> None:
    for ghost in ("../jane", "jane/..", "..%2Fjane"):
        with pytest.raises(NotFoundError):
            await client.get_subscriber(ghost)


def test_the_client_keeps_each_id_in_one_segment() -> None:
    from inboxdesk.client.sender import segment as _segment

    for sid in IDS:
        path = httpx.URL(f"http://h/v1/subscribers/{_segment(sid)}/notifications/feed").raw_path
        assert path.startswith(b"/v1/subscribers/") and path.endswith(b"/notifications/feed")
        segments = routed_path(path).split("/")
        assert len(segments) == 6 and segments[3] != "notifications", sid


def test_the_service_routes_on_the_raw_path() -> None:
    assert routed_path(b"/v1/subscribers/a%2Fb/feed") == "/v1/subscribers/a%2Fb/feed"
    assert routed_path(b"/v1/subscribers/%2E%2E/feed") == "/v1/subscribers/../feed"
    assert routed_path(b"/v1/subscribers/100%25/x") == "/v1/subscribers/100%25/x"
    assert routed_path(b"/v1/subscribers/%C3%A9%20/x") == "/v1/subscribers/\u00e9 /x"
