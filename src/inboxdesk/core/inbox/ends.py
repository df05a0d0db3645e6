"""Exact counts where the service stops counting, for the app and the command line.

The count endpoint stops at 100 and the v2 list gives no total, so a count of 100 or
more is made exact by searching for the end of the listing it counts: single-row
probes gallop, then halve, over pages (about 2·log₂(pages) requests: 19 for 100,000
messages), and the last page, fetched whole, says how many rows it holds. A listing is
given as its v2 filters; the source (client/source.py) reads it its own way.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from inboxdesk.client import InboxClient, InboxdeskError, NotFoundError
from inboxdesk.client.limits import too_many_pages
from inboxdesk.client.source import V2, VISIBLE, InboxSource, Loaded, on_either
from inboxdesk.models import Count, NotificationCounts
from inboxdesk.models.pages import COUNT_CAP

PAGE_SIZE = 100  # the most either listing gives in one page

# One listing: the v2 list's filters (a v1 source keeps the read and seen ones).
Filters: TypeAlias = Mapping[str, bool]

# What the subscriber's Inbox counts (neither archived nor snoozed), and every message
# whatever its state (what a mark-all changes).
UNREAD: Filters = {"read": False, **VISIBLE}
UNSEEN: Filters = {"seen": False, **VISIBLE}
UNREAD_ANY: Filters = {"read": False}
UNSEEN_ANY: Filters = {"seen": False}
# Every message already read, or seen: what a mark-all unread, or unseen, changes.
READ_ANY: Filters = {"read": True}
SEEN_ANY: Filters = {"seen": True}


@dataclass(frozen=True)
class End:
    """Where a listing ends, as the search for its last page found it."""

    page: int  # the last page that holds rows
    last: Loaded  # that page, whole
    length: int | None  # None: rows were added or removed during the search


async def find_end(
    client: InboxClient, subscriber_id: str, known: int, filters: Filters, source: InboxSource
) -> End:
    """The listing's length, which neither source gives; `known`, a length it had,
    makes it a few probes when little changed. It looks no further than `max_pages`: a
    service that always says "more" has no end to find."""
    most = client.options.limits.max_pages

    async def holds(number: int) -> bool:
        found = await source.page(client, subscriber_id, filters, number * PAGE_SIZE, 1)
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
    last = await source.page(client, subscriber_id, filters, low, PAGE_SIZE)
    # Rows added or removed meanwhile (more after it, or none left): no end to tell.
    ended = last.rows > 0 and not last.has_more
    return End(low, last, low * PAGE_SIZE + last.rows if ended else None)


def capped(count: Count) -> bool:
    """Whether the service may have stopped counting at this count."""
    return count.capped or count.value >= COUNT_CAP


async def exact(
    client: InboxClient,
    subscriber_id: str,
    count: Count,
    filters: Filters,
    source: InboxSource,
    hint: int,
) -> Count:
    """A count the service capped, made exact by the end search over its listing; the
    capped count when the search fails (`99+` only when the number is unknown)."""
    if count.odd or not capped(count):
        return count  # an odd count is shown as sent, and never paged by
    try:
        end = await find_end(client, subscriber_id, max(hint, int(count.value)), filters, source)
    except NotFoundError:
        raise
    except InboxdeskError:
        return count  # a count that stays capped says as much
    return count if end.length is None else Count(end.length)


async def exact_counts(
    client: InboxClient,
    subscriber_id: str,
    counts: NotificationCounts,
    source: InboxSource,
    hint: NotificationCounts | None = None,
    all_states: bool = False,
) -> NotificationCounts:
    """The capped counts made exact by searching their listings' ends; `hint`, the
    last exact counts."""
    known = hint if hint is not None and not (hint.unread.odd or hint.unseen.odd) else None
    known = known or NotificationCounts(Count(0), Count(0))
    unread, unseen = (UNREAD_ANY, UNSEEN_ANY) if all_states else (UNREAD, UNSEEN)
    found = await asyncio.gather(
        exact(client, subscriber_id, counts.unread, unread, source, int(known.unread.value)),
        exact(client, subscriber_id, counts.unseen, unseen, source, int(known.unseen.value)),
    )
    return NotificationCounts(*found)


async def exact_notification_counts(
    client: InboxClient, subscriber_id: str, all_states: bool = False
) -> NotificationCounts:
    """The command line's counts: the count endpoint, then the end search where it
    stopped, on the service's source (one rule with the app's)."""
    counts = await client.notification_counts(subscriber_id, all_states)
    if not (capped(counts.unread) or capped(counts.unseen)):
        return counts
    try:
        return await on_either(
            client,
            lambda source: exact_counts(
                client, subscriber_id, counts, source, all_states=all_states
            ),
        )
    except InboxdeskError:
        return counts  # no listing to search: the capped counts say as much (99+)


async def exact_count(client: InboxClient, subscriber_id: str, filters: Filters) -> Count | None:
    """How many messages one listing holds, exact past the cap; None where the service
    has no v2 count to ask (the number is then not known beforehand)."""
    try:
        (count,) = await client.count_notifications(subscriber_id, [dict(filters)])
    except NotFoundError:
        return None
    return await exact(client, subscriber_id, count, filters, V2, int(count.value))
