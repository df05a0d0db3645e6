"""The Preferences view: global first, then each workflow, one column per channel; the
source of each value; critical workflows marked and locked. Space toggles a cell: a
confirmation (future notifications only), then one write through the outbox, and the
grid redrawn from what the service returns.

Opened from a notification with contextKeys it shows that context's records, and
beside them where the no-context ones differ, with decision 125's note; `c` switches
the context."""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message as TextualMessage
from textual.widgets import DataTable, Static

from inboxdesk.client import InboxdeskError
from inboxdesk.core.preferences import (
    CONTEXT_NOTE,
    PreferenceTable,
    Row,
    changed_on,
    check_toggle,
    context_words,
    differences,
    load_table,
    table_of,
)
from inboxdesk.schedule import UTC_NOTE
from inboxdesk.schedule import lines as schedule_lines
from inboxdesk.text import clip, safe
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.messages import Reload
from inboxdesk.tui.preferences.confirm import Answer, PreferenceConfirm
from inboxdesk.tui.preferences.grid import GLOBAL_KEY, PreferenceGrid, row_key
from inboxdesk.tui.preferences.messages import ShowPreferences
from inboxdesk.tui.preferences.schedule_editor import ScheduleEditor
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.tui.widgets.in_place import update_in_place
from inboxdesk.writes import Event, Kind, Sent
from inboxdesk.writes.kinds.preference import FUTURE_ONLY, Toggle, preference_write
from inboxdesk.writes.kinds.schedule import schedule_write

LEGEND = (
    "* the subscriber's own choice; otherwise the workflow's default.  "
    "[critical]: always sent, not changeable."
)
# What the legend adds: the write key, or (read-only) why there is none.
LEGEND_WRITES = "  Space: turn a channel on or off."


def legend(read_only: str | None) -> str:
    if read_only:
        return f"{LEGEND}  Read-only ({read_only}): no change from here."
    return LEGEND + LEGEND_WRITES


class PreferencesLoaded(TextualMessage):
    def __init__(
        self, table: PreferenceTable, timezone: str | None, plain: PreferenceTable | None = None
    ) -> None:
        super().__init__()
        self.table = table
        self.timezone = timezone  # the subscriber's; None: none set, or not read
        self.plain = plain  # the no-context records beside a context's; None: no context


class ContextsSeen(TextualMessage):
    """The contexts of the subscriber's recent notifications, for `c` to offer."""

    def __init__(self, subscriber_id: str, seen: list[tuple[str, ...]]) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.seen = seen


# How many of the subscriber's latest notifications `c` reads for their contexts.
CONTEXTS_READ = 50


