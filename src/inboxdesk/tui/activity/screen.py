"""The Activity view (`4`): the current subscriber's notifications across every channel,
newest first; each row shows when, the workflow, one glyph per job with its status and
the cause in words (delivery.py). Filters: failed only (`f`, a scan of pages of 50, as
production has no such filter), a channel (`c`), a workflow or transactionId (`/`).
Enter opens the notification's timeline.

`a` widens the view to every subscriber of the environment (the last 24 hours, a scan
bounded by `scan_pages` that says how much it read) and back; `b` groups what was
scanned by cause x channel x provider x code (core/delivery/grouping.py, the groups of
`inboxdesk activity --by cause`), the groups growing as pages arrive. Enter on a group
lists its notifications; Enter on one of them opens its timeline. `L` follows the feed
(core/delivery/follow.py): page 0 again and again, new rows on top, `● live` in the
status line, `⏸ paused` while the cursor is away from the top row."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message as TextualMessage
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static
from textual.worker import Worker, WorkerState

from inboxdesk.client.activity import MAX_PAGE, ActivityFilter
from inboxdesk.client.errors import InboxdeskError, transient
from inboxdesk.client.feed import FeedFilter, FeedScan, scan_feed
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.follow_feed import FAST, Follow
from inboxdesk.core.delivery.grouping import Group, Grouping, GroupKey
from inboxdesk.core.views import window_delta
from inboxdesk.delivery import (
    glyph,
    job_causes,
    notification_cause,
    preference_behind,
)
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import clip, plural, safe
from inboxdesk.tui.activity.timeline import GLYPH_STYLE, open_delivery, show_timeline
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.messages import OpenPreferences
from inboxdesk.tui.screens.shown_again import ShownAgain
from inboxdesk.tui.subscriber.keys import subscriber_key
from inboxdesk.tui.view_keys import view_keys
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.tui.widgets.in_place import update_in_place
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


class ShowFilters(TextualMessage):
    """Show these filters at once (a `:activity` line or a saved view): one subscriber or
    everyone over `window`, failed only, a channel, a workflow, grouped or not."""

    def __init__(
        self,
        subscriber_id: str | None,
        window: str | None = None,
        failed: bool = False,
        channel: str | None = None,
        workflow: str | None = None,
        grouped: bool = False,
    ) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.window = window
        self.failed = failed
        self.channel = channel
        self.workflow = workflow
        self.grouped = grouped


class ScanPage(TextualMessage):
    """A page of a scan across subscribers (or grouped): what it kept, and how far."""

    def __init__(
        self, generation: int, kept: list[ActivityNotification], scan: FeedScan, done: bool
    ) -> None:
        super().__init__()
        self.generation = generation
        self.kept = kept
        self.scanned = scan.scanned
        self.pages = scan.pages
        self.bounded = scan.bounded
        self.done = done
        self.next_page: int | None = None


class FollowPage(TextualMessage):
    """Page 0 of the followed feed, as kept by the filters."""

    def __init__(self, generation: int, kept: list[ActivityNotification]) -> None:
        super().__init__()
        self.generation = generation
        self.kept = kept


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


GROUP_COLUMNS = (
    "Count",
    "Cause",
    "Channel",
    "Provider",
    "Code",
    "First",
    "Last",
    "Workflows",
    "Examples",
)


class GroupTable(KeyedTable):
    """The groups, largest first; rebuilt whole as pages arrive (they are few)."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for label in GROUP_COLUMNS:
            self.add_column(label, key=label.lower())

    def show(self, groups: list[Group]) -> None:
        at = self.cursor_row
        self.clear()
        for n, group in enumerate(groups):
            self.add_row(
                f"{group.count:,}",
                Text(str(group.key.cause), style="red" if group.failed else ""),
                safe(group.key.channel, newlines=False),
                clip(group.key.provider_id, 12),
                clip(group.key.code, 16),
                safe(group.first_seen[5:16].replace("T", " "), newlines=False),
                safe(group.last_seen[5:16].replace("T", " "), newlines=False),
                clip(", ".join(group.top_workflows()), 24),
                clip(", ".join(group.examples), 30),
                key=str(n),
            )
        if groups:
            self.move_cursor(row=min(max(at, 0), len(groups) - 1))


