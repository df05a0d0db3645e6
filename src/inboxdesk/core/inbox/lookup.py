"""Finding one message by what a customer's ticket carries: its
transactionId, or its id. UI-free: `inboxdesk message` and the app's go-to share it.

X is tried as a transactionId first (`GET /v1/messages?transactionId=X`, one request).
Only then is it looked for as a message id, page by page of `GET /v1/messages` (the
service has no lookup by id): among one subscriber's messages, or the environment's,
never further than `max_pages` pages, saying how far it got, and never past a page
that lists nothing new (a service that loops).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from inboxdesk.client import InboxClient
from inboxdesk.client.limits import Walk
from inboxdesk.models import Channel, Message
from inboxdesk.models.base import is_whole

# The most `GET /v1/messages` gives in one page (a larger limit is a 400).
SCAN_PAGE = 1000

# Told after each page of a scan: pages searched, and pages in all when the service
# counted them (None when it gives no total).
Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class Found:
    """The messages X named, and how: a transaction may hold several (one per channel
    and subscriber); an id names one."""

    messages: list[Message]
    by: Literal["transactionId", "id"]


def _pages(total: int | float | None) -> int | None:
    """Pages of a total; none known for a total that is not a whole number."""
    return max(1, -(-int(total) // SCAN_PAGE)) if is_whole(total) else None


async def by_transaction(
    client: InboxClient, transaction_id: str, subscriber_id: str | None = None
) -> list[Message]:
    """The messages of one transaction (of one subscriber, if given), newest first: only
    those that carry it, whatever else a service that ignores the filter sends."""
    page = await client.list_messages(
        0, SCAN_PAGE, subscriber_id=subscriber_id, transaction_ids=[transaction_id]
    )
    return [m for m in page.data if m.transaction_id == transaction_id]


async def scan(
    client: InboxClient,
    message_id: str,
    subscriber_id: str | None = None,
    channel: Channel | None = None,
    progress: Progress | None = None,
) -> tuple[Message, int] | None:
    """The message `message_id` names, newest first, and its index in the listing
    scanned; None at the end. Past `max_pages` pages: LimitExceeded (one clear line).

    Each page is read for its ids; only the message found is read in full."""
    walk = Walk(client.options.limits.max_pages, "messages")
    for number in itertools.count():
        page, found = await client.find_in_messages(
            message_id, number, SCAN_PAGE, channel=channel, subscriber_id=subscriber_id
        )
        if found is not None:
            message, index = found
            return message, number * SCAN_PAGE + index
        if progress is not None:
            progress(number + 1, _pages(page.total_count))
        if not page.has_more or not page.data:
            return None
        walk.onward(m.id for m in page.data)
    raise AssertionError("unreachable")


async def find(
    client: InboxClient,
    key: str,
    subscriber_id: str | None = None,
    widen: bool = False,
    progress: Progress | None = None,
) -> Found | None:
    """The messages `key` names (one or more), or None.

    With a subscriber, the transaction and the id are looked for among theirs; `widen`
    looks for both across the environment too (the app, which can switch subscriber).
    """
    key = key.strip()
    if not key:
        return None
    scope = None if widen else subscriber_id
    messages = await by_transaction(client, key, scope)
    if messages:
        return Found(_own_first(messages, subscriber_id), "transactionId")
    scopes: list[str | None] = [subscriber_id] if subscriber_id is not None else []
    if subscriber_id is None or widen:
        scopes.append(None)
    for scope in scopes:
        hit = await scan(client, key, scope, progress=progress)
        if hit is not None:
            return Found([hit[0]], "id")
    return None


def _own_first(messages: list[Message], subscriber_id: str | None) -> list[Message]:
    """In-app messages first, the given subscriber's before others' (stable otherwise)."""

    def rank(m: Message) -> tuple[bool, bool]:
        embedded = m.subscriber
        own = embedded is not None and embedded.subscriber_id == subscriber_id
        return (str(m.channel) != Channel.IN_APP.value, not own)

    return sorted(messages, key=rank)
