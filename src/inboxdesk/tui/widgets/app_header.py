"""The app's title bar: Textual's header with an icon every font draws.

Textual's default icon (U+2B58) is missing from the browser page's fonts and from many
terminals', where it shows as an empty box. `≡` is in Courier, Liberation, DejaVu and
the other common monospace fonts, and says what a click on it does: open the menu
(the command palette).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Header

from inboxdesk.private_apis import header_parts_title_in_place
from inboxdesk.text import safe

ICON = "≡"
# How the app marks a production-type environment's name, last in its title.
PRODUCTION_MARK = "⚠ "


class AppHeader(Header):
    def __init__(self) -> None:
        super().__init__(icon=ICON)

    def compose(self) -> ComposeResult:
        # A new title or sub-title (a subscriber's name loaded, another view, the
        # environment known) is redrawn in place, not laid out with the whole screen.
        yield from header_parts_title_in_place(super().compose())

    def format_title(self) -> Content:
        """The title, a production-type environment's name in the warning colour."""
        content = super().format_title()
        title = safe(self.screen_title, newlines=False)  # as the app draws it
        at = title.rfind(f" · {PRODUCTION_MARK}")
        if at < 0:
            return content
        return content.stylize("bold $warning", at + 3, len(title))
