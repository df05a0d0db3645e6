"""The app's title bar: Textual's header with an icon every font draws.

Textual's default icon (U+2B58) is missing from the browser page's fonts and from many
terminals', where it shows as an empty box. `≡` is in Courier, Liberation, DejaVu and
the other common monospace fonts, and says what a click on it does: open the menu
(the command palette).
"""

from __future__ import annotations

from textual.widgets import Header

ICON = "≡"


class AppHeader(Header):
    def __init__(self) -> None:
        super().__init__(icon=ICON)
