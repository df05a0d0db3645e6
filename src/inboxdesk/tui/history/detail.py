"""One journal entry in full: ids, before and after, the request's key and outcome."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from inboxdesk.scope import Scope
from inboxdesk.text import safe
from inboxdesk.tui.widgets.in_place import update_in_place
from inboxdesk.writes.kinds import describe, kind_of
from inboxdesk.writes.kinds.base import SHOWN_IDS
from inboxdesk.writes.report import as_json
from inboxdesk.writes.store import Entry


def entry_text(entry: Entry, scope: Scope, undo_key: str) -> Text:
    data = as_json(entry)
    write = entry.write
    text = Text()
    text.append(safe(describe(write)) + "\n", style="bold")
    lines = [
        ("id", write.id),
        ("made", write.made_at.astimezone().isoformat(timespec="seconds")),
        (
            "last outcome",
            f"{entry.outcome} at {entry.at.astimezone().isoformat(timespec='seconds')}",
        ),
        ("was queued", "yes" if entry.queued else "no"),
        ("profile", entry.where.profile or "(none)"),
        ("service", entry.where.host),
        (
            "environment",
            scope.name(entry.where.environment) if entry.where.environment else "unknown",
        ),
        ("operation", write.kind.value),
        ("to", write.label or write.target),
        ("Idempotency-Key", write.key),
    ]
    for name in ("status", "errorId", "error", "count"):
        if data.get(name) is not None:
            lines.append((name, str(data[name])))
    if write.undoes:
        lines.append(("undoes", write.undoes))
    for name, value in lines:
        text.append(f"{name}: ", style="bold")
        text.append(safe(value, newlines=False) + "\n")
    kind = kind_of(write)
    section = kind.section(write, data["before"], data["after"], entry.detail)
    if section.heading:
        text.append(f"\n{safe(section.heading, newlines=False)}\n", style="bold")
    elif section.fields:
        text.append("\n")
    for line in section.lines:
        text.append(safe(f"  {line}", newlines=False) + "\n")
    for name, value in section.fields:
        text.append(f"{name}: ", style="bold")
        text.append(safe(value, newlines=False) + "\n")
    not_updated = data["notUpdated"] or []
    if not_updated:
        text.append(f"\nnot updated ({len(not_updated)}): ", style="bold")
        text.append(safe(" ".join(map(str, not_updated[:SHOWN_IDS])), newlines=False) + "\n")
    never = kind.final
    text.append(
        f"\n{never}" if never else f"\n{undo_key} undoes this entry (as a new write).",
        style="italic",
    )
    return text


class HistoryDetail(VerticalScroll):
    # What the pane shows now: the same again (a write of another entry, a cursor that
    # did not move) is not drawn and laid out again.
    _shown: tuple[Entry | None, Scope, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="history-entry")

    def show(self, entry: Entry | None, scope: Scope, undo_key: str) -> None:
        if (entry, scope, undo_key) == self._shown:
            return
        self._shown = entry, scope, undo_key
        body = self.query_one("#history-entry", Static)
        if entry is None:
            body.update(Text("No write recorded yet.", style="italic"))
            return
        update_in_place(body, entry_text(entry, scope, undo_key))
