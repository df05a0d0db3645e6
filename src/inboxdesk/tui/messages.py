"""What workers tell the screens: each worker does its I/O and posts one of these.

Handlers on the screens own every state change (Harlequin's worker -> message ->
handler). Worker failures are not messages here: the app reports them all from one
`Worker.StateChanged` handler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.message import Message as TextualMessage

from inboxdesk.client import InboxdeskError, MarkResult
from inboxdesk.models import NotificationCounts, Subscriber
from inboxdesk.tui.inbox_state import Change, FeedEntry, PendingMark


@dataclass
class Listing:
    """Which listing an answer belongs to: answers for an older one are dropped."""

    subscriber_id: str
    generation: int


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
    def __init__(self, subscriber_id: str, counts: NotificationCounts) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.counts = counts


class Marked(TextualMessage):
    def __init__(self, subscriber_id: str, mark: PendingMark, result: MarkResult) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.mark = mark
        self.result = result


class MarkNotSent(TextualMessage):
    """A mark the service did not get: queued while it is unreachable, else failed."""

    def __init__(self, subscriber_id: str, mark: PendingMark, error: InboxdeskError) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.mark = mark
        self.error = error


class Undone(TextualMessage):
    def __init__(self, subscriber_id: str, results: list[MarkResult]) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.results = results


class UnreadListed(TextualMessage):
    """Before a mark-all: the unread ids, when few enough to list (for undo)."""

    def __init__(self, subscriber_id: str, before: Change | None, count: int | None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.before = before
        self.count = count


class AllMarked(TextualMessage):
    def __init__(self, subscriber_id: str, count: int, change: Change | None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.count = count
        self.change = change


class OpenSubscriber(TextualMessage):
    """Open this subscriber's inbox, forgetting everything about the previous one."""

    def __init__(self, subscriber_id: str) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id


class ServiceAnswered(TextualMessage):
    """A screen's request succeeded: the key and the service work."""
