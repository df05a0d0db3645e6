"""New content for a widget of auto height, drawn in place when it is as tall as before.

`Static.update` lays the whole screen out by default, for any new content: a strip whose
height stays the same (what a view says of the row or cell under its cursor, a view's
state line, History's entry) then cost a layout of every widget at each key.
"""

from __future__ import annotations

from textual.visual import Visual, VisualType, visualize
from textual.widget import Widget
from textual.widgets import Static


def fits(widget: Widget, visual: Visual) -> bool:
    """Whether `visual` is as tall as what `widget` shows now, at its width."""
    width, height = widget.content_size
    return width > 0 and visual.get_height(widget.styles, width) == height  # type: ignore[arg-type]


def update_in_place(static: Static, content: VisualType) -> None:
    """`static` shows `content`; the screen is laid out again only if its height changes.
    (`content`, not its visual, is handed on: `Static.content` stays what it was given.)"""
    static.update(content, layout=not fits(static, visualize(static, content)))
