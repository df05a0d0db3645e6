"""What the other views need of the Subscriber view: `i`'s binding, the message that
opens it, and the field a notification's failure names. Nothing here imports a screen,
so every view may import it."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.message import Message as TextualMessage


class OpenSubscriberView(TextualMessage):
    """Show a subscriber's own data (None: the inbox's subscriber), the cursor on
    `field` when given. Views post it; the App opens the view."""

    def __init__(self, subscriber_id: str | None, field: str | None = None) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.field = field


def subscriber_key(owner: str) -> Binding:
    """`i` on `owner`'s view: its subscriber's own data."""
    return Binding(
        "i",
        "show_subscriber",
        "Subscriber",
        show=False,
        id=f"{owner}.subscriber",
        tooltip="The subscriber's own data: fields, credentials, what a channel lacks",
    )


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
