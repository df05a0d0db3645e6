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


def when(moment: datetime, now: datetime) -> str:
    local = moment.astimezone()
    same_day = local.date() == now.astimezone().date()
    return local.strftime("%H:%M:%S" if same_day else "%Y-%m-%d %H:%M")


class HistoryTable(KeyedTable):
    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for label in ("Made", "Environment", "To", "What", "Outcome"):
            self.add_column(label, key=label.lower())

    def show(self, entries: Iterable[Entry], scope: Scope, now: datetime) -> None:
        keep = self.cursor_key
        self.clear()
        for entry in entries:
            write = entry.write
            outcome = entry.outcome + (" ·q" if entry.queued and entry.outcome != "queued" else "")
            self.add_row(
                when(write.made_at, now),
                Text(
                    clip(
                        scope.name(entry.where.environment) if entry.where.environment else "?", 16
                    )
                ),
                Text(clip(write.label or write.target, 24)),
                Text(clip(describe(write), 32)),
                Text(outcome, style=OUTCOME_STYLE.get(entry.outcome, "")),
                key=write.id,
            )
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep))
