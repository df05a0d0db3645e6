"""The settings' theme and keymap, applied to the app, with what is wrong with them."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import App

from inboxdesk.tui.keymap import checked_keymap


def apply_appearance(app: App[None], theme: str | None, keymap: Mapping[str, str]) -> list[str]:
    """Set the theme and the keymap that can be used; the problems, to be said."""
    problems: list[str] = []
    if theme and theme not in app.available_themes:
        known = ", ".join(sorted(app.available_themes))
        problems.append(f"Unknown theme {theme!r}; known: {known}.")
    elif theme:
        app.theme = theme
    if keymap:
        usable, wrong = checked_keymap(keymap)
        problems += wrong
        app.set_keymap(usable)
    return problems
