"""The preferences as a grid: a row per workflow (global first), a column per channel,
each cell its value with a mark when it is the subscriber's own choice."""

from __future__ import annotations

from rich.text import Text

from inboxdesk.core.preferences import PreferenceTable, Row
from inboxdesk.text import clip
from inboxdesk.tui.widgets.keyed_table import KeyedTable

NAME_WIDTH = 26
GLOBAL_KEY = "(global)"  # the row key of the global row: no workflow identifier is empty


def row_key(row: Row) -> str:
    return row.workflow or GLOBAL_KEY


def cell_text(row: Row, channel: str) -> Text:
    cell = row.cells.get(channel)
    if cell is None:
        return Text("·", style="dim")
    text = cell.mark
    if cell.on is None:
        return Text(text, style="yellow")  # not set: the row's note says so
    if row.critical:
        return Text(text, style="dim")  # locked: the row says it is critical
    style = "green" if cell.on else "bold red"
    return Text(text + (" *" if cell.chosen else ""), style=style)


class PreferenceGrid(KeyedTable):
    def on_mount(self) -> None:
        self.cursor_type = "cell"
        self.zebra_stripes = True
        self.channels: list[str] = []

    def show(self, table: PreferenceTable, keep: tuple[str, str] | None = None) -> None:
        """Every row of `table`, the cursor kept on (row key, channel) if given."""
        self.clear(columns=True)
        self.channels = table.channels
        self.add_column(Text("Workflow"), key="workflow")
        for channel in self.channels:
            # A channel this version does not know is named by the service: plain text.
            self.add_column(Text(clip(channel, 12)), key=channel)
        for row in table.rows:
            mark = " [critical]" if row.critical else ""
            name = clip(row.name, NAME_WIDTH - len(mark)) + mark
            style = "bold" if row.is_global else ("dim" if row.critical else "")
            cells = [cell_text(row, c) for c in self.channels]
            self.add_row(Text(name, style=style), *cells, key=row_key(row))
        if keep is not None:
            self.put_cursor(*keep)

    def put_cursor(self, key: str, channel: str | None) -> None:
        if key not in self.rows:
            return
        column = self.channels.index(channel) + 1 if channel in self.channels else 1
        self.move_cursor(row=self.get_row_index(key), column=min(column, len(self.columns) - 1))

    @property
    def cursor_channel(self) -> str | None:
        column = self.cursor_coordinate.column
        return self.channels[column - 1] if 0 < column <= len(self.channels) else None
