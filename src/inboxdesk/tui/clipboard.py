"""Every copy the app makes: the clipboard gets the cleaned form, the notice says so.

Textual copies through the terminal (OSC 52), which says nothing back: the notice says
where the text was sent, not that it arrived.
"""

from __future__ import annotations

from textual.app import App

from inboxdesk.text import clip, for_clipboard


def copy(app: App[object], value: str, what: str) -> str:
    """Put `value`'s clipboard form on the terminal's clipboard and say so; returns it."""
    text, cleaned = for_clipboard(value)
    app.copy_to_clipboard(text)
    note = " (cleaned: control characters and line breaks removed)" if cleaned else ""
    app.notify(
        f"Sent {what} to the terminal's clipboard{note}: {clip(text, 60)}",
        timeout=8 if cleaned else 4,
        markup=False,
    )
    return text
