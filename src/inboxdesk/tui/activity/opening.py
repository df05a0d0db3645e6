"""Opening Activity and a delivery from any view, through the app's public screen API
(no view imports the App): `4` shows Activity for the current subscriber."""

from __future__ import annotations

from textual.screen import Screen

from inboxdesk.tui.context import ViewContext

ACTIVITY = "activity"


def show_activity(view: Screen[None], context: ViewContext) -> None:
    """Switch to Activity, built the first time, for the current subscriber."""
    from inboxdesk.tui.activity.screen import ActivityScreen, OpenActivity

    app = view.app
    if not app.is_screen_installed("inbox"):
        return  # not connected yet
    if not app.is_screen_installed(ACTIVITY):
        app.install_screen(ActivityScreen(context), ACTIVITY)
    subscriber_id = context.subscriber.value
    app.switch_screen(ACTIVITY)
    if subscriber_id:
        app.get_screen(ACTIVITY).post_message(OpenActivity(subscriber_id))
