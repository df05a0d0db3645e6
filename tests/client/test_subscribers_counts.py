"""Subscribers and counts on the documented endpoints, and the v1 fallback, over loopback."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from inboxdesk.client import InboxClient, NotFoundError
from inboxdesk.models import COUNT_CAP
from inboxdesk.server.fixtures import read_fixture
from tests.client.conftest import Counted
from tests.client.faults import FaultTransport
from tests.conftest import EXAMPLE, STAGING_KEY, ServiceFactory


async def test_search_by_each_field_and_follow_the_cursor(counted: Counted) -> None:
    transport = FaultTransport()
    async with counted.client(transport=transport) as client:
        by_email = await client.search_subscribers(email="joe@example.test")
        by_name = await client.search_subscribers(name="Jane")
        by_id = await client.search_subscribers(subscriber_id="jane")
        nobody = await client.search_subscribers(email="nobody@example.test")
        first = await client.search_subscribers(limit=1)
        second = await client.search_subscribers(limit=1, after=first.next)
    assert [s.subscriber_id for s in by_email.data] == ["joe"]
    assert [s.subscriber_id for s in by_name.data] == ["jane"]
    assert [s.subscriber_id for s in by_id.data] == ["jane"]
    assert nobody.data == []
    assert first.next is not None and len(first.data) == len(second.data) == 1
    assert {first.data[0].subscriber_id, second.data[0].subscriber_id} == {"jane", "joe"}
    assert transport.seen[0].url.path == "/v2/subscribers", "v2 is asked first"
    assert transport.seen[0].url.params["email"] == "joe@example.test"


async def test_a_service_without_v2_is_read_through_v1(make_service: ServiceFactory) -> None:
    service = make_service(v2_subscribers=False)
    transport = FaultTransport()
    async with InboxClient(service.url, STAGING_KEY, transport=transport) as client:
        found = await client.search_subscribers(name="joe")
        jane = await client.get_subscriber("jane")
        counts = await client.notification_counts("jane")
        again = await client.search_subscribers(email="jane@example.test")
    assert [s.subscriber_id for s in found.data] == ["joe"]
    assert jane.display_name == "Jane Doe"
    assert (counts.unread.value, counts.unseen.value) == (8, 6)
    assert [s.subscriber_id for s in again.data] == ["jane"]
    v2 = [r.url.path for r in transport.seen if r.url.path.startswith("/v2/")]
    # Subscribers and counts are each tried on v2 once; after a 404, straight to v1.
    assert v2 == ["/v2/subscribers", "/v2/subscribers/jane/notifications/count"]


async def test_an_unknown_subscriber_is_not_found_on_either_version(
    make_service: ServiceFactory,
) -> None:
    for v2 in (True, False):
        service = make_service(v2_subscribers=v2)
        async with InboxClient(service.url, STAGING_KEY) as client:
            with pytest.raises(NotFoundError, match="Subscriber ghost not found"):
                await client.get_subscriber("ghost")


async def test_counts_are_exact_below_the_cap(counted: Counted) -> None:
    async with counted.client() as client:
        counts = await client.notification_counts("jane")
    assert (counts.unread.value, counts.unread.capped) == (8, False)
    assert (counts.unseen.value, counts.unseen.capped) == (6, False)
    assert (str(counts.unread), str(counts.unseen)) == ("8", "6")


async def test_counts_are_what_the_inbox_shows_unless_all_states(counted: Counted) -> None:
    """An archived unread message is not counted, as the subscriber's Inbox counts;
    mark-all's count (all_states) still has it."""
    async with counted.client() as client:
        before = await client.notification_counts("jane")
        unread = await client.notifications("jane", read=False)
        target = unread.data[0].id
        # Archive reads the message; v1's mark-as makes it unread and keeps it archived.
        await client.notification_action("jane", target, "archive")
        await client.mark_as("jane", [target], "unread")
        shown = await client.notification_counts("jane")
        every = await client.notification_counts("jane", all_states=True)
    assert shown.unread.value == before.unread.value - 1
    assert every.unread.value == before.unread.value


def busy_fixture(unread: int) -> dict[str, Any]:
    """The example, with `unread` more unread, unseen messages for jane."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    staging = fixture["environments"][0]
    staging["messages"] += [
        {
            "subscriberId": "jane",
            "workflow": "Order shipped",
            "title": f"Busy {n}",
            "transactionId": f"busy-{n}",
            "read": False,
            "seen": False,
        }
        for n in range(unread)
    ]
    return fixture


async def test_counts_past_the_cap_are_marked_capped(make_service: ServiceFactory) -> None:
    for v2 in (True, False):
        service = make_service(fixture=busy_fixture(COUNT_CAP + 20), v2_subscribers=v2)
        async with InboxClient(service.url, STAGING_KEY) as client:
            counts = await client.notification_counts("jane")
        assert counts.unread.capped and counts.unseen.capped
        assert (str(counts.unread), str(counts.unseen)) == ("99+", "99+")


async def test_an_unknown_subscriber_never_turns_v2_counts_off(counted: Counted) -> None:
    """A 400 or 404 about a subscriber is about that subscriber. An
    older service's 404 for an unknown one is v1's error too, so v2 stays on."""
    from inboxdesk.client import ApiError, BadRequestError

    transport = FaultTransport(
        route={
            "/v2/subscribers/old-ghost/": lambda r: httpx.Response(
                404, json={"statusCode": 404, "message": "Subscriber old-ghost not found"}
            )
        }
    )
    async with counted.client(transport=transport) as client:
        with pytest.raises(BadRequestError, match="ghost doesn't exist"):
            await client.notification_counts("ghost")
        with pytest.raises(ApiError, match="old-ghost"):
            await client.notification_counts("old-ghost")
        transport.seen.clear()
        counts = await client.notification_counts("jane")
    assert counts.unread.value == 8
    assert [r.url.path for r in transport.seen] == ["/v2/subscribers/jane/notifications/count"]
