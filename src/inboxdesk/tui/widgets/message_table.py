"""The message list: one row per message, keyed by message id, updated in place."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from textual.binding import Binding
from textual.widgets import DataTable

from inboxdesk.tui.format import clip, heading_text, relative, state_marker, status_text
from inboxdesk.tui.inbox_state import Row

COLUMNS = (
    ("state", "   ", 3),
    ("when", "When", 9),
    ("title", "Title", 34),
    ("preview", "Preview", 40),
    ("status", "Status", 7),
    ("workflow", "Workflow", 20),
)


class MessageTable(DataTable[object]):
    """Messages with vim-style movement; the app reads `cursor_message_id`."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="list.down", tooltip="Next message"),
        Binding("k", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous message"),
        Binding("g", "scroll_top", "Top", show=False, id="list.top", tooltip="First message"),
        Binding(
            "G",
            "scroll_bottom",
            "Bottom",
            show=False,
            id="list.bottom",
            tooltip="Last loaded message",
        ),
    ]

    def __init__(self, now: datetime, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.now = now

    def on_mount(self) -> None:
        for key, label, width in COLUMNS:
            self.add_column(label, key=key, width=width)

    def cells(self, row: Row, selected: bool) -> tuple[object, ...]:
        return (
            state_marker(selected, row.read, row.seen),
            relative(row.created_at, self.now),
            heading_text(row.heading, row.read, 28),
            clip(row.preview, 24),
            status_text(row.status),
            clip(row.workflow, 14),
        )

    def add_messages(self, rows: Iterable[Row], selected: set[str]) -> None:
        for row in rows:
            self.add_row(*self.cells(row, row.id in selected), key=row.id)

    def refresh_message(self, row: Row, selected: bool) -> None:
        """Rewrite the cells that a mark-as or selection change can alter."""
        if row.id not in self.rows:
            return
        self.update_cell(row.id, "state", state_marker(selected, row.read, row.seen))
        self.update_cell(row.id, "title", heading_text(row.heading, row.read, 28))

    @property
    def cursor_message_id(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None