class ActivityScreen(ShownAgain, Screen[None]):
    AUTO_FOCUS = "#activity-table"
    # The notification under the cursor, whose cause the strip below the table shows.
    highlighted: var[str | None] = var(None, init=False)
    # Seconds between asks while following and rows keep coming (tests shorten it).
    follow_fast = FAST
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
            "a",
            "toggle_everyone",
            "Everyone",
            id="activity.everyone",
            tooltip="Every subscriber of the environment (last 24 h), or back to this one",
        ),
        Binding(
            "L",
            "toggle_follow",
            "Follow",
            id="activity.follow",
            tooltip="Follow the feed: new notifications on top as they come (● live), or stop",
        ),
        Binding(
            "b",
            "toggle_grouped",
            "By cause",
            id="activity.group",
            tooltip="Group by cause, channel, provider and code; Enter lists a group",
        ),
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
        # Every subscriber of the environment, not only the current one, over `window`.
        self.everyone = False
        self.window = "24h"
        # Grouped by cause; `group` is the one whose notifications are listed.
        self.grouped = False
        self.grouping = Grouping()
        self.groups: list[Group] = []
        self.group: GroupKey | None = None
        self.scan_words = ""
        # Read by the scans before the current one (`m` goes on from where one stopped).
        self.scanned_before = 0
        # Following: page 0 asked again and again; paused while away from the top row.
        self.following = False
        self.paused = False
        self.follow = Follow()

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static(id="activity-state")
        yield ActivityTable(id="activity-table")
        yield GroupTable(id="activity-groups")
        yield Static(id="activity-cause")
        yield Input(placeholder="workflow:NAME, or a transactionId", id="activity-filter")
        yield AppFooter()

    def on_mount(self) -> None:
        self.sub_title = "Activity"
        self.query_one("#activity-filter", Input).display = False
        self.query_one(GroupTable).display = False

    @property
    def table(self) -> ActivityTable:
        return self.query_one(ActivityTable)

    def on_open_activity(self, event: OpenActivity) -> None:
        if event.subscriber_id != self.subscriber_id or not self.items:
            self.subscriber_id = event.subscriber_id
            self.reload()

    def on_show_filters(self, event: ShowFilters) -> None:
        self.everyone = event.subscriber_id is None
        if event.subscriber_id is not None:
            self.subscriber_id = event.subscriber_id
        self.window = event.window or "24h"
        self.filters = Filters(event.failed, event.channel, event.workflow)
        self.grouped = event.grouped
        self.reload()

    def _say(self, extra: str = "") -> None:
        if self.everyone:
            who = f"every subscriber · last {self.window[:-1]} {self.window[-1]}"
        else:
            who = safe(self.subscriber_id or "no subscriber", newlines=False)
        shown = plural(len(self.items), "notification")
        if self.grouped and self.group is None:
            shown = f"{plural(len(self.groups), 'group')} of {shown}"
        elif self.grouped:
            found = next((g for g in self.groups if g.key == self.group), None)
            label = safe(found.label, newlines=False) if found else ""
            shown = f"group {label}: {plural(found.count if found else 0, 'notification')}"
        more = " · m for more" if self.next_page is not None else ""
        scanned = f" · {self.scan_words}" if self.scan_words else ""
        if self.following:
            who = f"{'⏸ paused' if self.paused else '● live'} · {who}"
        text = f"{who} · {self.filters.words()} · {shown}{scanned}{more}{extra}"
        update_in_place(self.query_one("#activity-state", Static), Text(clip(text, 200)))

    def _wanted(self) -> ActivityFilter:
        f = self.filters
        workflow = self.workflows.get(f.workflow) if f.workflow else None
        return ActivityFilter(
            subscriber_ids=[self.subscriber_id] if self.subscriber_id else (),
            transaction_ids=[f.transaction_id] if f.transaction_id else (),
            channels=[f.channel] if f.channel else (),
            workflows=[workflow] if workflow else (),
        )

    def _feed_wanted(self) -> FeedFilter:
        """The filters as the feed across subscribers takes them."""
        plain = self._wanted()
        after = None
        if self.everyone:
            after = (self.context.clock() - window_delta(self.window)).isoformat()
        return FeedFilter(
            subscriber_ids=() if self.everyone else plain.subscriber_ids,
            transaction_ids=plain.transaction_ids,
            channels=plain.channels,
            workflows=plain.workflows,
            # A workflow by name not among those seen yet: matched on what is read.
            workflow_names=(self.filters.workflow,)
            if self.filters.workflow and not plain.workflows
            else (),
            after=after,
            failed=self.filters.failed,
        )

    def reload(self) -> None:
        self._generation += 1
        self.items = {}
        self.next_page = None
        self.highlighted = None
        self.grouping = Grouping(self._wanted().channels)
        self.groups = []
        self.group = None
        self.scan_words = ""
        self.scanned_before = 0
        self.table.clear()
        self.query_one(GroupTable).clear()
        self._show_tables()
        self._say(" · loading…")
        if self.everyone or self.grouped:
            self.scan(self._generation, 0)
        else:
            self.load(self._generation, 0, append=False)

    def _show_tables(self) -> None:
        """The groups when grouped and no group is open; the notifications otherwise."""
        groups = self.grouped and self.group is None
        self.query_one(GroupTable).display = groups
        self.table.display = not groups
        (self.query_one(GroupTable) if groups else self.table).focus()

    @work(exclusive=True, group="activity", exit_on_error=False)
    async def scan(self, generation: int, page: int) -> None:
        """A scan across subscribers (or grouped), page by page: the rows and the groups
        grow as each page arrives. Listed, it stops at a screenful kept; grouped, it reads
        the whole bounded scan."""
        if self.subscriber_id is None and not self.everyone:
            return
        client = self.context.client

        def heard(kept: list[ActivityNotification], so_far: FeedScan) -> None:
            self.post_message(ScanPage(generation, kept, so_far, done=False))

        found = await scan_feed(
            client,
            self._feed_wanted(),
            on_page=heard,
            limit=None if self.grouped else MAX_PAGE,
            start=page,
        )
        last = ScanPage(generation, [], found, done=True)
        last.next_page = page + found.pages if found.bounded and not self.grouped else None
        self.post_message(last)

    def on_scan_page(self, event: ScanPage) -> None:
        if event.generation != self._generation:
            return
        fresh = [n for n in event.kept if n.id not in self.items]
        for n in fresh:
            self.items[n.id] = n
        self.grouping.add(fresh)
        if event.done:
            self.next_page = event.next_page
        # Counted from the first page of the view, not of this `m`'s scan.
        read = self.scanned_before + event.scanned
        if event.done:
            self.scanned_before = read
            self.scan_words = FeedScan(scanned=read, bounded=event.bounded).summary()
        else:
            self.scan_words = f"read {read:,}…"
        if self.grouped:
            self.groups = self.grouping.groups()
            self.query_one(GroupTable).show(self.groups)
        elif fresh:
            self.table.add(fresh, self.size.width)
        self._say()

    @on(DataTable.RowSelected, "#activity-groups")
    def _group_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is None or not 0 <= int(key) < len(self.groups):
            return
        chosen = self.groups[int(key)]
        self.group = chosen.key
        self.table.clear()
        self.table.add(chosen.notifications, self.size.width)
        self._show_tables()
        self._say()

    def _now(self) -> float:
        return self.context.clock().timestamp()

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        self.paused = False
        if self.following:
            self.follow = Follow(fast=self.follow_fast)
            self.follow.start(list(self.items.values()), self._now())
            self.follow_feed()
        else:
            self.workers.cancel_group(self, "follow")
        self._say()

    @work(exclusive=True, group="follow", exit_on_error=False)
    async def follow_feed(self) -> None:
        """Page 0 of the feed, again and again while following (not while paused), at
        the pace `Follow` sets."""
        failing = False
        while self.following:
            if not self.paused and (self.everyone or self.subscriber_id is not None):
                generation = self._generation
                wanted = self._feed_wanted()
                try:
                    page = await self.context.client.activity(wanted, 0, MAX_PAGE)
                except InboxdeskError as error:
                    if not transient(error):
                        raise  # a refusal that asking again will not change: said, stopped
                    # Away or "not now": said once, and asked again at the follow's pace
                    # (decision 108: it never stops by itself).
                    if not failing:
                        self.context.report(error)
                    failing = True
                else:
                    failing = False
                    kept = [n for n in page.data if wanted.keeps(n)]
                    self.post_message(FollowPage(generation, kept))
            await asyncio.sleep(self.follow.interval(self._now()))

    def on_follow_page(self, event: FollowPage) -> None:
        if event.generation != self._generation or not self.following or self.paused:
            return
        fresh = [n for n in event.kept if n.id not in self.items]
        if not fresh:
            return
        # The rows shown are the ring's base (a reload or `m` may have changed them).
        self.follow.rows = list(self.items.values())
        self.follow.merge(fresh, self._now())
        # Live means at the top: the list is rebuilt, newest first, and the ring bounds it.
        self.items = {n.id: n for n in self.follow.rows}
        self.grouping.add(fresh)
        if self.grouped and self.group is None:
            self.groups = self.grouping.groups()
            self.query_one(GroupTable).show(self.groups)
        elif not self.grouped:
            self.table.clear()
            self.table.add(self.follow.rows, self.size.width)
        self._say()

    @on(Worker.StateChanged)
    def _worker_ended(self, event: Worker.StateChanged) -> None:
        """A read that failed (a 402, a 422, the service away): the state line says so
        instead of "loading…", a follow that stopped drops its marker, and the failure
        goes to the app's one report (Worker.StateChanged does not bubble)."""
        if event.state != WorkerState.ERROR:
            return
        if event.worker.group == "follow":
            self.following = False
        error = event.worker.error
        why = f": {error.message}" if isinstance(error, InboxdeskError) else ""
        self._say(f" · not read{why}")
        self.app.post_message(Worker.StateChanged(event.worker, event.state))

    def action_toggle_everyone(self) -> None:
        self.everyone = not self.everyone
        self.reload()

    def action_toggle_grouped(self) -> None:
        if self.grouped and self.group is not None:
            # From a group's notifications back to the groups.
            self.group = None
            self._show_tables()
            self._say()
            return
        self.grouped = not self.grouped
        self.reload()

    @work(exclusive=True, group="activity", exit_on_error=False)
    async def load(self, generation: int, page: int, append: bool) -> None:
        if self.subscriber_id is None:
            return
        client = self.context.client
        if self.filters.failed:

            def progress(read: int, kept: int) -> None:
                self._say(f" · read {plural(read, 'notification')}, {kept:,} did not arrive…")

            scan = await finding.scan(
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
        # Away from the top row, following pauses by itself; back on it, it goes on.
        paused = event.cursor_row > 0
        if self.following and paused != self.paused:
            self.paused = paused
            self._say()

    def watch_highlighted(self, notification_id: str | None) -> None:
        """The strip under the table: the highlighted row's cause whole, wrapped, where
        the table's column has room for a fraction of it."""
        found = self.items.get(notification_id) if notification_id else None
        strip = self.query_one("#activity-cause", Static)
        if found is None:
            update_in_place(strip, "")
            return
        cause = notification_cause(found)
        style = "red" if cause.failed else ""
        update_in_place(strip, Text(safe(cause.words, newlines=False), style=style))

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
        if self.grouped and self.group is not None:
            self.action_toggle_grouped()
            return
        if self.filters != Filters():
            self.filters = Filters()
            self.reload()

    def action_more(self) -> None:
        if self.next_page is None:
            self.notify("That is every notification.", markup=False)
            return
        self._say(" · loading more…")
        if self.everyone or self.grouped:
            self.scan(self._generation, self.next_page)
        else:
            self.load(self._generation, self.next_page, append=True)

    def action_refresh(self) -> None:
        self.reload()
