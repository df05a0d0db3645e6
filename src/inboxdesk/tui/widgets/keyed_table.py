"""A DataTable whose rows are keyed by resource id, with vim-style movement."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import DataTable


class KeyedTable(DataTable[object]):
    """Rows keyed by id; `cursor_key` is the id of the highlighted row."""

    # One set of ids for every list, so one keymap entry moves them all.
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="list.down", tooltip="Next row"),
        Binding("k", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous row"),
        Binding("g", "scroll_top", "Top", show=False, id="list.top", tooltip="First row"),
        Binding(
            "G", "scroll_bottom", "Bottom", show=False, id="list.bottom", tooltip="Last loaded row"
        ),
    ]

    @property
    def cursor_key(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None
