"""Where a subscriber's inbox is read from: the v2 inbox, or an older service's v1 feed.

One adapter for the two deployments. Each source says what it can do (`Abilities`) and
lists and counts its own way; the app, the command line and a mark-all's "before" ask
the source instead of branching on the deployment. Which one a service has is learned
from the v2 list's first answer (decision 110: a 404 there, then the subscriber's own
route; client/inbox.py), and kept by the client (`source_of`).

It lives in the client, not in core, because writes/before.py (below core) lists
through it too.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeAlias, TypeVar

from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.client.limits import Walk
from inboxdesk.models.base import is_whole
from inboxdesk.models.pages import NotificationCounts

if TYPE_CHECKING:
    from inboxdesk.client.api import InboxClient
    from inboxdesk.models import Message
    from inboxdesk.models.feed import FeedItem
    from inboxdesk.models.inbox import InboxNotification

# The v2 inbox gives InboxNotifications, an older service's v1 feed FeedItems.
Entry: TypeAlias = "Message | FeedItem | InboxNotification"
T = TypeVar("T")

# What the subscriber's own Inbox shows: neither archived nor snoozed.
VISIBLE = {"archived": False, "snoozed": False}
PAGE = 100  # the most either listing gives in one page


@dataclass(frozen=True)
class Abilities:
    """What a source can do beyond listing and marking."""

    archive: bool  # archive and unarchive, one by one or all at once
    snooze: bool  # snooze and unsnooze
    # The states a listing can select by; a filter on another is met only by False
    # (a service that cannot archive has nothing archived).
    states: frozenset[str]
    total: bool  # a page tells how many rows its listing holds (the v1 feed's totalCount)
    note: str  # what the inbox's header says of the service ("" for nothing)

    def can_list(self, query: Mapping[str, bool]) -> bool:
        """Whether this source can read the listing of these filters."""
        return all(name in self.states or not wanted for name, wanted in query.items())


@dataclass(frozen=True)
class Loaded:
    """One page of a listing, whichever source gave it."""

    items: Sequence[Entry]
    has_more: bool
    total: int | None = None  # the listing's total where the source tells it
    # Rows the page takes in the listing, readable or not (None: `items`): an item the
    # client left out still moves the rows after it.
    sent: int | None = None
    # What the client left out of the page, said (client/bounded.py).
    said: tuple[str, ...] = ()

    @property
    def rows(self) -> int:
        return len(self.items) if self.sent is None else self.sent


class InboxSource(ABC):
    """A deployment's inbox: its abilities, its pages and its counts. Stateless: the
    client is handed to each call, so that a source is a value a screen can hold."""

    abilities: ClassVar[Abilities]

    @abstractmethod
    async def rows(
        self,
        client: InboxClient,
        subscriber_id: str,
        query: Mapping[str, bool],
        offset: int,
        limit: int,
    ) -> Loaded:
        """Up to `limit` rows of the listing `query` selects (the v2 list's filters),
        from `offset` on."""

    async def page(
        self,
        client: InboxClient,
        subscriber_id: str,
        query: Mapping[str, bool],
        number: int,
        limit: int,
    ) -> Loaded:
        """Rows `number * limit` on."""
        return await self.rows(client, subscriber_id, query, number * limit, limit)

    @abstractmethod
    async def counts(self, client: InboxClient, subscriber_id: str) -> NotificationCounts:
        """Unread and unseen as the Inbox counts them (capped at 100, as production caps
        them)."""

    @abstractmethod
    def pages(
        self, client: InboxClient, subscriber_id: str, query: Mapping[str, bool]
    ) -> AsyncIterator[Sequence[Entry]]:
        """Every item of the listing, a page of 100 as each arrives, to the end (at most
        `max_pages`, and never past a loop)."""


class V2Source(InboxSource):
    """The v2 inbox: every state, archive and snooze, counts by filter, no totals."""

    abilities = Abilities(
        archive=True,
        snooze=True,
        states=frozenset({"read", "seen", "archived", "snoozed"}),
        total=False,
        note="",
    )

    async def rows(
        self,
        client: InboxClient,
        subscriber_id: str,
        query: Mapping[str, bool],
        offset: int,
        limit: int,
    ) -> Loaded:
        found = await client.notifications(subscriber_id, limit=limit, offset=offset, **query)
        return Loaded(found.data, found.has_more, sent=found.sent, said=found.said)

    async def counts(self, client: InboxClient, subscriber_id: str) -> NotificationCounts:
        unread, unseen = await client.count_notifications(
            subscriber_id, [{**VISIBLE, "read": False}, {**VISIBLE, "seen": False}]
        )
        return NotificationCounts(unread, unseen)

    async def pages(
        self, client: InboxClient, subscriber_id: str, query: Mapping[str, bool]
    ) -> AsyncIterator[Sequence[Entry]]:
        # By cursor: rows added meanwhile move no page.
        async for found in client.notification_pages(subscriber_id, **query):
            yield found

    def __repr__(self) -> str:
        return "V2"


class V1Source(InboxSource):
    """An older service's v1 feed: read and seen only, by page, with a total."""

    abilities = Abilities(
        archive=False,
        snooze=False,
        states=frozenset({"read", "seen"}),
        total=True,
        note="older service",
    )

    async def rows(
        self,
        client: InboxClient,
        subscriber_id: str,
        query: Mapping[str, bool],
        offset: int,
        limit: int,
    ) -> Loaded:
        # By page: an offset is on a page's boundary (with limit 1, every offset is).
        wanted = {name: query[name] for name in ("read", "seen") if name in query}
        feed = await client.feed(subscriber_id, offset // limit, limit, **wanted)
        # A total that is not a whole number is not one to page by.
        total = int(feed.total_count) if is_whole(feed.total_count) else None
        return Loaded(feed.data, feed.has_more, total, feed.sent, feed.said)

    async def counts(self, client: InboxClient, subscriber_id: str) -> NotificationCounts:
        return await client.notification_counts(subscriber_id)

    async def pages(
        self, client: InboxClient, subscriber_id: str, query: Mapping[str, bool]
    ) -> AsyncIterator[Sequence[Entry]]:
        walk = Walk(client.options.limits.max_pages, "the feed")
        for number in itertools.count():
            found = await self.page(client, subscriber_id, query, number, PAGE)
            yield found.items
            if not found.has_more or not found.items:
                return
            walk.onward(item.id for item in found.items)

    def __repr__(self) -> str:
        return "V1"


V2 = V2Source()
V1 = V1Source()


def source_of(client: InboxClient) -> InboxSource:
    """The source this client's service has, as far as it knows: the v2 inbox until its
    list said it is not there."""
    return V1 if client.v2_inbox is False else V2


async def on_either(client: InboxClient, call: Callable[[InboxSource], Awaitable[T]]) -> T:
    """`call` on the service's source: tried on the v2 inbox while not known otherwise,
    and again on the v1 feed when the service turns out to have none."""
    source = source_of(client)
    try:
        return await call(source)
    except NoV2Inbox:
        if source is V1:
            raise
        return await call(V1)
