"""Opening Activity from any view: `4` shows Activity for the current subscriber."""

from __future__ import annotations

from inboxdesk.tui.context import ViewContext

ACTIVITY = "activity"


def show_activity(context: ViewContext) -> None:
    """Switch to Activity (its mode, built the first time) for the current subscriber."""
    from inboxdesk.tui.activity.screen import OpenActivity

    subscriber_id = context.subscriber.value
    context.open(ACTIVITY, OpenActivity(subscriber_id) if subscriber_id else None)
