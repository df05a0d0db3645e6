"""What other views tell the Preferences view."""

from __future__ import annotations

from textual.message import Message as TextualMessage


class ShowPreferences(TextualMessage):
    """Show this subscriber's preferences, the cursor on a workflow's channel if given
    (workflow: its identifier or slug, "" for the global row), of a context if given."""

    def __init__(
        self,
        subscriber_id: str | None,
        workflow: str | None = None,
        channel: str | None = None,
        context: tuple[str, ...] = (),
    ) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.workflow = workflow
        self.channel = channel
        # The context whose records to show (a notification's contextKeys); (): none.
        self.context = context
