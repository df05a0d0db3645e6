"""The History view (`3`): every write inboxdesk made with this profile on this service,
newest first, filtered as you type (by field or anywhere); `z` undoes any entry as a
new write.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Input

from inboxdesk.scope import Scope, matches
from inboxdesk.text import safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.history.detail import HistoryDetail
from inboxdesk.tui.history.query import FIELDS, Query
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.preferences.opening import SHOW_PREFERENCES
from inboxdesk.tui.screens.confirm import ConfirmScreen, TypedConfirmScreen
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.writes import describe, kind_of
from inboxdesk.writes.store import Entry

if TYPE_CHECKING:
    from inboxdesk.writes import Event

SHOWN = 2000  # the newest entries listed; `inboxdesk history` gives them all


class HistoryScreen(ServiceScreen):
    AUTO_FOCUS = "#history-table"
    BINDINGS = [
        SHOW_PREFERENCES,
        Binding("z", "undo", "Undo", id="history.undo", tooltip="Undo the highlighted write"),
        Binding(
            "slash",
            "filter_text",
            "Filter",
            id="history.filter_text",
            tooltip="Filter: words anywhere, or subscriber: env: op: outcome: one field",
        ),
        Binding("escape", "clear_filter", "Clear", id="history.clear", tooltip="Clear the filter"),
        Binding("ctrl+r,f5", "refresh", "Refresh", id="history.refresh", tooltip="Read again"),
        Binding(
            "l",
            "request_log",
            "Requests",
            id="history.request_log",
            tooltip="This session's HTTP requests; copy one as curl",
        ),
        Binding(
            "e",
            "export",
            "Export",
            id="history.export",
            tooltip="Save the writes listed here as CSV (a private file; its path is shown)",
        ),
        *view_keys("history"),
    ]

    def __init__(self, context: ViewContext) -> None:
        super().__init__(id="history")
        self.context = context
        self.entries: dict[str, Entry] = {}
        self.filter_query = Query(())
        # The damaged journal rows already said: each is said once, as the command line does.
        self._said: set[str] = set()
        # A write's outcome came while another screen showed: listed again when shown.
        self._stale = False

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="panes"):
            yield HistoryTable(id="history-table")
            yield HistoryDetail(id="history-detail")
        yield Input(
            placeholder="filter: words, or subscriber:ID env:NAME op:mark outcome:failed",
            id="text-filter",
        )
        yield AppFooter()

    def on_mount(self) -> None:
        self.sub_title = "History"
        self.context.writes.subscribe(self, self._write_done)
        # The environments' names come with the scope, which may arrive after the rows.
        self.context.scope.watch(self, lambda _: self.reload())
        self.reload()

    @property
    def table(self) -> HistoryTable:
        return self.query_one(HistoryTable)

    @property
    def scope(self) -> Scope:
        return self.context.scope.value or Scope()

    def reload(self) -> None:
        outbox = self.context.outbox
        where = outbox.where
        found = outbox.store.entries(type(where)(where.profile, where.host), limit=SHOWN)
        self.entries = {e.write.id: e for e in found}
        for line in outbox.store.skipped.values():
            if line not in self._said:
                self._said.add(line)
                said = safe(line, newlines=False)
                self.notify(said, title="History", severity="warning", timeout=10, markup=False)
        shown = [e for e in found if self.filter_query.matches(e, self.scope)]
        self.table.show(shown, self.scope, self.context.clock())
        self._show_detail()

    def _write_done(self, event: Event) -> None:
        if self.is_current:
            self.reload()
        else:
            self._stale = True  # read once, when shown again, not at every write meanwhile

    @on(events.ScreenResume)
    def _shown_again(self) -> None:
        if self._stale:
            self._stale = False
            self.reload()

    def _show_detail(self) -> None:
        key = self.table.cursor_key
        entry = self.entries.get(key) if key else None
        self.query_one(HistoryDetail).show(entry, self.scope, self.key_for("undo"))

    @on(DataTable.RowHighlighted, "#history-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.context.allows(action)  # read-only: undo is a write, not bound

    def action_refresh(self) -> None:
        self.reload()

    def action_request_log(self) -> None:
        from inboxdesk.tui.history.requests import RequestLogScreen

        self.app.push_screen(RequestLogScreen(self.context.client.requests.newest_first()))

    def action_export(self) -> None:
        """The entries the filter shows, as `inboxdesk history --export csv` writes them,
        in a new file readable by the user alone."""
        from inboxdesk.paths import data_dir
        from inboxdesk.writes import report

        shown = [e for e in self.entries.values() if self.filter_query.matches(e, self.scope)]
        stamp = self.context.clock().astimezone().strftime("%Y%m%d-%H%M%S")
        path = data_dir() / "exports" / f"history-{stamp}.csv"
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
                out.write(report.to_csv(shown))
        except OSError as exc:
            self.notify(safe(f"Not exported: {exc}"), severity="error", markup=False)
            return
        self.notify(safe(f"Exported {len(shown)} writes to {path}"), markup=False, timeout=10)

    def action_filter_text(self) -> None:
        field = self.query_one("#text-filter", Input)
        field.display = True
        field.focus()

    @on(Input.Changed, "#text-filter")
    def _typed(self, event: Input.Changed) -> None:
        self._apply(event.value)

    @on(Input.Submitted, "#text-filter")
    def _filter(self, event: Input.Submitted) -> None:
        self._set_filter(event.value.strip())

    def _apply(self, text: str, say: bool = False) -> None:
        query = Query.parse(text)
        if say and query.unknown:
            known = ", ".join(f"{name}:" for name in FIELDS)
            self.notify(
                safe(f"No field {', '.join(query.unknown)}: here; try {known}"),
                severity="warning",
                markup=False,
            )
        if query != self.filter_query:
            self.filter_query = query
            self.reload()

    def action_clear_filter(self) -> None:
        self._set_filter("")

    def _set_filter(self, text: str) -> None:
        field = self.query_one("#text-filter", Input)
        field.display = bool(text)
        field.value = text
        self._apply(text, say=True)
        self.table.focus()

    def action_undo(self) -> None:
        key = self.table.cursor_key
        entry = self.entries.get(key) if key else None
        if entry is None:
            self.notify("Nothing to undo here.", markup=False)
            return
        outbox = self.context.outbox
        refused = outbox.refusal(entry.write)
        if refused is not None:
            self.notify(safe(refused), severity="warning", markup=False)
            return
        notes = outbox.undo_notes(entry)

        def answered(yes: bool | None) -> None:
            if yes:
                self.send_undo(entry)

        question = f"Undo {describe(entry.write)}?"
        acted = entry.where.environment or None
        if kind_of(entry.write).with_environment_key and not self.scope.is_own(acted):
            # A switch back in another environment than the key's (or the key's unknown)
            # asks for that environment's name, as the switch itself did.
            found = self.scope.get(acted)
            name = self.scope.name(acted)

            def accepts(typed: str) -> bool:
                if found is None:
                    return bool(acted) and typed.strip() == acted
                return matches(found, typed)

            self.app.push_screen(
                TypedConfirmScreen(
                    question,
                    " ".join([*notes, f"{name} is not the API key's own environment."]),
                    f"Type the environment's name ({name}) and press Enter:",
                    accepts,
                ),
                answered,
            )
            return
        if not notes:
            self.send_undo(entry)
            return
        self.app.push_screen(ConfirmScreen(question, " ".join(notes), "Undo"), answered)

    @work(group="write", exit_on_error=False)
    async def send_undo(self, entry: Entry) -> None:
        await self.context.outbox.undo(entry.write)
