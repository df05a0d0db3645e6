"""Every client method against the real local service over loopback."""

from __future__ import annotations

import pytest

from inboxdesk.client import (
    AuthenticationError,
    BadRequestError,
    InboxClient,
    NotFoundError,
    ValidationError,
)
from inboxdesk.models import Channel, Integration, MarkAs, Message
from tests.client.conftest import Counted
from tests.conftest import (
    INBOX,
    JOE_MESSAGES,
    MAILGUN,
    SENDGRID,
    STAGING_KEY,
    jane_message,
)


async def test_set_primary_returns_the_integration(counted: Counted) -> None:
    async with counted.client() as client:
        item = await client.set_primary(MAILGUN)
        everything = await client.list_integrations()
    assert isinstance(item, Integration)
    assert item.primary and item.active and item.conditions == []
    mine = [i for i in everything if i.environment_id == item.environment_id]
    assert [i.id for i in mine if i.channel == Channel.EMAIL and i.primary] == [MAILGUN]
    assert next(i for i in everything if i.id == SENDGRID).primary is False


async def test_set_primary_errors_are_typed(counted: Counted) -> None:
    async with counted.client() as client:
        with pytest.raises(BadRequestError, match="Channel in_app does not support primary"):
            await client.set_primary(INBOX)
        with pytest.raises(NotFoundError, match="not found") as missing:
            await client.set_primary("65e000000000000000099999")
        with pytest.raises(ValidationError) as invalid:
            await client.set_primary("not-an-id")
    assert missing.value.status == 404 and missing.value.hint
    assert "integrationId" in invalid.value.fields


async def test_mark_as_one_and_many(counted: Counted) -> None:
    async with counted.client() as client:
        one = await client.mark_as("jane", jane_message(1), MarkAs.READ)
        many = await client.mark_as("jane", [jane_message(2), jane_message(3)], "unseen")
    assert [m.id for m in one.messages] == [jane_message(1)] and one.not_updated == []
    assert one.messages[0].read and one.messages[0].seen
    assert all(isinstance(m, Message) and not m.seen for m in many.messages)


async def test_mark_as_reports_ids_the_service_ignored(counted: Counted) -> None:
    ids = [jane_message(1), JOE_MESSAGES[0], "65f0000000000000000fffff"]
    async with counted.client() as client:
        result = await client.mark_as("jane", ids, MarkAs.SEEN)
    # Production returns jane's alone: an id absent from the answer was not updated.
    assert [m.id for m in result.messages] == [jane_message(1)]
    assert [m.id for m in result.updated] == [jane_message(1)]
    assert result.not_updated == [JOE_MESSAGES[0], "65f0000000000000000fffff"]
    assert result.requested == ids


async def test_mark_as_splits_more_than_1000_ids(counted: Counted) -> None:
    ids = [jane_message(n) for n in range(12)] + [
        f"65f0000000000000002{n:05d}" for n in range(1500)
    ]
    async with counted.client() as client:
        result = await client.mark_as("jane", ids, MarkAs.READ)
    assert counted.store.applied["mark_as"] == 2
    assert len(result.messages) == 12 and len(result.not_updated) == 1500


async def test_mark_all_and_unseen_count(counted: Counted) -> None:
    async with counted.client() as client:
        before = await client.unseen_count("jane")
        changed = await client.mark_all("jane", MarkAs.SEEN)
        after = await client.unseen_count("jane")
    assert (before, changed, after) == (6, 6, 0)


async def test_feed_pages_filters_and_iteration(counted: Counted) -> None:
    async with counted.client() as client:
        first = await client.feed("jane", page=0, limit=5)
        last = await client.feed("jane", page=2, limit=5)
        unread = await client.feed("jane", limit=100, read=False)
        unseen = await client.feed("jane", limit=100, seen=False)
        everything = [m.id async for m in client.iter_feed("jane", limit=5)]
    # Totals come from the count endpoint: the feed's totalCount stops at the page size.
    assert (first.has_more, len(first.data)) == (True, 5)
    assert (last.has_more, len(last.data)) == (False, 2)
    assert all(not m.read for m in unread.data) and len(unread.data) == 8
    assert all(not m.seen for m in unseen.data) and len(unseen.data) == 6
    assert sorted(everything) == sorted(jane_message(n) for n in range(12))


async def test_subscribers_and_messages(counted: Counted) -> None:
    async with counted.client() as client:
        page = await client.list_subscribers(limit=1)
        jane = await client.get_subscriber("jane")
        email = await client.list_messages(channel=Channel.EMAIL)
        joe = await client.list_messages(subscriber_id="joe", limit=2)
        txn = await client.list_messages(transaction_ids=["txn-1", "txn-2"])
        active = await client.list_integrations(active_only=True)
        with pytest.raises(NotFoundError, match="Subscriber ghost not found"):
            await client.get_subscriber("ghost")
    assert page.has_more and page.data[0].subscriber_id in {"jane", "joe"}
    assert jane.display_name == "Jane Doe"
    assert [m.id for m in email.data] == [jane_message(200)]
    assert joe.total_count == 3 and joe.has_more
    assert {m.transaction_id for m in txn.data} == {"txn-1", "txn-2"}
    # The key's environment's: 7 active in Staging.
    assert all(i.active for i in active) and len(active) == 7


async def test_ids_with_slashes_cannot_change_the_path(counted: Counted) -> None:
    async with counted.client() as client:
        with pytest.raises(NotFoundError):  # never joe's record
            await client.get_subscriber("jane/../joe")


async def test_wrong_key_is_an_authentication_error_without_the_key(counted: Counted) -> None:
    secret = "wrong-key-0123456789abcdefghij"
    async with counted.client(key=secret) as client:
        with pytest.raises(AuthenticationError) as failure:
            await client.list_integrations()
        assert secret not in repr(client) and secret not in str(client)
    assert failure.value.status == 401
    assert "API Key not found" in failure.value.message
    assert secret not in str(failure.value) and secret not in repr(failure.value)


def test_client_repr_masks_the_key() -> None:
    client = InboxClient("http://127.0.0.1:9", STAGING_KEY)
    assert STAGING_KEY not in repr(client)
    assert "cdef" in repr(client)


async def test_user_agent_names_inboxdesk_and_its_version(counted: Counted) -> None:
    from inboxdesk import __version__
    from tests.client.faults import FaultTransport

    transport = FaultTransport()
    async with counted.client(transport=transport) as client:
        await client.list_integrations()
    assert transport.seen[0].headers["user-agent"].startswith(f"inboxdesk/{__version__} ")
    assert transport.seen[0].headers["authorization"] == f"ApiKey {STAGING_KEY}"
