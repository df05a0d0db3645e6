"""Help's table of keys, drawn without an app: at each width as a fresh one draws it
(help shows it through `DrawnOnce`, drawn once per width: tests/tui/test_detail.py)."""

from __future__ import annotations

import io

from rich.console import Console

from inboxdesk.tui.screens.help import WIDE, KeyTable, Line


def drawn(table: KeyTable, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(table)
    return console.export_text(styles=True)


def test_a_table_drawn_at_one_width_then_another_draws_each_as_a_fresh_one() -> None:
    lines: list[Line | str] = [
        "Inbox",
        Line("r", "Read", "inbox.mark_read", "Mark the highlighted message read"),
        Line("u", "Unread", "inbox.mark_unread", "(not available now) And back"),
    ]
    table = KeyTable(lines)
    for width in (WIDE - 30, WIDE + 40, WIDE - 30, WIDE + 40):
        assert drawn(table, width) == drawn(KeyTable(lines), width), width
    narrow, wide = drawn(table, WIDE - 30), drawn(table, WIDE + 40)
    assert "Note" in wide and "Note" not in narrow, "four columns only when wide"
    assert "inbox.mark_unread" in narrow and "(not available now)" in narrow
