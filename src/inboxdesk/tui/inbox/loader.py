"""What the inbox loads, as plain async functions over the client: no widgets, no state.

The screen's workers (loading.py) call these and post what they return as messages.
Each listing reads the v2 inbox, or the v1 feed on an older service whose v2 list
answered 404: `v2` says which.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inboxdesk.client import InboxClient, InboxdeskError, NotFoundError
from inboxdesk.client.limits import Walk, too_many_pages
from inboxdesk.models import Count, NotificationCounts, Subscriber
from inboxdesk.models.base import is_whole
from inboxdesk.models.pages import COUNT_CAP
from inboxdesk.tui.inbox.feed import PAGE_SIZE, FeedEntry, InboxTab

# A mark-all's "before", listed where the command line lists it too.
from inboxdesk.writes.before import Unread as Unread
from inboxdesk.writes.before import unread_before as unread_before


@dataclass(frozen=True)
class Loaded:
    """One page of a listing, whichever endpoint gave it."""

    items: Sequence[FeedEntry]
    has_more: bool
    total: int | None = None  # the v1 feed's totalCount; the v2 inbox gives none


# How long the App's first open of an inbox waits for its first page (first_page).
FIRST_PAGE_WAIT = 0.3

FirstPage = asyncio.Task[Loaded]


async def first_page(client: InboxClient, subscriber_id: str) -> FirstPage:
    """Page 0 of the subscriber's Inbox tab on the v2 inbox, asked for now and waited for
    up to FIRST_PAGE_WAIT; the inbox adopts it (InboxScreen.open), done or not.

    Opened with its rows, the inbox's first frame is laid out and painted once; opened
    empty, that work is done twice.
    """
    asked = asyncio.ensure_future(page(client, subscriber_id, InboxTab.INBOX, True, 0, PAGE_SIZE))
    try:
        await asyncio.wait([asked], timeout=FIRST_PAGE_WAIT)
    except asyncio.CancelledError:
        asked.cancel()  # the app ended meanwhile: nobody will adopt it
        raise
    return asked


async def subscriber(client: InboxClient, subscriber_id: str) -> Subscriber | None:
    """The subscriber, or None when the service does not know them."""
    try:
        return await client.get_subscriber(subscriber_id)
    except NotFoundError:
        return None


async def page(
    client: InboxClient, subscriber_id: str, tab: InboxTab, v2: bool, number: int, limit: int
) -> Loaded:
    """Rows `number * limit` on: by offset on the v2 inbox, by page on the v1 feed (with
    limit 1 the feed's page number is an offset too)."""
    if v2:
        found = await client.notifications(
            subscriber_id, limit=limit, offset=number * limit, **tab.query
        )
        return Loaded(found.data, found.has_more)
    feed = await client.feed(subscriber_id, number, limit, **tab.feed_query)
    # A total that is not a whole number is not one to page by.
    total = int(feed.total_count) if is_whole(feed.total_count) else None
    return Loaded(feed.data, feed.has_more, total)


async def pages(
    client: InboxClient, subscriber_id: str, numbers: list[int], tab: InboxTab, v2: bool
) -> list[Loaded]:
    """Those pages of the listing, asked for together."""
    if len(numbers) == 1:
        # Sent now, not from a task gather would start on a later turn of the loop,
        # behind the redraw the change of listing queued (a tab, a subscriber).
        return [await page(client, subscriber_id, tab, v2, numbers[0], PAGE_SIZE)]
    return list(
        await asyncio.gather(*(page(client, subscriber_id, tab, v2, n, PAGE_SIZE) for n in numbers))
    )


async def locate(
    client: InboxClient,
    subscriber_id: str,
    message_id: str,
    tab: InboxTab,
    v2: bool,
    progress: Callable[[int, int | None], None] | None = None,
) -> int | None:
    """Where the message stands in the tab's own listing (its filters, its order), page
    by page up to `max_pages`; None when the tab does not show it."""
    walk = Walk(client.options.limits.max_pages, "the inbox")
    number = 0
    while True:
        found = await page(client, subscriber_id, tab, v2, number, PAGE_SIZE)
        for index, item in enumerate(found.items):
            if item.id == message_id:
                return number * PAGE_SIZE + index
        if progress is not None:
            progress(number + 1, None)
        if not found.has_more or not found.items:
            return None
        walk.onward(item.id for item in found.items)
        number += 1


@dataclass(frozen=True)
class End:
    """Where a listing ends, as the search for its last page found it."""

    page: int  # the last page that holds rows
    last: Loaded  # that page, whole
    length: int | None  # None: rows were added or removed during the search


async def find_end(
    client: InboxClient, subscriber_id: str, known: int, tab: InboxTab, v2: bool
) -> End:
    """The listing's length, which neither endpoint gives (the v2 inbox has no total,
    the v1 feed caps it at the page size).

    Single-row probes find the last page that holds a row, galloping then halving
    over pages (about 2·log₂(pages): 19 for 100,000 messages), and that page, fetched
    whole, says how many rows it holds; its rows are the ones `G` shows. It looks no
    further than `max_pages`: a service that always says "more" has no end to find.
    """
    most = client.options.limits.max_pages

    async def holds(number: int) -> bool:
        found = await page(client, subscriber_id, tab, v2, number * PAGE_SIZE, 1)
        return bool(found.items)

    low, step, high = max(0, known - 1) // PAGE_SIZE, 1, None
    if low and not await holds(low):
        low = 0  # fewer rows than the hint: search from the start
    while high is None:
        if low + 1 >= most:
            raise too_many_pages(most, "the inbox")
        probe = min(low + step, most - 1)
        if await holds(probe):
            low, step = probe, step * 2
        else:
            high = probe
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if await holds(middle) else (low, middle)
    last = await page(client, subscriber_id, tab, v2, low, PAGE_SIZE)
    # Rows added or removed meanwhile (more after it, or none left): no end to tell.
    ended = bool(last.items) and not last.has_more
    return End(low, last, low * PAGE_SIZE + len(last.items) if ended else None)


async def exact(
    client: InboxClient, subscriber_id: str, count: Count, tab: InboxTab, v2: bool, hint: int
) -> Count:
    """A count the service capped, made exact by the end search over its tab (issue 20:
    `99+` only when the number is unknown); the capped count when the search fails."""
    if count.odd or (not count.capped and count.value < COUNT_CAP):
        return count  # an odd count is shown as sent, and never paged by
    try:
        end = await find_end(client, subscriber_id, max(hint, int(count.value)), tab, v2)
    except NotFoundError:
        raise
    except InboxdeskError:
        return count  # a count that stays capped says as much
    return count if end.length is None else Count(end.length)


async def counts(client: InboxClient, subscriber_id: str, v2: bool) -> NotificationCounts:
    """The header's unread and unseen: the Unread and Unseen tabs' counts, from the
    count endpoint (capped at 100, as production caps it)."""
    if v2:
        unread, unseen = await client.count_notifications(
            subscriber_id, [InboxTab.UNREAD.query, InboxTab.UNSEEN.query]
        )
        return NotificationCounts(unread, unseen)
    return await client.notification_counts(subscriber_id)


def capped(counts: NotificationCounts) -> bool:
    return any(c.capped or c.value >= COUNT_CAP for c in (counts.unread, counts.unseen))


async def exact_counts(
    client: InboxClient,
    subscriber_id: str,
    counts: NotificationCounts,
    v2: bool,
    hint: NotificationCounts | None = None,
) -> NotificationCounts:
    """The capped counts made exact by searching their tabs' ends; `hint`, the last
    exact counts, makes the search a few probes when little changed."""
    known = hint if hint is not None and not (hint.unread.odd or hint.unseen.odd) else None
    known = known or NotificationCounts(Count(0), Count(0))
    unread, unseen = await asyncio.gather(
        exact(client, subscriber_id, counts.unread, InboxTab.UNREAD, v2, int(known.unread.value)),
        exact(client, subscriber_id, counts.unseen, InboxTab.UNSEEN, v2, int(known.unseen.value)),
    )
    return NotificationCounts(unread, unseen)
