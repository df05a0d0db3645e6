"""The activity feed and one notification's delivery (jobs and execution details).

Production has no "failed" filter: `scan_failed` pages the feed 50 at a time and keeps
the notifications whose cause says they did not arrive, stopping at `limit` matches,
at the end of the feed, or at `max_pages`, and on a server that sends a page again.

Every page is bounded before it is used: at most the notifications asked for, each
once, and one that cannot be read costs itself, not the page; each is said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inboxdesk.client.bounded import bounded
from inboxdesk.client.errors import NotFoundError, ProtocolError
from inboxdesk.client.limits import too_many_pages
from inboxdesk.client.parse import json_of, parse, unwrap
from inboxdesk.client.sender import segment
from inboxdesk.delivery import has_failed
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.ids import is_object_id
from inboxdesk.models.pages import Page
from inboxdesk.text import plural

if TYPE_CHECKING:
    from inboxdesk.client.api import InboxClient
    from inboxdesk.client.sender import Sender

# The most production gives in one page of the feed.
MAX_PAGE = 50


@dataclass(frozen=True)
class ActivityFilter:
    """What the feed is asked for; each list is "any of these" (empty: all)."""

    subscriber_ids: Sequence[str] = ()
    transaction_ids: Sequence[str] = ()
    channels: Sequence[str] = ()
    workflows: Sequence[str] = ()
    after: str | None = None
    before: str | None = None

    def params(self) -> list[tuple[str, str]]:
        """The query, each value its own parameter (production splits no commas)."""
        out = [("subscriberIds", v) for v in self.subscriber_ids]
        out += [("transactionId", v) for v in self.transaction_ids]
        out += [("channels", v) for v in self.channels]
        out += [("templates", v) for v in self.workflows]
        if self.after:
            out.append(("after", self.after))
        if self.before:
            out.append(("before", self.before))
        return out


@dataclass(frozen=True)
class ActivityPage:
    """One page of the feed as read: at most `limit` notifications, each once; `said`
    names what the service sent that was left out (one line each, safe to show)."""

    data: list[ActivityNotification]
    has_more: bool
    said: tuple[str, ...] = ()


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


async def activity(
    sender: Sender, wanted: ActivityFilter, page: int = 0, limit: int = 10
) -> ActivityPage:
    """`GET /v1/notifications`: one page, newest first; `has_more` means only that the
    page is full (there is no total)."""
    params: list[tuple[str, str | int]] = [("page", page), ("limit", limit)]
    params += wanted.params()
    response = await sender.send("GET", "/v1/notifications", params=params)
    body = json_of(response)
    if isinstance(body, list):
        items, has_more = body, False
    else:
        # The envelope is read as a whole; its items one by one, below.
        envelope = parse(Page[Any], body)
        items, has_more = envelope.data, envelope.has_more
    return read_page(items, has_more, limit)


def read_page(items: list[Any], has_more: bool, limit: int) -> ActivityPage:
    """The notifications of one page: the first `limit`, each id once, an unreadable
    item left out; what was left out is said (client/bounded.py, as for the inbox)."""
    read = bounded(ActivityNotification, items, limit, "notification")
    return ActivityPage(read.items, has_more, read.said)


async def notification(sender: Sender, notification_id: str) -> ActivityNotification:
    """`GET /v1/notifications/{id}`: the notification with every job and its details."""
    response = await sender.send("GET", f"/v1/notifications/{segment(notification_id)}")
    return parse(ActivityNotification, unwrap(json_of(response)))


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
    keep: Callable[[ActivityNotification], bool] = has_failed,
    limit: int | None = 20,
    start: int = 0,
    progress: Callable[[int, int], Any] | None = None,
) -> Scan:
    """Pages of 50 from `start`, keeping what `keep` accepts (by default: did not
    arrive), until the page on which `limit` were kept (all of that page's are kept),
    the feed's end, or `max_pages` pages; `progress` hears
    (notifications read, kept so far) after each page."""
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
