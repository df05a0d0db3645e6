"""The client's v2 inbox against the local service, and its one compatibility rule:
only a 404 on the list means an older service without the v2 inbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from inboxdesk.client import NotFoundError, NoV2Inbox, SubscriberNotFound
from inboxdesk.models.inbox import InboxAction
from tests.client.conftest import Counted
from tests.client.faults import loopback_async_client
from tests.conftest import STAGING_KEY, ServiceFactory, jane_message


async def test_pages_by_cursor_and_each_action(counted: Counted) -> None:
    async with counted.client() as client:
        first = await client.notifications("jane", limit=5)
        assert client.v2_inbox is True and first.has_more and first.after == first.data[-1].id
        rest = await client.notifications("jane", limit=50, after=first.after)
        assert len(first.data) + len(rest.data) == 12 and not rest.has_more
        target = jane_message(11)
        archived = await client.notification_action("jane", target, InboxAction.ARCHIVE)
        assert archived.is_archived and archived.archived_at
        inbox = await client.notifications("jane", limit=50, archived=False, snoozed=False)
        assert target not in [n.id for n in inbox.data]
        until = datetime.now(UTC) + timedelta(hours=1)
        snoozed = await client.notification_action(
            "jane", jane_message(10), "snooze", snooze_until=until
        )
        assert snoozed.is_snoozed and snoozed.snoozed_until
        read = await client.notification_action("jane", jane_message(1), InboxAction.READ)
        assert read.flags == (True, True)
    # The bulk seen, which only production's own inbox calls: its route on our service.
    async with loopback_async_client(base_url=counted.url) as http:
        answer = await http.post(
            "/v2/subscribers/jane/notifications/seen",
            json={"notificationIds": [jane_message(5)]},
            headers={"Authorization": f"ApiKey {STAGING_KEY}"},
        )
    assert answer.status_code == 204
    assert (
        counted.store.read()
        .execute("SELECT seen FROM messages WHERE id = ?", (jane_message(5),))
        .fetchone()[0]
        == 1
    )


async def test_errors_about_a_subscriber_or_a_notification_keep_v2_on(counted: Counted) -> None:
    async with counted.client() as client:
        with pytest.raises(SubscriberNotFound, match="Subscriber 'nobody' was not found"):
            await client.notifications("nobody")
        with pytest.raises(NotFoundError) as missing:
            await client.notification_action("jane", "65f0000000000000000fffff", "read")
        assert not isinstance(missing.value, NoV2Inbox)
        assert client.v2_inbox is not False
        await client.notifications("jane", limit=1)
        assert client.v2_inbox is True


async def test_an_older_service_says_it_has_no_v2_inbox(make_service: ServiceFactory) -> None:
    from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
    from tests.conftest import STAGING_KEY

    service = make_service(v2_inbox=False)
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=1, deadline=5))
    async with InboxClient(service.url, STAGING_KEY, options) as client:
        with pytest.raises(NoV2Inbox, match="no v2 inbox"):
            await client.notifications("jane")
        assert client.v2_inbox is False
        # The v1 feed still answers: the fallback the app uses.
        assert len((await client.feed("jane", 0, 100)).data) == 12


async def test_an_unknown_subscriber_is_told_by_status_not_by_words(counted: Counted) -> None:
    from tests.client.faults import FaultTransport

    transport = FaultTransport()
    async with counted.client(transport=transport) as client:
        with pytest.raises(NotFoundError):
            await client.get_subscriber("nobody")
        await client.get_subscriber("jane")
    paths = [r.url.path for r in transport.seen]
    # One probe of the v2 listing tells "unknown subscriber" from "no v2"; no v1 request.
    assert paths == ["/v2/subscribers/nobody", "/v2/subscribers", "/v2/subscribers/jane"]


async def test_without_v2_subscribers_the_v1_endpoint_is_used(make_service: ServiceFactory) -> None:
    from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
    from tests.conftest import STAGING_KEY

    service = make_service(v2_subscribers=False)
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=1, deadline=5))
    async with InboxClient(service.url, STAGING_KEY, options) as client:
        assert (await client.get_subscriber("jane")).subscriber_id == "jane"
        with pytest.raises(NotFoundError):
            await client.get_subscriber("nobody")
