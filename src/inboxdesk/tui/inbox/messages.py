"""What the inbox's workers tell its screen: each worker does its I/O and posts one of
these, and the screen's handlers own every state change (Harlequin's worker -> message
-> handler)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message as TextualMessage

from inboxdesk.client import InboxdeskError
from inboxdesk.core.inbox.feed import FeedEntry
from inboxdesk.core.inbox.listing import Listing
from inboxdesk.models import NotificationCounts, Subscriber
from inboxdesk.writes.before import Unread


class PageLoaded(TextualMessage):
    def __init__(
        self,
        listing: Listing,
        page: int,
        items: Sequence[FeedEntry],
        has_more: bool,
        total: int | None,
    ) -> None:
        super().__init__()
        self.listing = listing
        self.page = page
        self.items = items
        self.has_more = has_more
        self.total = total


class EndFound(TextualMessage):
    """How many messages the feed holds, found by probing when it gives no total;
    None when the feed changed during the search or a request failed (`error`)."""

    def __init__(
        self, listing: Listing, length: int | None, error: InboxdeskError | None = None
    ) -> None:
        super().__init__()
        self.listing = listing
        self.length = length
        self.error = error


class SubscriberLoaded(TextualMessage):
    def __init__(self, subscriber_id: str, subscriber: Subscriber | None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.subscriber = subscriber


class CountsLoaded(TextualMessage):
    def __init__(self, subscriber_id: str, counts: NotificationCounts, asked: int = 0) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.counts = counts
        # Which ask this answers: one asked before a write's answer came is stale.
        self.asked = asked


class CountsFailed(TextualMessage):
    """The ask for the counts failed (`asked` as in CountsLoaded): those shown are old."""

    def __init__(self, subscriber_id: str, error: InboxdeskError, asked: int) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.error = error
        self.asked = asked


class UnreadListed(TextualMessage):
    """Before a mark-all: the unread ids, when few enough to list (for undo), and how
    many, archived and snoozed ones included."""

    def __init__(self, subscriber_id: str, unread: Unread) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.unread = unread


class OlderService(TextualMessage):
    """The v2 list answered 404: the service is older, and the v1 feed is read."""

    def __init__(self, listing: Listing) -> None:
        super().__init__()
        self.listing = listing
