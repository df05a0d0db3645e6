"""The Activity view (`4`): the current subscriber's notifications across every channel,
newest first; each row shows when, the workflow, one glyph per job with its status and
the cause in words (delivery.py). Filters: failed only (`f`, a scan of pages of 50, as
production has no such filter), a channel (`c`), a workflow or transactionId (`/`).
Enter opens the notification's timeline."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from inboxdesk.client import activity
from inboxdesk.client.activity import MAX_PAGE, ActivityFilter
from inboxdesk.delivery import glyph, job_causes, notification_cause, preference_behind
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import clip, plural, safe
from inboxdesk.tui.activity.timeline import GLYPH_STYLE, open_delivery, show_timeline
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.messages import OpenPreferences
from inboxdesk.tui.subscriber.keys import subscriber_key
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.tui.widgets.keyed_table import KeyedTable

CHANNELS = (None, "in_app", "email", "sms", "chat", "push", "tool")
SHORT = {
    "in_app": "in",
    "email": "em",
    "sms": "sm",
    "chat": "ch",
    "push": "pu",
    "tool": "to",
    "digest": "dg",
    "delay": "dl",
    "throttle": "th",
    "custom": "cu",
    "http_request": "ht",
}


@dataclass(frozen=True)
class Filters:
    failed: bool = False
    channel: str | None = None
    workflow: str | None = None  # a name, matched to the workflows' ids seen
    transaction_id: str | None = None

    def words(self) -> str:
        parts = ["failed only" if self.failed else "all"]
        if self.channel:
            parts.append(f"channel {self.channel}")
        if self.workflow:
            parts.append(f"workflow {self.workflow}")
        if self.transaction_id:
            parts.append(f"transaction {self.transaction_id}")
        return " · ".join(parts)


class OpenActivity(TextualMessage):
    """Show this subscriber's activity (the app sends it when the view opens)."""

    def __init__(self, subscriber_id: str) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id


class ActivityLoaded(TextualMessage):
    def __init__(
        self,
        generation: int,
        found: list[ActivityNotification],
        next_page: int | None,
        append: bool,
    ) -> None:
        super().__init__()
        self.generation = generation
        self.found = found
        self.next_page = next_page
        self.append = append


def jobs_cell(notification: ActivityNotification) -> Text:
    out = Text()
    for job, found in job_causes(notification):
        mark = glyph(found)
        if out:
            out.append(" ")
        out.append(mark, style=GLYPH_STYLE.get(mark, ""))
        out.append(SHORT.get(str(job.type), safe(str(job.type)[:2], newlines=False)))
    return out


class ActivityTable(KeyedTable):
    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for label in ("When", "Workflow", "Jobs", "Cause"):
            self.add_column(label, key=label.lower())

    def add(self, found: list[ActivityNotification], width: int) -> None:
        cause_width = max(20, width - 11 - 18 - 20 - 8)
        for n in found:
            cause = notification_cause(n)
            self.add_row(
                safe((n.created_at or "")[5:16].replace("T", " "), newlines=False),
                clip(n.workflow_name, 18),
                jobs_cell(n),
                Text(clip(cause.words, cause_width), style="red" if cause.failed else ""),
                key=n.id,
            )


