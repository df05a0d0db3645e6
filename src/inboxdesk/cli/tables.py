"""Plain aligned text tables for the command line: readable, and easy to grep or cut.

Cells hold text from the wire, so each goes through `clip()`: one safe line with every
control and bidi character made visible, cut to a width measured in terminal cells
(CJK and emoji take two), so no cell can move the cursor or break the alignment.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence

from inboxdesk.text import cells, clip, pad
from inboxdesk.wrapping import WHOLE, wrap

# The widest a cell may be; longer text is cut with an ellipsis.
MAX_CELL = 60
# Narrower than this, a whole column wraps under its own start no more.
MIN_WRAPPED = 20
# How text goes under its row when the columns before it leave less than that.
UNDER = "    "


def terminal_width() -> int | None:
    """The terminal's width when stdout is one; None when piped (whole lines, unwrapped)."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def whole(label: str, value: object, width: int | None = None) -> str:
    """`label  value` with the value whole: wrapped under itself to `width` cells (the
    terminal's), on one line when piped."""
    text = clip(cell(value), WHOLE)
    if width is None or width - cells(label) - 2 < MIN_WRAPPED:
        return f"{label}  {text}"
    indent = " " * (cells(label) + 2)
    lines = wrap(text, width - len(indent))
    return "\n".join([f"{label}  {lines[0]}", *(indent + line for line in lines[1:])])


def cell(value: object) -> str:
    """How a value shows in a table: JSON spelling for flags, empty for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    max_cell: int = MAX_CELL,
    whole_last: bool = False,
    width: int | None = None,
) -> str:
    """Aligned columns, each cell cut to `max_cell`. `whole_last`: the last column is
    never cut (a cause, a provider's answer): wrapped under its own start to `width`
    cells (the terminal's), or on one line when `width` is None (piped)."""
    last = len(headers) - 1
    shown = [
        [clip(cell(c), WHOLE if whole_last and i == last else max_cell) for i, c in enumerate(row)]
        for row in [headers, *rows]
    ]
    widths = [max(cells(row[i]) for row in shown) for i in range(len(headers))]
    if not whole_last:
        return "\n".join(_line(row, widths) for row in shown)
    start = sum(widths[:last]) + 2 * last
    room = None if width is None else width - start
    lines: list[str] = []
    for row in shown:
        if width is None or room is None or cells(row[last]) <= room:
            lines.append(_line(row, widths))
        elif room >= MIN_WRAPPED:
            first, *rest = wrap(row[last], room)
            lines.append(_line([*row[:last], first], widths))
            lines += [" " * start + more for more in rest]
        else:  # the other columns leave too little room: the text goes under the row
            lines.append(_line(row[:last], widths))
            lines += [UNDER + more for more in wrap(row[last], max(1, width - len(UNDER)))]
    return "\n".join(lines)


def _line(row: Sequence[str], widths: Sequence[int]) -> str:
    return "  ".join(pad(c, w) for c, w in zip(row, widths, strict=False)).rstrip()
