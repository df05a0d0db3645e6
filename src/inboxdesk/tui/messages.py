"""What the views and the App tell each other, as messages (neither imports the other).

Worker failures are not messages here: the app reports them all from one
`Worker.StateChanged` handler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message as TextualMessage

from inboxdesk.models import Subscriber

if TYPE_CHECKING:
    from inboxdesk.core.inbox.loading import FirstPage


class OpenSubscriber(TextualMessage):
    """Open this subscriber's inbox, forgetting everything about the previous one."""

    def __init__(self, subscriber_id: str, tab: str | None = None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.tab = tab  # a tab's value (a saved inbox view); None keeps the inbox's rule


class ServiceAnswered(TextualMessage):
    """A screen's request succeeded: the key and the service work."""


class Reload(TextualMessage):
    """Load again what the view shows (the service may have changed)."""


class SelectIntegration(TextualMessage):
    """Move the integrations view's cursor to this integration (from the palette)."""

    def __init__(self, integration_id: str) -> None:
        super().__init__()
        self.integration_id = integration_id


class FirstRowsShown(TextualMessage):
    """The first rows and the detail pane are on screen: start-up is over."""


class SubscribersListed(TextualMessage):
    """The environment's first subscribers (None: not asked), which inbox to open, and
    the first page of that inbox if it was asked for already (InboxScreen)."""

    def __init__(
        self,
        subscribers: list[Subscriber] | None,
        open: str | None,
        first_page: FirstPage | None = None,
    ) -> None:
        super().__init__()
        self.subscribers = subscribers
        self.open = open
        self.first_page = first_page


class OpenPreferences(TextualMessage):
    """Show a subscriber's Preferences, the cursor on a workflow's channel when given
    (None: the global row), of a notification's context when given (decision 93).
    Every view's `5` posts it, and the App opens the view."""

    def __init__(
        self,
        subscriber_id: str | None,
        workflow: str | None,
        channel: str | None,
        context: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.workflow = workflow
        self.channel = channel
        self.context = context
