"""What workers tell the screens: each worker does its I/O and posts one of these.

Handlers on the screens own every state change (Harlequin's worker -> message ->
handler). Worker failures are not messages here: the app reports them all from one
`Worker.StateChanged` handler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.message import Message as TextualMessage

from inboxdesk.client import InboxdeskError
from inboxdesk.models import NotificationCounts, Subscriber
from inboxdesk.scope import Scope
from inboxdesk.tui.inbox_state import FeedEntry
from inboxdesk.writes import Flags


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


class UnreadListed(TextualMessage):
    """Before a mark-all: the unread ids, when few enough to list (for undo)."""

    def __init__(
        self, subscriber_id: str, before: dict[str, Flags] | None, count: int | None
    ) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.before = before
        self.count = count


class OpenSubscriber(TextualMessage):
    """Open this subscriber's inbox, forgetting everything about the previous one."""

    def __init__(self, subscriber_id: str) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id


class ServiceAnswered(TextualMessage):
    """A screen's request succeeded: the key and the service work."""


class Reload(TextualMessage):
    """Load again what the view shows (the service may have changed)."""


class SelectIntegration(TextualMessage):
    """Move the integrations view's cursor to this integration (from the palette)."""

    def __init__(self, integration_id: str) -> None:
        super().__init__()
        self.integration_id = integration_id


class ScopeLoaded(TextualMessage):
    """A view learned the environments: the App keeps them (the header names the key's)."""

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope


class FirstRowsShown(TextualMessage):
    """The first rows and the detail pane are on screen: start-up is over."""
