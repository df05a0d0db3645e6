"""How the App opens the Subscriber view: on a subscriber, with the cursor on the
field a timeline's cause names (a missing phone, a push token, a webhook URL)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from inboxdesk.tui.context import ViewContext

SCREEN = "subscriber"


def open_subscriber_view(
    app: App[Any], context: ViewContext, subscriber_id: str | None, field: str | None = None
) -> None:
    from inboxdesk.tui.subscriber.screen import ShowSubscriber

    subscriber = subscriber_id or context.subscriber.value
    if not subscriber:
        app.notify("Open a subscriber first.", markup=False)
        return
    context.open(SCREEN, ShowSubscriber(subscriber, field))  # its mode, built on first use
