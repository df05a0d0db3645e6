"""Plain aligned text tables for the command line: readable, and easy to grep or cut.

Cells hold text from the wire, so each goes through `clip()`: one safe line with every
control and bidi character made visible, cut to a width measured in terminal cells
(CJK and emoji take two), so no cell can move the cursor or break the alignment.
"""

from __future__ import annotations

from collections.abc import Sequence

from inboxdesk.text import cells, clip, pad

# The widest a cell may be; longer text is cut with an ellipsis.
MAX_CELL = 60


def cell(value: object) -> str:
    """How a value shows in a table: JSON spelling for flags, empty for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], max_cell: int = MAX_CELL
) -> str:
    shown = [[clip(cell(c), max_cell) for c in row] for row in [headers, *rows]]
    widths = [max(cells(row[i]) for row in shown) for i in range(len(headers))]
    lines = [
        "  ".join(pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip() for row in shown
    ]
    return "\n".join(lines)
