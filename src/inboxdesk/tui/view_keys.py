"""The keys that switch views, `1` to `4`, written once for every view.

Each view lists the other views' keys under binding ids of its own (`history.inbox`,
`activity.integrations`), so that a keymap can move a key on one view alone. `6` opens
the Subscriber view. `5` opens Preferences; what it opens on differs by view, so each
view binds it itself.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.binding import Binding

# (key, view, action, description, tooltip)
VIEWS = (
    ("1", "inbox", "app.show_inbox", "Inbox", "The subscriber's inbox"),
    (
        "2",
        "integrations",
        "app.show_integrations",
        "Integrations",
        "The integrations of every environment with a key",
    ),
    ("3", "history", "app.show_history", "History", "Every write inboxdesk made, and undo of any"),
    (
        "4",
        "activity",
        "show_activity",
        "Activity",
        "This subscriber's notifications on every channel, and why they arrived or not",
    ),
)

SUBSCRIBER_VIEW = (
    "6",
    "subscriber_view",
    "show_subscriber",
    "Subscriber",
    "The subscriber's own data: fields, credentials, what a channel lacks",
)


def view_keys(owner: str, action: Callable[[str], str] = str) -> list[Binding]:
    """The keys of every view but `owner` itself, as `owner`'s bindings; `action` wraps
    each view's action (a screen over a view runs it on the view below). `6`, the
    Subscriber view, is bound but not in the footer."""
    keys = [
        Binding(key, action(name), description, id=f"{owner}.{view}", tooltip=tooltip)
        for key, view, name, description, tooltip in VIEWS
        if view != owner
    ]
    if owner != "subscriber":
        key, view, name, description, tooltip = SUBSCRIBER_VIEW
        keys.append(
            Binding(
                key, action(name), description, show=False, id=f"{owner}.{view}", tooltip=tooltip
            )
        )
    return keys
