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
    from inboxdesk.tui.subscriber.screen import ShowSubscriber, SubscriberScreen

    subscriber = subscriber_id or context.subscriber.value
    if not subscriber:
        app.notify("Open a subscriber first.", markup=False)
        return
    if not app.is_screen_installed(SCREEN):
        app.install_screen(SubscriberScreen(context, subscriber, field), SCREEN)
        app.switch_screen(SCREEN)
        return
    app.switch_screen(SCREEN)
    app.get_screen(SCREEN).post_message(ShowSubscriber(subscriber, field))
