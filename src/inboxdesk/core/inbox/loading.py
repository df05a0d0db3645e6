"""What the inbox loads, as plain async functions over the client: no widgets, no state.

The inbox screen's workers call these and post what they return as messages.
Each listing is read from a source (client/source.py): the v2 inbox, or the v1 feed of
an older service whose v2 list answered 404.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from inboxdesk.client import InboxClient, NotFoundError
from inboxdesk.client.limits import Walk
from inboxdesk.client.source import InboxSource, Loaded, source_of
from inboxdesk.core.inbox import ends
from inboxdesk.core.inbox.feed import PAGE_SIZE
from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.models import NotificationCounts, Subscriber

# A mark-all's "before", listed where the command line lists it too.
from inboxdesk.writes.before import Unread as Unread
from inboxdesk.writes.before import unread_before as unread_before

# The end search and what it returns live below the UI (ends.py), shared with the CLI.
End = ends.End


# How long the App's first open of an inbox waits for its first page (first_page).
FIRST_PAGE_WAIT = 0.3

FirstPage = asyncio.Task[Loaded]


async def first_page(client: InboxClient, subscriber_id: str) -> FirstPage:
    """Page 0 of the subscriber's Inbox tab on the client's source, asked for now and waited for
    up to FIRST_PAGE_WAIT; the inbox adopts it (InboxScreen.open), done or not.

    Opened with its rows, the inbox's first frame is laid out and painted once; opened
    empty, that work is done twice.
    """
    source = source_of(client)
    asked = asyncio.ensure_future(page(client, subscriber_id, InboxTab.INBOX, source, 0, PAGE_SIZE))
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
    client: InboxClient,
    subscriber_id: str,
    tab: InboxTab,
    source: InboxSource,
    number: int,
    limit: int,
) -> Loaded:
    """Rows `number * limit` on of the tab's listing (InboxSource.page)."""
    return await source.page(client, subscriber_id, tab.query, number, limit)


async def pages(
    client: InboxClient, subscriber_id: str, numbers: list[int], tab: InboxTab, source: InboxSource
) -> list[Loaded]:
    """Those pages of the listing, asked for together."""
    if len(numbers) == 1:
        # Sent now, not from a task gather would start on a later turn of the loop,
        # behind the redraw the change of listing queued (a tab, a subscriber).
        return [await page(client, subscriber_id, tab, source, numbers[0], PAGE_SIZE)]
    return list(
        await asyncio.gather(
            *(page(client, subscriber_id, tab, source, n, PAGE_SIZE) for n in numbers)
        )
    )


async def locate(
    client: InboxClient,
    subscriber_id: str,
    message_id: str,
    tab: InboxTab,
    source: InboxSource,
    progress: Callable[[int, int | None], None] | None = None,
) -> int | None:
    """Where the message stands in the tab's own listing (its filters, its order), page
    by page up to `max_pages`; None when the tab does not show it."""
    walk = Walk(client.options.limits.max_pages, "the inbox")
    number = 0
    while True:
        found = await page(client, subscriber_id, tab, source, number, PAGE_SIZE)
        for index, item in enumerate(found.items):
            if item.id == message_id:
                return number * PAGE_SIZE + index
        if progress is not None:
            progress(number + 1, None)
        if not found.has_more or not found.items:
            return None
        walk.onward(item.id for item in found.items)
        number += 1


async def find_end(
    client: InboxClient, subscriber_id: str, known: int, tab: InboxTab, source: InboxSource
) -> End:
    """The tab's length, which neither source gives (ends.find_end)."""
    return await ends.find_end(client, subscriber_id, known, tab.query, source)


async def counts(
    client: InboxClient, subscriber_id: str, source: InboxSource
) -> NotificationCounts:
    """The header's unread and unseen: the Unread and Unseen tabs' counts, from the
    count endpoint (capped at 100, as production caps it)."""
    return await source.counts(client, subscriber_id)


def capped(counts: NotificationCounts) -> bool:
    return ends.capped(counts.unread) or ends.capped(counts.unseen)
