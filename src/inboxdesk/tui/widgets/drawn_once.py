"""A Rich renderable drawn once per width for both Textual's measuring and drawing."""

from __future__ import annotations

from collections.abc import Hashable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from textual.cache import LRUCache
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual, Visual
from textual.widget import Widget


class DrawnOnce(Visual):
    """A Rich renderable drawn once per width and style.

    Textual draws a Rich renderable once to learn its height and again to show it: a
    message's body (tables, highlighted JSON) or help's table of keys costs milliseconds
    a draw. The lines of the first draw serve both.
    """

    def __init__(
        self,
        widget: Widget,
        renderable: RenderableType,
        kept: LRUCache[Hashable, list[Strip]] | None = None,
        key: Hashable | None = None,
    ) -> None:
        """`kept`, with the `key` of what `renderable` shows: the lines of the widget's
        earlier renderables that showed the same, by width and style, so that what it
        shows again is not drawn again (a detail pane's message shown again)."""
        self.renderable = renderable
        self._widget = widget
        self._rich = RichVisual(widget, renderable)
        self._drawn: tuple[int, Style, list[Strip]] | None = None
        self._kept = kept if key is not None else None
        self._key = key

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.renderable  # printable as the body it holds

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._rich.get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        style = self._widget.visual_style  # what the draw that follows is handed
        return len(self._lines(width, style, RenderOptions(lambda _: style, rules)))

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        lines = self._lines(width, style, options)
        return lines[:height] if height is not None else list(lines)

    def _lines(self, width: int, style: Style, options: RenderOptions) -> list[Strip]:
        drawn = self._drawn
        if drawn is None or drawn[0] != width or drawn[1] != style:
            kept, key = self._kept, (self._key, width, style)
            lines = kept.get(key) if kept is not None else None
            if lines is None:
                lines = self._rich.render_strips(width, None, style, options)
                if kept is not None:
                    kept[key] = lines
            drawn = self._drawn = (width, style, lines)
        return drawn[2]
