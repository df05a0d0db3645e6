"""The movement keys every list shares, with one set of binding ids.

One keymap entry (`list.down = "n"`) moves the message list and the integration table
alike. Kept apart from the widgets so the message list does not import DataTable.
"""

from __future__ import annotations

from textual.binding import Binding

LIST_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="list.down", tooltip="Next row"),
    Binding("k", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous row"),
    Binding("g", "scroll_top", "Top", show=False, id="list.top", tooltip="First row"),
    Binding(
        "G", "scroll_bottom", "Bottom", show=False, id="list.bottom", tooltip="Last row of the list"
    ),
]
