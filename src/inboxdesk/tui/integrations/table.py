"""Integrations grouped by environment (the key's own first), then by channel, the primary
of each channel in each environment clearly marked.

Columns come in priority order: the primary marker and the name always show; the others
join as the table gets wider (`columns_for`), so no width cuts a column in half.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.text import Text
from textual import events

from inboxdesk.models import Channel, Integration
from inboxdesk.scope import Scope
from inboxdesk.text import clip
from inboxdesk.tui.widgets.keyed_table import KeyedTable

CHANNEL_ORDER = [
    c.value
    for c in (Channel.EMAIL, Channel.SMS, Channel.IN_APP, Channel.CHAT, Channel.PUSH, Channel.TOOL)
]


class Column(NamedTuple):
    key: str
    label: str
    width: int


# Highest priority first. The name takes what the others leave, between its bounds.
PRIMARY = Column("primary", "★", 1)
NAME = Column("name", "Name", 16)
NAME_MAX = 40
# The environment comes first: production lists every environment's integrations, and a
# row without it could be mistaken for the key's own (it shows from 80 columns up).
OPTIONAL = (
    Column("environment", "Environment", 12),
    Column("channel", "Channel", 7),
    Column("active", "Active", 8),
    Column("provider", "Provider", 12),
    Column("conditions", "Conditions", 10),
    Column("identifier", "Identifier", 22),
)
PADDING = 2  # a DataTable cell's padding, one each side
SCROLLBAR = 2
DISPLAY_ORDER = (
    "environment",
    "primary",
    "channel",
    "name",
    "active",
    "provider",
    "conditions",
    "identifier",
)


def columns_for(width: int) -> list[Column]:
    """The columns that fit in `width` cells, in display order, the name sized to fill."""
    used = PRIMARY.width + NAME.width + 2 * PADDING + SCROLLBAR
    chosen = {PRIMARY.key: PRIMARY}
    for column in OPTIONAL:
        if used + column.width + PADDING <= width:
            chosen[column.key] = column
            used += column.width + PADDING
    chosen[NAME.key] = NAME._replace(width=min(NAME_MAX, NAME.width + max(0, width - used)))
    return [chosen[key] for key in DISPLAY_ORDER if key in chosen]


def grouped(items: Iterable[Integration], scope: Scope | None = None) -> list[Integration]:
    """Environments in `scope`'s order (the key's own first), then channels in a fixed
    order (those with a primary first), names within each."""
    items = list(items)
    order = (scope or Scope()).order(i.environment_id for i in items)

    def key(item: Integration) -> tuple[int, int, str]:
        channel = str(item.channel)
        rank = CHANNEL_ORDER.index(channel) if channel in CHANNEL_ORDER else len(CHANNEL_ORDER)
        return order.index(item.environment_id), rank, item.name.casefold()

    return sorted(items, key=key)


def _same(shown: object, new: object) -> bool:
    """Whether a cell would look the same (Text's == ignores its style)."""
    if isinstance(shown, Text) and isinstance(new, Text):
        return (shown.plain, shown.style, shown.spans) == (new.plain, new.style, new.spans)
    return shown == new


class IntegrationTable(KeyedTable):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", **kwargs)  # type: ignore[arg-type]
        self.items: list[Integration] = []
        self.layout_columns: list[Column] = []
        self.scope = Scope()
        # The row to keep the cursor on, for a listing that came before the first layout.
        self._keep: str | None = None

    def on_resize(self, event: events.Resize) -> None:
        if columns_for(event.size.width) != self.layout_columns:
            self.show(self.items, self._keep or self.cursor_key)

    def show(
        self, items: list[Integration], keep: str | None = None, scope: Scope | None = None
    ) -> None:
        """Show `items`, keeping the cursor on `keep` when it is still listed.

        When the same integrations come in the same order at the same width, only the
        cells that changed are redrawn (a set primary, a refresh): the rows stay.
        """
        self.items = list(items)
        self.scope = scope or self.scope
        if not self.size.width:
            # Not laid out yet (a listing quicker than the first frame): its first resize
            # builds the rows once, at the width they are shown at.
            self._keep = keep
            return
        self._keep = None
        ordered = grouped(items, self.scope)
        columns = columns_for(self.size.width)
        if columns == self.layout_columns and [i.id for i in ordered] == [
            row.key.value for row in self.ordered_rows
        ]:
            self._merge(ordered)
        else:
            self._rebuild(ordered, columns)
        if keep is not None and keep in self.rows and keep != self.cursor_key:
            self.move_cursor(row=self.get_row_index(keep), animate=False)

    def _rebuild(self, ordered: list[Integration], columns: list[Column]) -> None:
        if columns != self.layout_columns:
            self.clear(columns=True)
            self.layout_columns = columns
            for column in columns:
                self.add_column(column.label, key=column.key, width=column.width)
        else:
            self.clear()
        for item, cells in zip(ordered, self._rows_of(ordered), strict=True):
            self.add_row(*(cells[c.key] for c in columns), key=item.id)

    def _merge(self, ordered: list[Integration]) -> None:
        for item, cells in zip(ordered, self._rows_of(ordered), strict=True):
            row = item.id or ""
            for column in self.layout_columns:
                if not _same(self.get_cell(row, column.key), cells[column.key]):
                    self.update_cell(row, column.key, cells[column.key])

    def _rows_of(self, ordered: list[Integration]) -> list[dict[str, object]]:
        """Each row's cells; the channel is named on the first row of its group only,
        the environment on every row (a scrolled list still says where each row is)."""
        rows = []
        previous = None
        for item in ordered:
            channel = str(item.channel) if item.channel else "—"
            group = (item.environment_id, channel)
            rows.append(self._cells(item, channel if group != previous else ""))
            previous = group
        return rows

    def _cells(self, item: Integration, channel: str) -> dict[str, object]:
        width = {c.key: c.width for c in self.layout_columns}
        name = clip(item.name, width.get("name", NAME.width))
        own = self.scope.is_own(item.environment_id)
        environment = clip(self.scope.name(item.environment_id), width.get("environment", 12))
        return {
            "environment": Text(environment, style="bold" if own else "dim"),
            "primary": Text("★", style="bold yellow") if item.primary else Text(""),
            "channel": Text(clip(channel, width.get("channel", 7)), style="bold"),
            "name": Text(name, style="bold" if item.primary else ""),
            "active": (
                Text("active", style="green") if item.active else Text("inactive", style="dim")
            ),
            "provider": Text(clip(item.provider_id, width.get("provider", 12))),
            "conditions": Text(str(len(item.conditions or []))),
            "identifier": Text(clip(item.identifier, width.get("identifier", 22))),
        }
