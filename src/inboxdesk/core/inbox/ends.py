"""Exact counts where the service stops counting, for the app and the command line.

The count endpoint stops at 100 and the v2 list gives no total, so a count of 100 or
more is made exact by searching for the end of the listing it counts: single-row
probes gallop, then halve, over pages (about 2·log₂(pages) requests: 19 for 100,000
messages), and the last page, fetched whole, says how many rows it holds. A listing is
given as its v2 filters and its v1 feed's; `v2` says which endpoint to read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from inboxdesk.client import InboxClient, InboxdeskError, NotFoundError
from inboxdesk.client.limits import too_many_pages
from inboxdesk.models import Count, NotificationCounts
from inboxdesk.models.base import is_whole
from inboxdesk.models.pages import COUNT_CAP

if TYPE_CHECKING:
    from inboxdesk.models import Message
    from inboxdesk.models.feed import FeedItem
    from inboxdesk.models.inbox import InboxNotification

# The v2 inbox gives InboxNotifications, an older service's v1 feed FeedItems.
Entry: TypeAlias = "Message | FeedItem | InboxNotification"

PAGE_SIZE = 100  # the most either listing gives in one page


@dataclass(frozen=True)
class Filters:
    """One listing: the v2 list's filters, and the v1 feed's read/seen ones."""

    v2: Mapping[str, bool]
    v1: Mapping[str, bool]


VISIBLE = {"archived": False, "snoozed": False}
# What the subscriber's Inbox counts (neither archived nor snoozed), and every message
# whatever its state (what a mark-all changes).
UNREAD = Filters({"read": False, **VISIBLE}, {"read": False})
UNSEEN = Filters({"seen": False, **VISIBLE}, {"seen": False})
UNREAD_ANY = Filters({"read": False}, {"read": False})
UNSEEN_ANY = Filters({"seen": False}, {"seen": False})
# Every message already read, or seen: what a mark-all unread, or unseen, changes.
READ_ANY = Filters({"read": True}, {"read": True})
SEEN_ANY = Filters({"seen": True}, {"seen": True})


@dataclass(frozen=True)
class Loaded:
    """One page of a listing, whichever endpoint gave it."""

    items: Sequence[Entry]
    has_more: bool
    total: int | None = None  # the v1 feed's totalCount; the v2 inbox gives none
    # Rows the page takes in the listing, readable or not (None: `items`): an item the
    # client left out still moves the rows after it.
    sent: int | None = None
    # What the client left out of the page, said (client/bounded.py).
    said: tuple[str, ...] = ()

    @property
    def rows(self) -> int:
        return len(self.items) if self.sent is None else self.sent


@dataclass(frozen=True)
class End:
    """Where a listing ends, as the search for its last page found it."""

    page: int  # the last page that holds rows
    last: Loaded  # that page, whole
    length: int | None  # None: rows were added or removed during the search


async def page(
    client: InboxClient, subscriber_id: str, filters: Filters, v2: bool, number: int, limit: int
) -> Loaded:
    """Rows `number * limit` on: by offset on the v2 inbox, by page on the v1 feed (with
    limit 1 the feed's page number is an offset too)."""
    if v2:
        found = await client.notifications(
            subscriber_id, limit=limit, offset=number * limit, **filters.v2
        )
        return Loaded(found.data, found.has_more, sent=found.sent, said=found.said)
    feed = await client.feed(subscriber_id, number, limit, **filters.v1)
    # A total that is not a whole number is not one to page by.
    total = int(feed.total_count) if is_whole(feed.total_count) else None
    return Loaded(feed.data, feed.has_more, total, feed.sent, feed.said)


async def find_end(
    client: InboxClient, subscriber_id: str, known: int, filters: Filters, v2: bool
) -> End:
    """The listing's length, which neither endpoint gives; `known`, a length it had,
    makes it a few probes when little changed. It looks no further than `max_pages`: a
    service that always says "more" has no end to find."""
    most = client.options.limits.max_pages

    async def holds(number: int) -> bool:
        found = await page(client, subscriber_id, filters, v2, number * PAGE_SIZE, 1)
        return found.rows > 0

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
    last = await page(client, subscriber_id, filters, v2, low, PAGE_SIZE)
    # Rows added or removed meanwhile (more after it, or none left): no end to tell.
    ended = last.rows > 0 and not last.has_more
    return End(low, last, low * PAGE_SIZE + last.rows if ended else None)


def capped(count: Count) -> bool:
    """Whether the service may have stopped counting at this count."""
    return count.capped or count.value >= COUNT_CAP


async def exact(
    client: InboxClient, subscriber_id: str, count: Count, filters: Filters, v2: bool, hint: int
) -> Count:
    """A count the service capped, made exact by the end search over its listing; the
    capped count when the search fails (`99+` only when the number is unknown)."""
    if count.odd or not capped(count):
        return count  # an odd count is shown as sent, and never paged by
    try:
        end = await find_end(client, subscriber_id, max(hint, int(count.value)), filters, v2)
    except NotFoundError:
        raise
    except InboxdeskError:
        return count  # a count that stays capped says as much
    return count if end.length is None else Count(end.length)


async def exact_counts(
    client: InboxClient,
    subscriber_id: str,
    counts: NotificationCounts,
    v2: bool,
    hint: NotificationCounts | None = None,
    all_states: bool = False,
) -> NotificationCounts:
    """The capped counts made exact by searching their listings' ends; `hint`, the
    last exact counts."""
    known = hint if hint is not None and not (hint.unread.odd or hint.unseen.odd) else None
    known = known or NotificationCounts(Count(0), Count(0))
    unread, unseen = (UNREAD_ANY, UNSEEN_ANY) if all_states else (UNREAD, UNSEEN)
    found = await asyncio.gather(
        exact(client, subscriber_id, counts.unread, unread, v2, int(known.unread.value)),
        exact(client, subscriber_id, counts.unseen, unseen, v2, int(known.unseen.value)),
    )
    return NotificationCounts(*found)


async def exact_notification_counts(
    client: InboxClient, subscriber_id: str, all_states: bool = False
) -> NotificationCounts:
    """The command line's counts: the count endpoint, then the end search where it
    stopped, on the v2 inbox or else the v1 feed (one rule with the app's)."""
    counts = await client.notification_counts(subscriber_id, all_states)
    if not (capped(counts.unread) or capped(counts.unseen)):
        return counts
    from inboxdesk.client import NoV2Inbox

    try:
        try:
            return await exact_counts(client, subscriber_id, counts, True, all_states=all_states)
        except NoV2Inbox:
            return await exact_counts(client, subscriber_id, counts, False, all_states=all_states)
    except InboxdeskError:
        return counts  # no listing to search: the capped counts say as much (99+)


async def exact_count(client: InboxClient, subscriber_id: str, filters: Filters) -> Count | None:
    """How many messages one listing holds, exact past the cap; None where the service
    has no v2 count to ask (the number is then not known beforehand)."""
    try:
        (count,) = await client.count_notifications(subscriber_id, [dict(filters.v2)])
    except NotFoundError:
        return None
    return await exact(client, subscriber_id, count, filters, True, int(count.value))
