"""A DataTable whose rows are keyed by resource id, with vim-style movement."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType
from textual.widgets import DataTable

from inboxdesk.tui.list_keys import LIST_BINDINGS


class KeyedTable(DataTable[object]):
    """Rows keyed by id; `cursor_key` is the id of the highlighted row."""

    BINDINGS: ClassVar[list[BindingType]] = [*LIST_BINDINGS]

    @property
    def cursor_key(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None
