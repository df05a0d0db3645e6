"""The message list: one row per message, keyed by message id, updated in place."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from textual.binding import Binding
from textual.widgets import DataTable

from inboxdesk.models import Message
from inboxdesk.tui.format import clip, heading_text, relative, state_marker, status_text

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

    def cells(self, message: Message, selected: bool) -> tuple[object, ...]:
        workflow = message.template.name if message.template else ""
        return (
            state_marker(message, selected),
            relative(message.created_at, self.now),
            heading_text(message, 28),
            clip(message.preview, 24),
            status_text(message),
            clip(workflow, 14),
        )

    def add_messages(self, messages: Iterable[Message], selected: set[str]) -> None:
        for message in messages:
            if message.id is not None:
                self.add_row(*self.cells(message, message.id in selected), key=message.id)

    def refresh_message(self, message: Message, selected: bool) -> None:
        """Rewrite the cells that a mark-as or selection change can alter."""
        if message.id is None or message.id not in self.rows:
            return
        self.update_cell(message.id, "state", state_marker(message, selected))
        self.update_cell(message.id, "title", heading_text(message, 28))

    @property
    def cursor_message_id(self) -> str | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None
