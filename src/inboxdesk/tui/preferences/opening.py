"""How any view opens Preferences: on the current subscriber, or on a given subscriber,
workflow and channel (a delivery step canceled by a preference opens the one behind it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding

if TYPE_CHECKING:
    from textual.app import App

    from inboxdesk.tui.context import ViewContext

SCREEN = "preferences"


def open_preferences(
    app: App[Any],
    context: ViewContext,
    subscriber_id: str | None = None,
    workflow: str | None = None,
    channel: str | None = None,
    context_keys: tuple[str, ...] = (),
) -> None:
    """Switch to Preferences (its mode, built on first use), for `subscriber_id` or the current
    subscriber, with the cursor on `workflow` and `channel` when given, showing the
    records of the context `context_keys` (none: the no-context ones)."""
    # Loaded on first use: the first frame needs the `5` key only.
    from inboxdesk.tui.preferences.messages import ShowPreferences

    subscriber = subscriber_id or context.subscriber.value
    if not subscriber:
        app.notify("Open a subscriber first: preferences are a subscriber's.", markup=False)
        return
    context.open(SCREEN, ShowPreferences(subscriber, workflow, channel, context_keys))


# `5` on each view (the App opens Preferences, as it does for Activity's and the
# timeline's `5`: ServiceScreen.action_show_preferences posts OpenPreferences).
SHOW_PREFERENCES = Binding(
    "5",
    "show_preferences",
    "Preferences",
    show=False,
    id="view.preferences",
    tooltip="The current subscriber's channel preferences",
)
