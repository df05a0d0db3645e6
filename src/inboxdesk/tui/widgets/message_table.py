"""The message list: one row per message, keyed by message id, updated in place."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from inboxdesk.text import clip
from inboxdesk.tui.format import heading_text, relative, state_marker, status_text
from inboxdesk.tui.inbox_state import Row
from inboxdesk.tui.widgets.keyed_table import KeyedTable

# Column key, label and width; the cells are clipped to the same widths.
COLUMNS = (
    ("state", "   ", 3),
    ("when", "When", 8),
    ("title", "Title", 28),
    ("preview", "Preview", 24),
    ("status", "Status", 7),
    ("workflow", "Workflow", 14),
)
WIDTH = {key: width for key, _, width in COLUMNS}


class MessageTable(KeyedTable):
    """Messages with vim-style movement; the app reads `cursor_key`."""

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
            heading_text(row.heading, row.read, WIDTH["title"]),
            clip(row.preview, WIDTH["preview"]),
            status_text(row.status),
            clip(row.workflow, WIDTH["workflow"]),
        )

    def add_messages(self, rows: Iterable[Row], selected: set[str]) -> None:
        for row in rows:
            self.add_row(*self.cells(row, row.id in selected), key=row.id)

    def refresh_message(self, row: Row, selected: bool) -> None:
        """Rewrite the cells that a mark-as or selection change can alter."""
        if row.id not in self.rows:
            return
        self.update_cell(row.id, "state", state_marker(selected, row.read, row.seen))
        self.update_cell(row.id, "title", heading_text(row.heading, row.read, WIDTH["title"]))
