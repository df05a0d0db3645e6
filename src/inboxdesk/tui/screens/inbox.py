"""The inbox of one subscriber: paged messages, detail pane, marking and undo."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message as TextualMessage
from textual.widgets import DataTable, Footer, Header, Input, Static, Tab, Tabs

from inboxdesk.client import InboxdeskError, MarkResult, NotFoundError
from inboxdesk.models import MarkAs, Message, Subscriber
from inboxdesk.tui.inbox_state import Change, FeedFilter, InboxState, Row, undo_steps
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.widgets.message_detail import MessageDetail
from inboxdesk.tui.widgets.message_table import MessageTable
from inboxdesk.tui.widgets.subscriber_header import SubscriberHeader

PAGE_SIZE = 100  # the most the feed gives in one page
# Load the next page when the cursor is this close to the last loaded row.
PREFETCH_ROWS = 15
MARK_ACTIONS = {"mark_read", "mark_unread", "mark_seen", "mark_unseen"}


class PageLoaded(TextualMessage):
    def __init__(
        self,
        generation: int,
        page: int,
        items: list[Message],
        has_more: bool,
        total: int | None,
        keep: str | None,
    ) -> None:
        super().__init__()
        self.keep = keep
        self.generation = generation
        self.page = page
        self.items = items
        self.has_more = has_more
        self.total = total


class Marked(TextualMessage):
    def __init__(self, mark_as: MarkAs, result: MarkResult, change: Change | None) -> None:
        super().__init__()
        self.mark_as = mark_as
        self.result = result
        self.change = change


class InboxScreen(ServiceScreen):
    """A subscriber's in-app messages; every key calls the service through the client."""

    AUTO_FOCUS = "#messages"

    BINDINGS = [
        Binding(
            "r",
            "mark_read",
            "Read",
            id="inbox.mark_read",
            tooltip="Mark the highlighted message (or the selection) read",
        ),
        Binding(
            "u",
            "mark_unread",
            "Unread",
            id="inbox.mark_unread",
            tooltip="Mark the highlighted message (or the selection) unread",
        ),
        Binding(
            "s",
            "mark_seen",
            "Seen",
            id="inbox.mark_seen",
            tooltip="Mark the highlighted message (or the selection) seen",
        ),
        Binding(
            "S",
            "mark_unseen",
            "Unseen",
            id="inbox.mark_unseen",
            tooltip="Mark the highlighted message (or the selection) unseen",
        ),
        Binding(
            "A",
            "mark_all_read",
            "All read",
            id="inbox.mark_all_read",
            tooltip="Mark every in-app message of this subscriber read",
        ),
        Binding(
            "space",
            "toggle_select",
            "Select",
            id="inbox.toggle_select",
            tooltip="Add or remove the highlighted message from the selection",
        ),
        Binding(
            "asterisk",
            "select_all",
            "Select all",
            id="inbox.select_all",
            show=False,
            tooltip="Select every loaded message that the filter shows",
        ),
        Binding(
            "escape",
            "clear_selection",
            "Clear",
            id="inbox.clear_selection",
            tooltip="Empty the selection (or close the text filter)",
        ),
        Binding("z", "undo", "Undo", id="inbox.undo", tooltip="Undo the last mark-as"),
        Binding(
            "slash",
            "filter_text",
            "Filter",
            id="inbox.filter_text",
            tooltip="Show only loaded messages containing a text",
        ),
        Binding(
            "f",
            "next_filter",
            "All/Unread/Unseen",
            id="inbox.next_filter",
            tooltip="Cycle the filter tabs: all, unread, unseen",
        ),
        Binding(
            "p",
            "pick_subscriber",
            "Subscriber",
            id="inbox.pick_subscriber",
            tooltip="Open another subscriber's inbox",
        ),
        Binding(
            "c",
            "copy_id",
            "Copy id",
            id="inbox.copy_id",
            show=False,
            tooltip="Copy the highlighted message's id to the clipboard",
        ),
        Binding(
            "C",
            "copy_subscriber",
            "Copy subscriberId",
            id="inbox.copy_subscriber",
            show=False,
            tooltip="Copy this subscriber's id to the clipboard",
        ),
        Binding(
            "ctrl+r,f5",
            "refresh",
            "Refresh",
            id="inbox.refresh",
            tooltip="Load the subscriber, counts and first page again",
        ),
        Binding(
            "2",
            "app.show_integrations",
            "Integrations",
            id="inbox.integrations",
            tooltip="Switch to the integrations view",
        ),
    ]

    def __init__(self, subscriber_id: str) -> None:
        super().__init__(id="inbox")
        self.state = InboxState(subscriber_id)
        self.subscriber: Subscriber | None = None
        self.unread: int | None = None
        self.unseen: int | None = None
        self.loading_page = False
        # Bumped on every reload so that pages of an older listing are dropped.
        self.generation = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield SubscriberHeader(id="subscriber")
        yield Tabs(
            Tab("All", id="all"),
            Tab("Unread", id="unread"),
            Tab("Unseen", id="unseen"),
            id="filters",
        )
        with Horizontal(id="panes"):
            yield MessageTable(self.inbox_app.now(), id="messages")
            yield MessageDetail(id="detail")
        yield Input(
            placeholder="filter loaded messages (Enter to apply, Esc to clear)", id="text-filter"
        )
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#text-filter", Input).display = False
        self.query_one(MessageTable).focus()
        self.reload()
        self._show_header()

    # -- loading -----------------------------------------------------------------------

    @property
    def table(self) -> MessageTable:
        return self.query_one(MessageTable)

    def reload(self, keep_cursor: bool = True) -> None:
        """Subscriber, counts and the first page, from the service, all at once."""
        keep = self.table.cursor_key if keep_cursor else None
        self.generation += 1
        self.state.reset()
        self.table.clear()
        self.table.loading = True
        self.loading_page = False
        self.load_subscriber()
        self.load_counts()
        self.load_page(self.generation, keep)

    @work(exclusive=True, group="subscriber", exit_on_error=False)
    async def load_subscriber(self) -> None:
        try:
            self.subscriber = await self.inbox_app.client.get_subscriber(self.state.subscriber_id)
        except NotFoundError:
            self.notify(
                f"Subscriber {self.state.subscriber_id} not found in this environment; "
                "pick another.",
                severity="warning",
                markup=False,
            )
            self.inbox_app.action_pick_subscriber()
        except InboxdeskError as exc:
            self.inbox_app.report(exc)
        self._show_header()

    @work(exclusive=True, group="counts", exit_on_error=False)
    async def load_counts(self) -> None:
        client = self.inbox_app.client
        try:
            unread, unseen = await asyncio.gather(
                client.feed(self.state.subscriber_id, limit=1, read=False),
                client.feed(self.state.subscriber_id, limit=1, seen=False),
            )
        except InboxdeskError as exc:
            if not isinstance(exc, NotFoundError):  # load_subscriber says so, once
                self.inbox_app.report(exc)
            return
        self.unread, self.unseen = unread.total_count, unseen.total_count
        self._show_header()

    @work(exclusive=True, group="page", exit_on_error=False)
    async def load_page(self, generation: int, keep: str | None = None) -> None:
        self.loading_page = True
        self.show_status()
        page = self.state.next_page
        try:
            result = await self.inbox_app.client.feed(
                self.state.subscriber_id, page, PAGE_SIZE, **self.state.filter.query
            )
        except InboxdeskError as exc:
            self.loading_page = False
            self.table.loading = False
            self.show_status()
            if not isinstance(exc, NotFoundError):  # load_subscriber says so, once
                self.inbox_app.report(exc)
            return
        self.post_message(
            # The feed now yields FeedItems; the inbox reads them as Messages until it
            # moves to FeedItem (the inbox's owner does that).
            PageLoaded(
                generation,
                page,
                [Message.model_validate(item.to_wire()) for item in result.data],
                result.has_more,
                result.total_count,
                keep,
            )
        )

    def on_page_loaded(self, event: PageLoaded) -> None:
        if event.generation != self.generation:
            return
        self.inbox_app.connected = True
        self.loading_page = False
        table = self.table
        table.loading = False
        added = self.state.add_page(event.page, event.items, event.has_more, event.total)
        table.add_messages([m for m in added if self.state.matches(m)], self.state.selected)
        if event.keep and event.keep in table.rows:
            table.move_cursor(row=table.get_row_index(event.keep), animate=False)
        if event.page == 0:
            self._show_detail()
        self.show_status()
        self.sync_bindings()
        self._maybe_prefetch()

    def _maybe_prefetch(self) -> None:
        table = self.table
        near_end = table.cursor_row >= table.row_count - PREFETCH_ROWS
        if near_end and self.state.has_more and not self.loading_page:
            self.load_page(self.generation)

    # -- showing -----------------------------------------------------------------------

    def _show_header(self) -> None:
        self.query_one(SubscriberHeader).show(
            self.subscriber, self.unread, self.unseen, self.state.subscriber_id
        )
        self.sub_title = (
            self.subscriber.display_name if self.subscriber else self.state.subscriber_id
        )

    def show_status(self) -> None:
        state = self.state
        text = Text()
        total = state.total if state.total is not None else "…"
        text.append(f"{len(state.messages)} of {total} loaded")
        if state.text:
            text.append(f" · filter “{state.text}”: {self.table.row_count} shown")
        if state.selected:
            text.append(f" · {len(state.selected)} selected", style="bold magenta")
        if self.loading_page:
            text.append(" · loading…", style="italic")
        if self.inbox_app.offline:
            text.append(" · service unreachable, retrying", style="bold red")
        self.query_one("#status", Static).update(text)

    def _show_detail(self) -> None:
        message_id = self.table.cursor_key
        message = self.state.message(message_id) if message_id else None
        self.query_one(MessageDetail).show(message, self.inbox_app.now())

    def _rebuild(self) -> None:
        """Redraw the rows from the loaded state (after the text filter changes)."""
        keep = self.table.cursor_key
        self.table.clear()
        self.table.add_messages(self.state.visible(), self.state.selected)
        if keep and keep in self.table.rows:
            self.table.move_cursor(row=self.table.get_row_index(keep), animate=False)
        self._show_detail()
        self.show_status()

    @on(DataTable.RowHighlighted, "#messages")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()
        self._maybe_prefetch()
        self.sync_bindings()

    @on(Tabs.TabActivated, "#filters")
    def _filter_tab(self, event: Tabs.TabActivated) -> None:
        chosen = FeedFilter(event.tab.id or "all")
        if chosen != self.state.filter:
            self.state.filter = chosen
            self.reload(keep_cursor=False)

    # -- actions -----------------------------------------------------------------------

    def availability(self) -> tuple[object, ...]:
        state = self.state
        rows = any(t.row_count for t in self.query(MessageTable))
        return (
            rows or bool(state.selected),
            state.last_change is not None,
            bool(state.selected or state.text),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MARK_ACTIONS or action in {"toggle_select", "copy_id"}:
            rows = any(t.row_count for t in self.query(MessageTable))
            return True if rows or self.state.selected else None
        if action == "undo":
            return True if self.state.last_change else None
        if action == "clear_selection":
            return True if self.state.selected or self.state.text else None
        return True

    def action_mark_read(self) -> None:
        self._mark(MarkAs.READ)

    def action_mark_unread(self) -> None:
        self._mark(MarkAs.UNREAD)

    def action_mark_seen(self) -> None:
        self._mark(MarkAs.SEEN)

    def action_mark_unseen(self) -> None:
        self._mark(MarkAs.UNSEEN)

    def _mark(self, mark_as: MarkAs) -> None:
        ids = self.state.targets(self.table.cursor_key)
        if not ids:
            self.notify("Nothing to mark: no message is highlighted.", severity="warning")
            return
        self.send_mark(mark_as, ids, self.state.remember(mark_as, ids))

    # Writes are not exclusive: a second mark-as never cancels the first.
    @work(group="write", exit_on_error=False)
    async def send_mark(self, mark_as: MarkAs, ids: list[str], change: Change | None) -> None:
        try:
            result = await self.inbox_app.client.mark_as(self.state.subscriber_id, ids, mark_as)
        except InboxdeskError as exc:
            self.inbox_app.report(exc)
            return
        self.post_message(Marked(mark_as, result, change))

    def on_marked(self, event: Marked) -> None:
        self._apply(event.result.messages)
        if event.change is not None:
            self.state.last_change = event.change
        count = len(event.result.messages)
        text = f"Marked {count} message{'s' if count != 1 else ''} {event.mark_as}."
        if event.result.not_updated:
            ignored = len(event.result.not_updated)
            text += (
                f" The service ignored {ignored} id{'s' if ignored != 1 else ''} "
                "(not this subscriber's, or gone)."
            )
        self.notify(
            text, severity="warning" if event.result.not_updated else "information", markup=False
        )
        self.load_counts()
        self.sync_bindings()

    def _apply(self, messages: list[Message]) -> None:
        """Rows and detail from the objects the service returned."""
        self._redraw(self.state.update(messages))

    def _redraw(self, rows: list[Row]) -> None:
        shown = self.table.cursor_key
        for row in rows:
            self.table.refresh_message(row, row.id in self.state.selected)
        if any(row.id == shown for row in rows):  # the detail pane is the costliest to draw
            self._show_detail()

    def action_undo(self) -> None:
        change = self.state.last_change
        if change is None:
            return
        now = {i: (m.read, m.seen) for i in change.before if (m := self.state.messages.get(i))}
        self.state.last_change = None
        self.send_undo(undo_steps(change, now))

    @work(group="write", exit_on_error=False)
    async def send_undo(self, steps: list[tuple[MarkAs, list[str]]]) -> None:
        client = self.inbox_app.client
        try:
            for mark_as, ids in steps:
                result = await client.mark_as(self.state.subscriber_id, ids, mark_as)
                self._apply(result.messages)
        except InboxdeskError as exc:
            self.inbox_app.report(exc)
            return
        self.notify("Undone: the messages are back to their earlier state.")
        self.load_counts()
        self.sync_bindings()

    def action_mark_all_read(self) -> None:
        self.send_mark_all()

    @work(group="write", exit_on_error=False)
    async def send_mark_all(self) -> None:
        try:
            count = await self.inbox_app.client.mark_all(self.state.subscriber_id, MarkAs.READ)
        except InboxdeskError as exc:
            self.inbox_app.report(exc)
            return
        # The documented effect of mark-all read, on every loaded in-app message.
        self._redraw(self.state.set_flags(read=True, seen=True))
        self.state.last_change = None
        self.notify(f"Marked all {count} unread message{'s' if count != 1 else ''} read.")
        self.load_counts()

    def action_toggle_select(self) -> None:
        message_id = self.table.cursor_key
        if message_id is None:
            return
        selected = self.state.toggle(message_id)
        self.table.refresh_message(self.state.messages[message_id], selected)
        if self.table.cursor_row < self.table.row_count - 1:
            self.table.move_cursor(row=self.table.cursor_row + 1)
        self.show_status()
        self.sync_bindings()

    def action_select_all(self) -> None:
        for message in self.state.visible():
            if message.id:
                self.state.selected.add(message.id)
                self.table.refresh_message(message, True)
        self.show_status()
        self.sync_bindings()

    def action_clear_selection(self) -> None:
        text_filter = self.query_one("#text-filter", Input)
        if text_filter.has_focus or (self.state.text and not self.state.selected):
            self._set_text_filter("")
            return
        cleared = self.state.selected.copy()
        self.state.selected.clear()
        for message_id in cleared:
            if message_id in self.state.messages:
                self.table.refresh_message(self.state.messages[message_id], False)
        self.show_status()
        self.sync_bindings()

    def action_filter_text(self) -> None:
        text_filter = self.query_one("#text-filter", Input)
        text_filter.display = True
        text_filter.value = self.state.text
        text_filter.focus()

    @on(Input.Submitted, "#text-filter")
    def _text_submitted(self, event: Input.Submitted) -> None:
        self._set_text_filter(event.value.strip())

    def _set_text_filter(self, text: str) -> None:
        text_filter = self.query_one("#text-filter", Input)
        text_filter.display = bool(text)
        text_filter.value = text
        self.state.text = text
        self.table.focus()
        self._rebuild()
        self.sync_bindings()

    def action_next_filter(self) -> None:
        order = list(FeedFilter)
        following = order[(order.index(self.state.filter) + 1) % len(order)]
        self.query_one(Tabs).active = following.value

    def action_pick_subscriber(self) -> None:
        self.inbox_app.action_pick_subscriber()

    def action_copy_id(self) -> None:
        message_id = self.table.cursor_key
        if message_id:
            self.app.copy_to_clipboard(message_id)
            self.notify(f"Copied message id {message_id}.", markup=False)

    def action_copy_subscriber(self) -> None:
        self.app.copy_to_clipboard(self.state.subscriber_id)
        self.notify(f"Copied subscriberId {self.state.subscriber_id}.", markup=False)

    def action_refresh(self) -> None:
        self.reload()
        self.notify("Refreshed from the service.", timeout=2)
