"""What the inbox loads, as plain async functions over the client: no widgets, no state.

The screen's workers call these and post what they return as messages.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from inboxdesk.client import InboxClient, NotFoundError
from inboxdesk.client.limits import too_many_pages
from inboxdesk.models import NotificationCounts, Subscriber
from inboxdesk.models.feed import FeedItem
from inboxdesk.models.pages import Page
from inboxdesk.tui.inbox.feed import PAGE_SIZE, FeedFilter
from inboxdesk.writes import UNDOABLE_MARK_ALL, Flags


async def subscriber(client: InboxClient, subscriber_id: str) -> Subscriber | None:
    """The subscriber, or None when the service does not know them."""
    try:
        return await client.get_subscriber(subscriber_id)
    except NotFoundError:
        return None


async def counts(client: InboxClient, subscriber_id: str) -> NotificationCounts:
    """The header's unread and unseen counts: the one place that asks the service for them.

    From a count endpoint, since the feed's totalCount is capped at its page size.
    """
    return await client.notification_counts(subscriber_id)


async def pages(
    client: InboxClient, subscriber_id: str, numbers: list[int], feed_filter: FeedFilter
) -> list[Page[FeedItem]]:
    """Those pages of the feed, asked for together."""
    return list(
        await asyncio.gather(
            *(client.feed(subscriber_id, n, PAGE_SIZE, **feed_filter.query) for n in numbers)
        )
    )


@dataclass(frozen=True)
class End:
    page: int  # the last page that holds rows
    last: Page[FeedItem]  # that page, whole
    length: int | None  # None: rows were added or removed during the search


async def find_end(
    client: InboxClient, subscriber_id: str, known: int, feed_filter: FeedFilter
) -> End:
    """The feed's length when it gives no total (production caps it at the page size).

    Single-row probes find the last page that holds a row, galloping then halving
    over pages (about 2·log₂(pages): 19 for 100,000 messages), and that page, fetched
    whole, says how many rows it holds; its rows are the ones `G` shows. It looks no
    further than `max_pages`: a service that always says "more" has no end to find.
    """
    query = feed_filter.query
    most = client.options.limits.max_pages

    async def holds(page: int) -> bool:
        # With limit 1 the feed's page number is an offset: the page's first row.
        found = await client.feed(subscriber_id, page * PAGE_SIZE, 1, **query)
        return bool(found.data)

    low, step, high = max(0, known - 1) // PAGE_SIZE, 1, None
    while high is None:
        if low + 1 >= most:
            raise too_many_pages(most, "the feed")
        probe = min(low + step, most - 1)
        if await holds(probe):
            low, step = probe, step * 2
        else:
            high = probe
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if await holds(middle) else (low, middle)
    last = await client.feed(subscriber_id, low, PAGE_SIZE, **query)
    # Rows added or removed meanwhile (more after it, or none left): no end to tell.
    ended = bool(last.data) and not last.has_more
    return End(low, last, low * PAGE_SIZE + len(last.data) if ended else None)


async def unread_before(client: InboxClient, subscriber_id: str) -> dict[str, Flags] | None:
    """The unread messages a mark-all would change, when few enough to undo it."""
    before: dict[str, Flags] = {}
    for page in range(UNDOABLE_MARK_ALL // PAGE_SIZE):
        result = await client.feed(subscriber_id, page, PAGE_SIZE, read=False)
        before.update({m.id: (m.read, m.seen) for m in result.data if m.id})
        if not result.has_more:
            return before
    return None
