"""Finding notifications in the activity feed: by id or transactionId, and scanning
its pages for what did not arrive.

Production has no "failed" filter: `scan` pages the feed 50 at a time and keeps the
notifications `keep` accepts (by default, those whose cause says they did not arrive),
stopping at `limit` matches, at the end of the feed, or at `max_pages`, and on a server
that sends a page again. The app's Activity and timeline and `inboxdesk delivery` use
them alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inboxdesk.client import InboxClient, NotFoundError, ProtocolError
from inboxdesk.client.activity import MAX_PAGE, ActivityFilter
from inboxdesk.client.limits import too_many_pages
from inboxdesk.delivery import has_failed, of_channels
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.ids import is_object_id
from inboxdesk.text import plural


@dataclass(frozen=True)
class Scan:
    """What a scan for failed notifications found, and how far it looked."""

    found: list[ActivityNotification]
    pages: int
    # The next page to look at, or None when the feed ended.
    next_page: int | None
    said: tuple[str, ...] = ()
    # How many notifications were read: the last page may hold fewer than 50.
    read: int = 0


async def by_transaction(
    client: InboxClient, transaction_id: str, subscriber_id: str | None = None
) -> list[ActivityNotification]:
    """Every notification a transactionId names (one per subscriber it went to), at
    most `max_pages` pages: only those that carry it (and the subscriber's), whatever
    else a service that ignores the filter sends."""
    wanted = ActivityFilter(
        subscriber_ids=[subscriber_id] if subscriber_id else (), transaction_ids=[transaction_id]
    )

    def asked(n: ActivityNotification) -> bool:
        owner = n.subscriber.subscriber_id if n.subscriber else None
        return n.transaction_id == transaction_id and subscriber_id in (None, owner)

    return (await scan(client, wanted, asked, limit=None)).found


async def find(
    client: InboxClient, key: str, subscriber_id: str | None = None
) -> list[ActivityNotification]:
    """The notifications `key` names: read as a notification id first when it is an
    ObjectId (a 404 then means "try it as a transactionId"), else as a transactionId."""
    if is_object_id(key.lower()):
        try:
            found = await client.activity_notification(key)
        except NotFoundError:
            pass
        else:
            owner = found.subscriber.subscriber_id if found.subscriber else None
            if subscriber_id is None or owner == subscriber_id:
                return [found]
    return await by_transaction(client, key, subscriber_id)


async def scan(
    client: InboxClient,
    wanted: ActivityFilter,
    keep: Callable[[ActivityNotification], bool] | None = None,
    limit: int | None = 20,
    start: int = 0,
    progress: Callable[[int, int], Any] | None = None,
) -> Scan:
    """Pages of 50 from `start`, keeping what `keep` accepts (by default: did not
    arrive on the channels `wanted` names, or on any), until the page on which `limit`
    were kept (all of that page's are kept), the feed's end, or `max_pages` pages;
    `progress` hears (notifications read, kept so far) after each page."""
    if keep is None:  # what did not arrive, on the channels asked for

        def keep(item: ActivityNotification) -> bool:
            return has_failed(of_channels(item, wanted.channels))

    most = client.options.limits.max_pages
    found: list[ActivityNotification] = []
    seen: set[str] = set()  # every id read, on any page: a page of only these is a cycle
    said: dict[str, None] = {}
    again = 0
    page = start
    read = 0
    for pages in range(1, most + 1):
        result = await client.activity(wanted, page, MAX_PAGE)
        said.update(dict.fromkeys(result.said))
        ids = [n.id for n in result.data]
        if ids and seen.issuperset(ids):
            raise ProtocolError(
                f"The service sent page {page} of the activity feed again, the same "
                f"notifications as an earlier page: stopped after {pages} pages.",
                "Its paging is broken; narrow the search (--since, --channel) and try again.",
            )
        # A busy feed moves while it is read: what a page shows again is kept once.
        fresh = [n for n in result.data if n.id not in seen]
        again += len(result.data) - len(fresh)
        seen.update(ids)
        read += len(fresh)
        found += [item for item in fresh if keep(item)]
        if progress is not None:
            progress(read, len(found))
        if not result.has_more or not result.data:
            return Scan(found, pages, None, _said(said, again), read)
        page += 1
        # The page is finished even past `limit`, so that `next_page` skips nothing.
        if limit is not None and len(found) >= limit:
            return Scan(found, pages, page, _said(said, again), read)
    if limit is None:
        raise too_many_pages(most, "the activity feed")
    return Scan(found, most, page, _said(said, again), read)


def _said(said: dict[str, None], again: int) -> tuple[str, ...]:
    if again:
        said[
            f"{plural(again, 'notification')} came again on a later page (the feed moved "
            "while it was read): each counted once."
        ] = None
    return tuple(said)
