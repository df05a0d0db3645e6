"""The journal's entries, newest first: when, where, what, to whom, and what became of it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from rich.text import Text

from inboxdesk.scope import Scope
from inboxdesk.text import clip
from inboxdesk.tui.widgets.keyed_table import KeyedTable
from inboxdesk.writes import describe
from inboxdesk.writes.store import Entry

OUTCOME_STYLE = {
    "sent": "green",
    "partial": "yellow",
    "queued": "bold yellow",
    "failed": "bold red",
    "dropped": "dim",
}


WHAT_WIDTH = 32  # at most: a wider What is clipped


def when(moment: datetime, now: datetime) -> str:
    """Today's time; this year's day and time; an older year's date. Short enough that
    an older write keeps its day in view at 80 columns."""
    local, today = moment.astimezone(), now.astimezone()
    if local.date() == today.date():
        return local.strftime("%H:%M:%S")
    return local.strftime("%m-%d %H:%M" if local.year == today.year else "%Y-%m-%d")


class HistoryTable(KeyedTable):
    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        # Outcome beside Made: what became of a write stays in view at any width; the
        # environment (short, and the one thing History must never hide) next.
        for label in ("Made", "Outcome", "Environment", "What", "To"):
            self.add_column(label, key=label.lower())

    _shown: tuple[list[Entry], Scope, datetime] | None = None

    def show(self, entries: Iterable[Entry], scope: Scope, now: datetime) -> None:
        listed = list(entries)
        self._shown = listed, scope, now
        if not self.size.width:
            return  # not laid out yet: its first resize lists them once, at their width
        keep = self.cursor_key
        self.clear()
        rows = []
        for entry in listed:
            write = entry.write
            outcome = entry.outcome + (" ·q" if entry.queued and entry.outcome != "queued" else "")
            environment = entry.where.environment
            rows.append(
                (
                    write.id,
                    when(write.made_at, now),
                    clip(scope.name(environment) if environment else "?", 16),
                    clip(write.label or write.target, 24),
                    describe(write),
                    Text(outcome, style=OUTCOME_STYLE.get(entry.outcome, "")),
                )
            )
        width = self._what_width(rows)
        for key, made, where, to, what, said in rows:
            self.add_row(made, said, Text(where), Text(clip(what, width)), Text(to), key=key)
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep))

    def _what_width(self, rows: list[tuple[str, str, str, str, str, Text]]) -> int:
        """What's room: at most 32, and what the table's width leaves beside the other
        columns (What is clipped with "…"; where even 12 is too much, the last column, To,
        scrolls: Outcome and Environment, beside Made, stay in view)."""
        room = self.scrollable_content_region.width
        if room <= 0 or not rows:
            return WHAT_WIDTH
        others = [
            max([len(label), *(len(str(r[i])) for r in rows)])
            for i, label in ((1, "Made"), (2, "Environment"), (3, "To"), (5, "Outcome"))
        ]
        padding = 2 * self.cell_padding * 5
        return max(12, min(WHAT_WIDTH, room - sum(others) - padding))

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)
