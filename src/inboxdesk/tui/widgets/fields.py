"""Pieces both detail panes are built from, each showing wire text as plain text.

Rich parses markup in a `str` given to a table cell, so every cell here is a `Text` of
`safe()` output: `[@click=…]` and escape sequences from a notification stay inert.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.measure import Measurement
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text
from textual.cache import LRUCache

from inboxdesk.text import safe, safe_json
from inboxdesk.tui.format import relative

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
    from rich.syntax import Syntax

# A 1 MB payload would take seconds to highlight and thousands of lines to scroll.
JSON_LIMIT = 20_000


def plain(value: object, style: str = "") -> Text:
    """Wire text as a `Text`: controls made visible, markup left literal."""
    return Text(safe(value), style=style)


def json_value(value: object) -> str:
    """A value spelled as JSON (`true`, `null`, `3`), a string as itself; made safe."""
    if isinstance(value, str):
        return safe(value)
    return safe_json(value)


def heading(label: str) -> Text:
    return Text(f"\n{label}", style="bold underline")


class Grid(Table):
    """Rich's grid of label and value columns, which keeps the cells it was given: what
    it shows is then known without drawing it (`content_key`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cells: list[tuple[Text, Text]] = []


def grid(rows: list[tuple[str, object]] | None = None) -> Grid:
    """Label and value columns; values are wire text and shown as plain text."""
    table = Grid.grid(padding=(0, 1))
    assert isinstance(table, Grid)  # Rich's `grid` builds `cls(...)`
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    for label, value in rows or []:
        add(table, label, value)
    return table


def add(table: Grid, label: str, value: object) -> None:
    """A row of `grid()`; a value that is a `Text` keeps its style."""
    cell = value if isinstance(value, Text) else Text(json_value(value))
    # Labels are wire text too (a credential's or payload's key): safe like values.
    row = (Text(safe(label)), cell)
    table.add_row(*row)
    table.cells.append(row)


def content_key(renderable: object) -> Hashable | None:
    """What a pane's renderable shows, as a key: renderables with equal keys draw the
    same lines. None for a kind of renderable not built here (drawn each time)."""
    if isinstance(renderable, Text):
        text = renderable
        return (Text, text.plain, tuple(text.spans), text.style, text.justify,
                text.overflow, text.no_wrap, text.end, text.tab_size)  # fmt: skip
    if isinstance(renderable, HighlightedJson):
        return (HighlightedJson, renderable.text)
    if isinstance(renderable, Grid):
        if len(renderable.cells) != renderable.row_count:
            return None  # a row added by other means than `add`
        parts = [content_key(cell) for row in renderable.cells for cell in row]
    elif isinstance(renderable, Group):
        parts = [renderable.fit, *map(content_key, renderable.renderables)]
    else:
        return None
    return None if None in parts else (type(renderable), *parts)


# JSON drawn, by its text and what drawing it reads of the options. A pane shows the
# same JSON again (the cursor back on a message, a mark's new copy of it, messages of
# one workflow alike): highlighting and wrapping it again cost milliseconds a key.
_DRAWN_JSON: LRUCache[tuple[object, ...], list[Segment]] = LRUCache(64)


class HighlightedJson:
    """JSON as Rich's `Syntax` draws it, drawn once per text and width."""

    def __init__(self, text: str) -> None:
        self.text = text

    def _syntax(self) -> Syntax:
        from rich.syntax import Syntax  # pygments loads only when a pane shows JSON

        return Syntax(self.text, "json", word_wrap=True, background_color="default")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._syntax())

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # Wrapped JSON reads these of the options (its own settings are fixed above).
        key = (
            self.text,
            options.max_width,
            options.justify,
            options.overflow,
            options.no_wrap,
            options.ascii_only,
            options.legacy_windows,
        )
        drawn = _DRAWN_JSON.get(key)
        if drawn is None:
            drawn = _DRAWN_JSON[key] = list(console.render(self._syntax(), options))
        yield Segments(drawn)


def json_block(value: Any) -> RenderableType:
    """Highlighted JSON whose strings cannot escape: C1 and bidi escaped, no markup."""
    text = safe_json(value, indent=2)
    note = None
    if len(text) > JSON_LIMIT:
        note = f"… {len(text) - JSON_LIMIT:,} more characters not shown"
        text = text[:JSON_LIMIT]
    syntax = HighlightedJson(text)
    if note is None:
        return syntax
    return Group(syntax, Text(note, style="dim italic"))


def add_when(table: Grid, label: str, stamp: str | None, now: datetime) -> None:
    """A date row, as sent and how long ago (`2026-11-20T04:40:38Z (7h ago)`), if set."""
    if stamp:
        add(table, label, f"{json_value(stamp)} ({relative(stamp, now)})")