class ActivityScreen(Screen[None]):
    AUTO_FOCUS = "#activity-table"
    # The notification under the cursor, whose cause the strip below the table shows.
    highlighted: reactive[str | None] = reactive(None, init=False)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f",
            "toggle_failed",
            "Failed only",
            id="activity.failed",
            tooltip="Only what did not arrive (scans pages of 50)",
        ),
        Binding(
            "c",
            "next_channel",
            "Channel",
            id="activity.channel",
            tooltip="Cycle the channel filter: all, in-app, email, sms, chat, push, tool",
        ),
        Binding(
            "slash",
            "filter_text",
            "Filter",
            id="activity.filter",
            tooltip="Filter by workflow:NAME or a transactionId",
        ),
        Binding(
            "escape", "clear_filters", "Clear", id="activity.clear", tooltip="Clear every filter"
        ),
        Binding("m", "more", "More", id="activity.more", tooltip="Load the next page"),
        Binding(
            "ctrl+g",
            "go_to",
            "Go to",
            id="activity.go_to",
            tooltip="Open a notification's timeline by its transactionId or id",
        ),
        Binding("ctrl+r,f5", "refresh", "Refresh", id="activity.refresh", tooltip="Read again"),
        *view_keys("activity"),
        subscriber_key("activity"),
        Binding(
            "5",
            "show_preferences",
            "Preferences",
            id="activity.preferences",
            tooltip="Preferences; on a step a preference canceled, that workflow and channel",
        ),
    ]

    def __init__(self, context: ViewContext) -> None:
        super().__init__(id="activity")
        self.context = context
        self.subscriber_id: str | None = None
        self.filters = Filters()
        self.items: dict[str, ActivityNotification] = {}
        self.next_page: int | None = None
        self._generation = 0
        self._going = False  # the text box asks for a notification to go to
        # Workflow names seen, and their ids: the feed filters by id.
        self.workflows: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="activity-state")
        yield ActivityTable(id="activity-table")
        yield Static(id="activity-cause")
        yield Input(placeholder="workflow:NAME, or a transactionId", id="activity-filter")
        yield AppFooter()

    def on_mount(self) -> None:
        self.sub_title = "Activity"
        self.query_one("#activity-filter", Input).display = False

    @property
    def table(self) -> ActivityTable:
        return self.query_one(ActivityTable)

    def on_open_activity(self, event: OpenActivity) -> None:
        if event.subscriber_id != self.subscriber_id or not self.items:
            self.subscriber_id = event.subscriber_id
            self.reload()

    def _say(self, extra: str = "") -> None:
        who = safe(self.subscriber_id or "no subscriber", newlines=False)
        shown = plural(len(self.items), "notification")
        more = " · m for more" if self.next_page is not None else ""
        text = f"{who} · {self.filters.words()} · {shown}{more}{extra}"
        self.query_one("#activity-state", Static).update(Text(clip(text, 200)))

    def _wanted(self) -> ActivityFilter:
        f = self.filters
        workflow = self.workflows.get(f.workflow) if f.workflow else None
        return ActivityFilter(
            subscriber_ids=[self.subscriber_id] if self.subscriber_id else (),
            transaction_ids=[f.transaction_id] if f.transaction_id else (),
            channels=[f.channel] if f.channel else (),
            workflows=[workflow] if workflow else (),
        )

    def reload(self) -> None:
        self._generation += 1
        self.items = {}
        self.next_page = None
        self.highlighted = None
        self.table.clear()
        self._say(" · loading…")
        self.load(self._generation, 0, append=False)

    @work(exclusive=True, group="activity", exit_on_error=False)
    async def load(self, generation: int, page: int, append: bool) -> None:
        if self.subscriber_id is None:
            return
        client = self.context.client
        if self.filters.failed:

            def progress(read: int, kept: int) -> None:
                self._say(f" · read {plural(read, 'notification')}, {kept:,} did not arrive…")

            scan = await activity.scan(
                client, self._wanted(), limit=MAX_PAGE, start=page, progress=progress
            )
            found, following, said = scan.found, scan.next_page, scan.said
        else:
            listed = await client.activity(self._wanted(), page, MAX_PAGE)
            found, said = listed.data, listed.said
            following = page + 1 if listed.has_more else None
        for line in said:
            self.notify(safe(line), severity="warning", timeout=10, markup=False)
        self.post_message(ActivityLoaded(generation, found, following, append))

    def on_activity_loaded(self, event: ActivityLoaded) -> None:
        if event.generation != self._generation:
            return
        # Each id once, whatever the service sent: the table keys its rows by id.
        fresh = list({n.id: n for n in event.found if n.id not in self.items}.values())
        for n in fresh:
            self.items[n.id] = n
            if n.template is not None and n.template.id and n.template.name:
                self.workflows.setdefault(n.template.name, n.template.id)
        self.next_page = event.next_page
        self.table.add(fresh, self.size.width)
        self._say()

    @on(DataTable.RowHighlighted, "#activity-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        self.highlighted = str(key) if key is not None else None

    def watch_highlighted(self, notification_id: str | None) -> None:
        """The strip under the table: the highlighted row's cause whole, wrapped, where
        the table's column has room for a fraction of it."""
        found = self.items.get(notification_id) if notification_id else None
        strip = self.query_one("#activity-cause", Static)
        if found is None:
            strip.update("")
            return
        cause = notification_cause(found)
        strip.update(Text(safe(cause.words, newlines=False), style="red" if cause.failed else ""))

    @on(DataTable.RowSelected, "#activity-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        found = self.items.get(str(key)) if key is not None else None
        if found is not None:
            show_timeline(self.app, self.context, found)

    def action_show_preferences(self) -> None:
        """Preferences of this subscriber; on a row a preference canceled, the cursor on
        that workflow's (or the global) channel."""
        row = self.table.cursor_row
        keys = list(self.table.rows)
        found = self.items.get(str(keys[row].value)) if 0 <= row < len(keys) else None
        spot = preference_behind(found) if found is not None else None
        self.post_message(
            OpenPreferences(
                self.subscriber_id,
                spot.workflow if spot else None,
                spot.channel if spot else None,
            )
        )

    def action_show_subscriber(self) -> None:
        """The highlighted notification's subscriber (else this view's), the cursor on
        the field its failure names."""
        from inboxdesk.tui.subscriber.keys import OpenSubscriberView, field_behind

        row = self.table.cursor_row
        keys = list(self.table.rows)
        found = self.items.get(str(keys[row].value)) if 0 <= row < len(keys) else None
        who = found.subscriber.subscriber_id if found is not None and found.subscriber else None
        field = field_behind(found) if found is not None else None
        self.post_message(OpenSubscriberView(who or self.subscriber_id, field))

    def action_toggle_failed(self) -> None:
        self.filters = replace(self.filters, failed=not self.filters.failed)
        self.reload()

    def action_next_channel(self) -> None:
        at = CHANNELS.index(self.filters.channel)
        self.filters = replace(self.filters, channel=CHANNELS[(at + 1) % len(CHANNELS)])
        self.reload()

    def action_filter_text(self, going: bool = False) -> None:
        self._going = going
        field = self.query_one("#activity-filter", Input)
        field.placeholder = (
            "go to: a transactionId or notification id"
            if going
            else "workflow:NAME, or a transactionId"
        )
        field.display = True
        field.focus()

    def action_go_to(self) -> None:
        self.action_filter_text(going=True)

    @on(Input.Submitted, "#activity-filter")
    def _filtered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        field = self.query_one("#activity-filter", Input)
        field.display = False
        field.value = ""
        self.table.focus()
        if self._going:
            if text:
                open_delivery(self, self.context, self.subscriber_id, text)
            return
        if text.lower().startswith("workflow:"):
            name = text.split(":", 1)[1].strip()
            if name and name not in self.workflows:
                self.notify(
                    safe(
                        f"No workflow named {name} among the notifications listed.", newlines=False
                    ),
                    severity="warning",
                    markup=False,
                )
                return
            self.filters = replace(self.filters, workflow=name or None)
        else:
            self.filters = replace(self.filters, transaction_id=text or None)
        self.reload()

    def action_clear_filters(self) -> None:
        field = self.query_one("#activity-filter", Input)
        if field.display:
            field.display = False
            self.table.focus()
            return
        if self.filters != Filters():
            self.filters = Filters()
            self.reload()

    def action_more(self) -> None:
        if self.next_page is None:
            self.notify("That is every notification.", markup=False)
            return
        self._say(" · loading more…")
        self.load(self._generation, self.next_page, append=True)

    def action_refresh(self) -> None:
        self.reload()