class PreferencesScreen(ServiceScreen):
    DEFAULT_CSS = """
    PreferencesScreen PreferenceGrid { height: 1fr; }
    PreferencesScreen #preference-title, PreferencesScreen #preference-cell,
    PreferencesScreen #preference-schedule {
        height: auto; padding: 0 1;
    }
    PreferencesScreen #preference-legend { height: auto; padding: 0 1; color: $text-muted; }
    PreferencesScreen #preference-context { height: auto; padding: 0 1; color: $warning; }
    PreferencesScreen #preference-context.-none { display: none; }
    """
    AUTO_FOCUS = "#preference-grid"
    BINDINGS = [
        Binding(
            "space",
            "toggle_cell",
            "Toggle",
            id="preferences.toggle",
            tooltip="Turn the highlighted channel on or off for the subscriber",
        ),
        Binding(
            "ctrl+r,f5",
            "refresh",
            "Refresh",
            id="preferences.refresh",
            tooltip="Load the preferences again",
        ),
        Binding(
            "Q",
            "edit_schedule",
            "Quiet hours",
            id="preferences.schedule",
            tooltip="Change the subscriber's schedule (quiet hours)",
        ),
        Binding(
            "c",
            "switch_context",
            "Context",
            id="preferences.context",
            tooltip="Show another context's preferences, or none",
        ),
        *view_keys("preferences"),
    ]

    def __init__(
        self,
        context: ViewContext,
        subscriber_id: str,
        workflow: str | None = None,
        channel: str | None = None,
        context_keys: tuple[str, ...] = (),
    ) -> None:
        super().__init__(id="preferences")
        self.context = context
        self.subscriber_id = subscriber_id
        # The context whose records are shown (sorted `type:id` keys); (): none.
        self.context_keys = context_keys
        # Contexts met on the way here (the opening notification's), offered by `c`.
        self.contexts_met: list[tuple[str, ...]] = [context_keys] if context_keys else []
        self.table: PreferenceTable | None = None
        self.timezone: str | None = None
        # Where the cursor goes once the rows are in: (row key, channel).
        self._wanted: tuple[str, str] | None = self._spot(workflow, channel)
        # "Don't ask again this session": this screen lives as long as the session.
        self.ask = True

    @staticmethod
    def _spot(workflow: str | None, channel: str | None) -> tuple[str, str] | None:
        if workflow is None and channel is None:
            return None
        return workflow or GLOBAL_KEY, channel or ""

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="preference-title")
        yield Static(id="preference-context", classes="-none")
        yield PreferenceGrid(id="preference-grid")
        yield Static(id="preference-cell")
        yield Static(id="preference-schedule")
        yield Static(Text(legend(self.context.read_only)), id="preference-legend")
        yield AppFooter()

    def on_mount(self) -> None:
        self.context.writes.subscribe(self, self._write_done)
        self.context.offline.watch(self, self._service_state)
        self.reload()

    @property
    def grid(self) -> PreferenceGrid:
        return self.query_one(PreferenceGrid)

    def _service_state(self, offline: bool) -> None:
        if not offline:
            self.reload()

    def on_reload(self, event: Reload) -> None:
        self.reload()

    def on_show_preferences(self, event: ShowPreferences) -> None:
        spot = self._spot(event.workflow, event.channel)
        if event.context:
            self.contexts_met.append(event.context)
        if (
            event.subscriber_id and event.subscriber_id != self.subscriber_id
        ) or event.context != self.context_keys:
            self.subscriber_id = event.subscriber_id or self.subscriber_id
            self.context_keys = event.context
            self.table = None
            self._wanted = spot
            self.reload()
        elif spot is not None:
            self.grid.put_cursor(*spot)
            self._show_cell()

    def reload(self) -> None:
        where = f" · context {context_words(self.context_keys)}" if self.context_keys else ""
        self.sub_title = clip(f"Preferences · {self.subscriber_id}{where}", 80)
        self.query_one("#preference-title", Static).update(
            Text(
                safe(f"Preferences of {self.subscriber_id}{where}", newlines=False),
                style="bold",
            )
        )
        self.grid.loading = self.table is None
        self.load(self.subscriber_id, self.context_keys)

    @work(exclusive=True, group="preferences", exit_on_error=False)
    async def load(self, subscriber_id: str, context_keys: tuple[str, ...] = ()) -> None:
        client = self.context.client
        try:
            table, timezone, plain = await asyncio.gather(
                load_table(client, subscriber_id, context_keys),
                self._timezone(subscriber_id),
                load_table(client, subscriber_id) if context_keys else asyncio.sleep(0),
            )
        except InboxdeskError as exc:
            self.grid.loading = False
            self.context.report(exc)
            return
        self.post_message(PreferencesLoaded(table, timezone, plain))

    async def _timezone(self, subscriber_id: str) -> str | None:
        """The subscriber's timezone, for the schedule; None where it cannot be read (the
        schedule is then said in UTC, with the note)."""
        try:
            return (await self.context.client.get_subscriber(subscriber_id)).timezone
        except InboxdeskError:
            return None

    def on_preferences_loaded(self, event: PreferencesLoaded) -> None:
        if (
            event.table.subscriber_id != self.subscriber_id
            or event.table.context != self.context_keys
        ):
            return  # an answer for a subscriber or context no longer shown
        for said in event.table.said:
            self.notify(safe(said), severity="warning", markup=False)
        self.timezone = event.timezone
        self._show(event.table)
        self._show_context(event.table, event.plain)

    def _show_context(self, table: PreferenceTable, plain: PreferenceTable | None) -> None:
        """The context shown, decision 125's note, and where the no-context records
        differ (or that they do not)."""
        box = self.query_one("#preference-context", Static)
        box.set_class(not table.context or plain is None, "-none")
        if not table.context or plain is None:
            return  # hidden: what it said last is never seen
        lines = [f"Context {context_words(table.context)}: {CONTEXT_NOTE}."]
        found = differences(table, plain)
        lines += [f"Beside no context: {line}" for line in found] or [
            "Beside no context: the same channels."
        ]
        lines.append("c: switch context.")
        box.update(Text(safe("\n".join(lines))))

    def _show(self, table: PreferenceTable) -> None:
        keep = self._wanted or self._cursor()
        self._wanted = None
        self.table = table
        self.grid.loading = False
        self.grid.show(table, keep)
        self._show_cell()
        said = "\n".join(schedule_lines(table.schedule, self.timezone))
        self.query_one("#preference-schedule", Static).update(
            Text(f"{said}\nQ: change the quiet hours.")
        )

    def _cursor(self) -> tuple[str, str] | None:
        key, channel = self.grid.cursor_key, self.grid.cursor_channel
        return None if key is None else (key, channel or "")

    def _current(self) -> tuple[Row, str | None] | None:
        key = self.grid.cursor_key
        if self.table is None or key is None:
            return None
        row = self.table.row("" if key == GLOBAL_KEY else key)
        return None if row is None else (row, self.grid.cursor_channel)

    def _show_cell(self) -> None:
        found = self._current()
        words = ""
        if found is not None:
            row, channel = found
            cell = row.cells.get(channel or "")
            if channel is None:
                words = f"{row.name}: move to a channel's column."
            elif cell is None:
                words = f"{row.name} sends no {channel}."
            elif row.critical:
                words = f"{row.name} · {channel}: {cell.mark}, always sent."
            else:
                words = f"{row.name} · {channel}: {cell.words(row.workflow)}."
            if row.updated_at:
                words += f" This workflow's choices last changed on {changed_on(row.updated_at)}."
        update_in_place(
            self.query_one("#preference-cell", Static), Text(safe(words, newlines=False))
        )

    @on(DataTable.CellHighlighted, "#preference-grid")
    def _highlighted(self, event: DataTable.CellHighlighted) -> None:
        self._show_cell()

    def action_refresh(self) -> None:
        self.reload()

    def action_switch_context(self) -> None:
        self.read_contexts(self.subscriber_id)

    @work(exclusive=True, group="contexts", exit_on_error=False)
    async def read_contexts(self, subscriber_id: str) -> None:
        """The contexts of the subscriber's latest notifications; a read that fails
        costs those only (the picker still offers none, those met, and typing one)."""
        from inboxdesk.client.activity import ActivityFilter

        seen: list[tuple[str, ...]] = []
        try:
            page = await self.context.client.activity(
                ActivityFilter(subscriber_ids=[subscriber_id]), limit=CONTEXTS_READ
            )
            seen = [tuple(sorted(set(n.context_keys or ()))) for n in page.data]
        except InboxdeskError as exc:
            self.notify(
                safe(f"The subscriber's contexts could not be read: {exc.message}"),
                severity="warning",
                markup=False,
            )
        self.post_message(ContextsSeen(subscriber_id, seen))

    def on_contexts_seen(self, event: ContextsSeen) -> None:
        if event.subscriber_id != self.subscriber_id:
            return
        from inboxdesk.tui.preferences.context_picker import ContextPicker

        def chosen(context: tuple[str, ...] | None) -> None:
            if context is not None and context != self.context_keys:
                self.context_keys = context
                self.table = None
                self.reload()

        picker = ContextPicker([*self.contexts_met, *event.seen], self.context_keys)
        self.app.push_screen(picker, chosen)

    def _context_refused(self) -> bool:
        """The schedule is changed in the no-context records alone: with a context
        shown, say so and change nothing (a change goes to the records it was read
        from)."""
        if not self.context_keys:
            return False
        self.notify(
            "These are a context's quiet hours: inboxdesk changes the no-context ones only. "
            "Press c and choose no context to change those.",
            severity="warning",
            markup=False,
        )
        return True

    def action_toggle_cell(self) -> None:
        found = self._current()
        if found is None or self.table is None:
            return
        row, channel = found
        cell = row.cells.get(channel or "")
        if cell is None:
            self.notify(safe(f"{row.name} sends no {channel}."), severity="warning", markup=False)
            return
        toggle = check_toggle(self.table, row.workflow or None, channel or "", not cell.on)
        if isinstance(toggle, str):
            self.notify(safe(toggle), severity="warning", markup=False)
            return
        before = cell.before
        if not self.ask:
            self.send(toggle, before)
            return
        state = "on" if toggle.on else "off"
        question = f"Turn {toggle.channel} {state} for {toggle.where}?"
        detail = f"For {self.subscriber_id}. {FUTURE_ONLY}"
        if self.context_keys:
            words = context_words(self.context_keys)
            question = f"Turn {toggle.channel} {state} for {toggle.where} in context {words}?"
            detail += f" Only notifications of exactly this context read it ({CONTEXT_NOTE})."

        def answered(answer: Answer | None) -> None:
            yes, stop_asking = answer or (False, False)
            if yes:
                self.ask = self.ask and not stop_asking
                self.send(toggle, before)

        self.app.push_screen(PreferenceConfirm(question, detail), answered)

    @work(group="write", exit_on_error=False)
    async def send(self, toggle: Toggle, before: tuple[bool, bool] | None) -> None:
        write = preference_write(self.subscriber_id, toggle, before, context=self.context_keys)
        await self.context.outbox.submit(write)

    def action_edit_schedule(self) -> None:
        if self.table is None or self._context_refused():
            return
        zone = f"in {self.timezone}" if self.timezone else UTC_NOTE
        before = self.table.schedule

        def chosen(wanted: dict[str, Any] | None) -> None:
            if wanted is not None:
                self.send_schedule(wanted, before)

        self.app.push_screen(ScheduleEditor(self.subscriber_id, before, zone), chosen)

    @work(group="write", exit_on_error=False)
    async def send_schedule(self, wanted: dict[str, Any], before: dict[str, Any] | None) -> None:
        await self.context.outbox.submit(schedule_write(self.subscriber_id, wanted, before))

    def _write_done(self, event: Event) -> None:
        """Any preference write of this subscriber (this view's, or an undo from
        History): the grid redrawn from the listing the service returned."""
        write = event.write
        if write.kind is Kind.SCHEDULE and write.target == self.subscriber_id:
            if isinstance(event, Sent):
                self.reload()  # the schedule, as the service now has it
            return
        if write.kind is not Kind.PREFERENCE or write.target != self.subscriber_id:
            return
        if self.context_keys or write.context:
            # Beside a context, both its records and the no-context ones are shown.
            self.reload()
            return
        if not isinstance(event, Sent) or event.result.preferences is None:
            return  # queued or failed: the app said so; the grid keeps the service's state
        answered = table_of(self.subscriber_id, event.result.preferences, None)
        # The answer lists the changeable workflows only: the critical rows are kept.
        critical = tuple(r for r in (self.table.rows if self.table else ()) if r.critical)
        self._show(answered.with_rows(critical + answered.rows))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.context.allows(action):
            return False  # read-only: a preference change is a write, not bound
        if action in ("toggle_cell", "edit_schedule"):
            return True if self.table is not None else None
        return True


__all__ = ["PreferencesScreen", "row_key"]
