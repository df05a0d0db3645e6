"""The message list: a line-API widget that draws only the rows in view.

Built like Textual's own `Log` and `DataTable` on `ScrollView`, over a row source
that may be sparse: a row not loaded yet is drawn as a placeholder, and the list asks
for the rows its viewport needs (`RowsWanted`) instead of holding every row before
them. A mark repaints only the rows that changed (`refresh_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import ClassVar, Protocol

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inboxdesk.core.inbox.feed import Row
from inboxdesk.text import clip, pad
from inboxdesk.tui.format import relative, status_style
from inboxdesk.tui.list_keys import LIST_BINDINGS


class RowSource(Protocol):
    """What the list shows: a length, a row per index (None until loaded), and lookup."""

    @property
    def exact(self) -> bool: ...

    def __len__(self) -> int: ...

    def row(self, index: int) -> Row | None: ...

    def index_of(self, message_id: str) -> int | None: ...


class _Empty:
    exact = True

    def __len__(self) -> int:
        return 0

    def row(self, index: int) -> Row | None:
        return None

    def index_of(self, message_id: str) -> int | None:
        return None


# Columns by priority: markers, time, title (at least TITLE_MIN cells) and status are
# always drawn; the preview comes only once the title has TITLE_WIDE cells beside it.
MARKERS, WHEN, STATUS, TITLE_MIN, TITLE_WIDE, TITLE_MAX, PREVIEW_MIN = 4, 8, 7, 19, 30, 48, 12


def column_widths(width: int) -> dict[str, int]:
    """Each column's width for a list `width` cells wide (one space between columns)."""
    fixed = MARKERS + WHEN + STATUS + 3
    room = max(TITLE_MIN, width - fixed)
    if room - 1 - PREVIEW_MIN < TITLE_WIDE:
        return {"state": MARKERS, "when": WHEN, "title": room, "preview": 0, "status": STATUS}
    title = max(TITLE_WIDE, min(TITLE_MAX, room * 11 // 20))
    return {
        "state": MARKERS,
        "when": WHEN,
        "title": title,
        "preview": room - title - 1,
        "status": STATUS,
    }


_SELECTED = Style.parse("bold magenta")
_PENDING = Style.parse("bold yellow")
_UNREAD = Style.parse("bold cyan")
_UNSEEN = Style.parse("yellow")
_ARCHIVED = Style.parse("magenta")
_SNOOZED = Style.parse("blue")
# The fourth marker: archived, or snoozed until a time (the help explains both).
ARCHIVED_MARK, SNOOZED_MARK = "▣", "☾"
_BOLD = Style.parse("bold")
_DIM = Style.parse("dim")


HEADINGS = {"state": "", "when": "When", "title": "Title", "preview": "Preview", "status": "Status"}
ORDER = ("state", "when", "title", "preview", "status")


class MessageTable(ScrollView, can_focus=True):
    """Messages with vim-style movement; `cursor_key` is the highlighted message's id."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("up", "cursor_up", "Up", show=False, id="messages.up"),
        Binding("down", "cursor_down", "Down", show=False, id="messages.down"),
        Binding("pageup", "page_up", "Page up", show=False, id="messages.page_up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="messages.page_down"),
        Binding("home", "scroll_top", "First", show=False, id="messages.home"),
        Binding("end", "scroll_bottom", "Last", show=False, id="messages.end"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "message-table--header",
        "message-table--cursor",
        "message-table--even-row",
        "message-table--placeholder",
    }
    DEFAULT_CSS = """
    MessageTable {
        background: $surface;
        color: $foreground;
        overflow-x: hidden;
        overflow-y: scroll;
        & > .message-table--header { text-style: bold; background: $panel; }
        & > .message-table--even-row { background: $surface-lighten-1 50%; }
        & > .message-table--placeholder { color: $text-muted; text-style: italic; }
        & > .message-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
        }
        &:focus > .message-table--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """

    # The watcher repaints the two rows a move changes: a repaint of every row in view
    # (the reactive's default) made each cursor move draw the whole list again.
    cursor_row: reactive[int] = reactive(0, init=False, always_update=True, repaint=False)

    class Highlighted(Message):
        """The cursor moved to another row (its id is None until that row is loaded)."""

        def __init__(self, table: MessageTable, index: int, message_id: str | None) -> None:
            super().__init__()
            self.table = table
            self.index = index
            self.message_id = message_id

        @property
        def control(self) -> MessageTable:
            return self.table

    class RowsWanted(Message):
        """Rows `start` to `end` are in view (or under the cursor) and not loaded."""

        def __init__(self, table: MessageTable, start: int, end: int) -> None:
            super().__init__()
            self.table = table
            self.start = start
            self.end = end

        @property
        def control(self) -> MessageTable:
            return self.table

    class EndWanted(Message):
        """The last row was asked for while the source's length is only a lower bound."""

        def __init__(self, table: MessageTable) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> MessageTable:
            return self.table

    def __init__(self, clock: Callable[[], datetime], **kwargs: str | None) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.clock = clock
        self.source: RowSource = _Empty()
        self.selected: frozenset[str] = frozenset()
        self.pending: frozenset[str] = frozenset()
        # The styles of one frame's lines, read once per frame (None between frames).
        self._frame_styles: dict[str, Style] | None = None

    # -- what the screen calls ---------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.source)

    @property
    def cursor_key(self) -> str | None:
        row = self.source.row(self.cursor_row)
        return row.id if row is not None else None

    def show(self, source: RowSource, keep: str | None = None) -> None:
        """Show another source (a new listing, or the text filter), keeping `keep` highlighted."""
        self.source = source
        self._resize()
        index = source.index_of(keep) if keep else None
        self.cursor_row = index if index is not None else min(self.cursor_row, self._last())
        self.refresh()

    def grown(self) -> None:
        """The source's length changed: resize the scroll range."""
        self._resize()
        if self.cursor_row > self._last():
            self.cursor_row = self._last()
        self.refresh()

    def refresh_rows(self, indices: Iterable[int]) -> None:
        """Repaint these rows, if in view; the others are drawn when scrolled to."""
        indices = list(indices)
        self._repaint(indices)
        if self.cursor_row in indices:
            self.post_message(self.Highlighted(self, self.cursor_row, self.cursor_key))

    def set_marks(self, selected: frozenset[str], pending: frozenset[str]) -> None:
        """New selection and pending sets; only the rows whose markers changed repaint."""
        changed = (selected ^ self.selected) | (pending ^ self.pending)
        self.selected, self.pending = selected, pending
        self._repaint(i for i in map(self.source.index_of, changed) if i is not None)

    def _repaint(self, indices: Iterable[int]) -> None:
        """One refresh per run of adjacent rows in view: each refresh costs Textual the
        same whether it covers one line or forty."""
        top = round(self.scroll_y)
        bottom = top + self.scrollable_content_region.height - 1
        start = end = -1
        for index in sorted(i for i in set(indices) if top <= i < bottom):
            if index != end:
                if end > start:
                    self.refresh_lines(start + 1, end - start)
                start = index
            end = index + 1
        if end > start:
            self.refresh_lines(start + 1, end - start)

    def row_text(self, index: int) -> str:
        """Row `index` as plain text, as drawn (markers first); empty until loaded."""
        row = self.source.row(index)
        if row is None:
            return ""
        widths = column_widths(self.scrollable_content_region.width)
        return "".join(text for text, _ in self._cells(row, widths))

    def move_to(self, index: int) -> None:
        self.cursor_row = max(0, min(index, self._last()))

    # -- drawing -----------------------------------------------------------------------

    def _last(self) -> int:
        return max(0, len(self.source) - 1)

    def _resize(self) -> None:
        # As tall as the rows and the heading; no wider than the list, whatever its width
        # (it never scrolls sideways): a new width (the detail pane shown or hidden, the
        # terminal resized) is then no new virtual size, which lays the screen out again.
        self.virtual_size = Size(0, len(self.source) + 1)

    def on_resize(self) -> None:
        self._resize()
        self._want_visible()

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines of one frame. Their styles cannot change within it, and reading them
        walks every ancestor's styles: read once per frame, not once per line (two
        thirds of drawing a row)."""
        self._frame_styles = {}
        try:
            return super().render_lines(crop)
        finally:
            self._frame_styles = None

    def _style(self, component: str = "") -> Style:
        """The list's style (`component` empty) or a component's, as this frame has it."""
        styles = self._frame_styles
        if styles is not None and component in styles:
            return styles[component]
        style = self.get_component_rich_style(component) if component else self.rich_style
        if styles is not None:
            styles[component] = style
        return style

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        widths = column_widths(width)
        if y == 0:
            style = self._style("message-table--header")
            return self._strip(self._header(widths), width, style)
        index = round(self.scroll_y) + y - 1
        if index >= len(self.source):
            return Strip.blank(width, self._style())
        base = self._style()
        if index % 2:
            base += self._style("message-table--even-row")
        if index == self.cursor_row:
            base += self._style("message-table--cursor")
        row = self.source.row(index)
        if row is None:
            placeholder = self._style("message-table--placeholder")
            return self._strip(Text(pad("", MARKERS + 1) + "…", style=placeholder), width, base)
        cells = self._cells(row, widths)
        segments = [Segment(text, base + style if style else base) for text, style in cells]
        return Strip(segments).crop_extend(0, width, base)

    def _strip(self, text: Text, width: int, style: Style) -> Strip:
        segments = [
            Segment(s.text, style + s.style if s.style else style)
            for s in text.render(self.app.console)
        ]
        return Strip(segments).crop_extend(0, width, style)

    @staticmethod
    def _header(widths: dict[str, int]) -> Text:
        return Text(" ".join(pad(HEADINGS[k], widths[k]) for k in ORDER if widths[k]))

    def _cells(self, row: Row, widths: dict[str, int]) -> list[tuple[str, Style | None]]:
        """One row as (text, style) runs: every value from the wire clipped to plain text
        (never markup). Built without `Text`: a mark repaints forty of these at once."""
        title_width, preview_width = widths["title"], widths["preview"]
        title, preview, status = row.clipped(title_width, preview_width, STATUS)
        runs: list[tuple[str, Style | None]] = [
            ("✔" if row.id in self.selected else " ", _SELECTED)
        ]
        if row.id in self.pending:
            runs.append(("⧗ ", _PENDING))  # sent, not yet confirmed by the service
        else:
            runs.append(("●" if not row.read else " ", _UNREAD))
            runs.append(("◌" if not row.seen else " ", _UNSEEN))
        gap = " "
        if row.archived and row.snoozed:  # both: the second takes the gap before the time
            runs += [(ARCHIVED_MARK, _ARCHIVED), (SNOOZED_MARK, _SNOOZED)]
            gap = ""
        elif row.archived:
            runs.append((ARCHIVED_MARK, _ARCHIVED))
        elif row.snoozed:
            runs.append((SNOOZED_MARK, _SNOOZED))
        else:
            runs.append((" ", None))
        when = pad(clip(relative(row.created_at, self.clock()), WHEN), WHEN)
        runs += [(f"{gap}{when} ", None), (title, None if row.read else _BOLD)]
        if preview_width:
            runs += [(" ", None), (preview, _DIM)]
        # Style.parse is cached by Rich; an empty style is falsy, so the row's base applies.
        runs += [(" ", None), (status, Style.parse(status_style(row.status)))]
        return runs

    # -- moving ------------------------------------------------------------------------

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.refresh_line(old + 1)
        self.refresh_line(new + 1)
        self._scroll_to_cursor()
        self.post_message(self.Highlighted(self, new, self.cursor_key))
        if self.source.row(new) is None and new < len(self.source):
            self.post_message(self.RowsWanted(self, new, new + 1))

    def _scroll_to_cursor(self) -> None:
        rows = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + rows:
            self.scroll_to(y=self.cursor_row - rows + 1, animate=False, immediate=True)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self._want_visible()

    def _want_visible(self) -> None:
        top = round(self.scroll_y)
        stop = min(len(self.source), top + self.scrollable_content_region.height)
        if any(self.source.row(i) is None for i in range(top, stop)):
            self.post_message(self.RowsWanted(self, top, stop))

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor_row + 1)

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor_row - 1)

    def action_page_down(self) -> None:
        self.move_to(self.cursor_row + max(1, self.scrollable_content_region.height - 2))

    def action_page_up(self) -> None:
        self.move_to(self.cursor_row - max(1, self.scrollable_content_region.height - 2))

    def action_scroll_top(self) -> None:
        self.move_to(0)

    def action_scroll_bottom(self) -> None:
        """The last row; when only a lower bound is known, the screen finds the end first."""
        if not self.source.exact:
            self.post_message(self.EndWanted(self))
        self.move_to(self._last())

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        self.focus()
        self.move_to(round(self.scroll_y) + offset.y - 1)
