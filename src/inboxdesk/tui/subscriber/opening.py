"""How any view opens the Subscriber view: on a subscriber, with the cursor on the
field a timeline's cause names (a missing phone, a push token, a webhook URL)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.message import Message as TextualMessage

if TYPE_CHECKING:
    from textual.app import App

    from inboxdesk.tui.context import ViewContext

SCREEN = "subscriber"


class OpenSubscriberView(TextualMessage):
    """Show a subscriber's own data (None: the inbox's subscriber), the cursor on
    `field` when given. Views post it; the App opens the view."""

    def __init__(self, subscriber_id: str | None, field: str | None = None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.field = field


def subscriber_key(owner: str) -> Binding:
    """`i` on `owner`'s view: its subscriber's own data (decision 129)."""
    return Binding(
        "i",
        "show_subscriber",
        "Subscriber",
        show=False,
        id=f"{owner}.subscriber",
        tooltip="The subscriber's own data: fields, credentials, what a channel lacks",
    )


def open_subscriber_view(
    app: App[Any], context: ViewContext, subscriber_id: str | None, field: str | None = None
) -> None:
    from inboxdesk.tui.preferences.opening import current_subscriber
    from inboxdesk.tui.subscriber.screen import ShowSubscriber, SubscriberScreen

    subscriber = subscriber_id or current_subscriber(app)
    if not subscriber:
        app.notify("Open a subscriber first.", markup=False)
        return
    if not app.is_screen_installed(SCREEN):
        app.install_screen(SubscriberScreen(context, subscriber, field), SCREEN)
        app.switch_screen(SCREEN)
        return
    app.switch_screen(SCREEN)
    app.get_screen(SCREEN).post_message(ShowSubscriber(subscriber, field))


def field_behind(notification: Any) -> str | None:
    """The subscriber's field a notification's failure names: `email`, `phone`,
    `deviceTokens:<provider>` or `webhookUrl:<provider>`; None when none does."""
    from inboxdesk.models.subscriber_edit import field_of_cause

    for job in notification.jobs:
        for detail in job.execution_details:
            field = field_of_cause(str(detail.detail or ""))
            if field is None:
                continue
            if field in ("deviceTokens", "webhookUrl") and job.provider_id:
                return f"{field}:{job.provider_id}"
            return field
    return None
