"""The inbox's widgets and the state they show: reactives whose watchers redraw them.

`InboxScreen` (screen.py) changes this state in its handlers and actions; nothing here
does I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import var
from textual.widgets import Input, Tab, Tabs

from inboxdesk.models import NotificationCounts, Subscriber
from inboxdesk.text import clip
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.inbox.feed import V1_TABS, Feed, InboxTab
from inboxdesk.tui.inbox.header import HeaderState, SubscriberHeader
from inboxdesk.tui.inbox.messages import Listing
from inboxdesk.tui.inbox.status import Status, StatusLine
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.messages import FirstRowsShown
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader

if TYPE_CHECKING:
    from inboxdesk.tui.inbox.detail import MessageDetail
    from inboxdesk.tui.inbox.loader import FirstPage

FILTER_PLACEHOLDER = "filter as you type; Enter also searches pages not loaded; Esc clears"


class InboxView(ServiceScreen):
    """The inbox's state and widgets; see InboxScreen for what changes them."""

    AUTO_FOCUS = "#messages"

    # What the view shows; changed only by handlers (and the keys' own actions). `var`s:
    # watchers redraw the widgets that show them, and the screen itself never repaints
    # (a repaint clears its whole render cache, about 0.5 ms, after every mark).
    subscriber_id: var[str] = var("", init=False)
    subscriber: var[Subscriber | None] = var(None, init=False)
    counts: var[NotificationCounts | None] = var(None, init=False)
    has_rows: var[bool] = var(False, init=False, bindings=True)
    selected: var[frozenset[str]] = var(frozenset(), init=False, bindings=True)
    text: var[str] = var("", init=False, bindings=True)
    # Ids of this subscriber's writes queued in the outbox, marked in the list.
    pending: var[frozenset[str]] = var(frozenset(), init=False)
    offline: var[bool] = var(False, init=False)
    # The service has no v2 inbox (its list answered 404): the v1 feed, no archive or
    # snooze (decisions.md 18).
    older: var[bool] = var(False, init=False, bindings=True)
    # Not `loading`: that is Widget.loading, which covers the screen with an indicator.
    fetching: var[bool] = var(False, init=False)

    def __init__(
        self, subscriber_id: str, context: ViewContext, first_page: FirstPage | None = None
    ) -> None:
        super().__init__(id="inbox")
        self.context = context
        self._first_subscriber = subscriber_id
        # The first page of that subscriber's Inbox tab, asked for by the App already.
        self._first_page = first_page
        self.tab = InboxTab.INBOX
        self.feed = Feed()
        self.listing = Listing(subscriber_id, 0)
        self._generation = 0
        # Pages asked for and not yet answered, so that the viewport does not ask twice.
        self._asked: set[int] = set()
        # The listings whose end is being searched for and was searched for, and
        # whether `G` waits for that search.
        self._end_running: Listing | None = None
        self._end_tried: Listing | None = None
        self._jump_to_end = False

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield SubscriberHeader(id="subscriber")
        yield Tabs(*(Tab(tab.label, id=tab.value) for tab in InboxTab), id="filters")
        with Horizontal(id="panes"):
            yield MessageTable(self.context.clock, id="messages")
        # The filter box is mounted here by the first `/` (made_filter_box): hidden until
        # then, it would only cost the first frame an input's styles and layout.
        yield StatusLine(id="status")
        yield AppFooter()

    @property
    def v2(self) -> bool:
        """Whether listings read the v2 inbox (else an older service's v1 feed)."""
        return not self.older

    @property
    def table(self) -> MessageTable:
        return self.query_one(MessageTable)

    def filter_box(self) -> Input | None:
        """The text filter's box, once its first use has made it."""
        for box in self.query("#text-filter").results(Input):
            return box
        return None

    def made_filter_box(self) -> Input:
        """The text filter's box, mounted now (showing the filter applied) if new."""
        box = self.filter_box()
        if box is None:
            box = Input(value=self.text, placeholder=FILTER_PLACEHOLDER, id="text-filter")
            self.mount(box, before=self.query_one(StatusLine))
        return box

    def _empty_filter_box(self) -> None:
        """Empty and hide the box: the filter was cleared by something other than typing
        (another subscriber, a match opened from the search of every page)."""
        box = self.filter_box()
        if box is None:
            return
        if box.has_focus:
            self.table.focus()
        box.value = ""
        box.display = False

    def _show_filter(self, value: str) -> None:
        """Mark the filter's tab active.

        Until its tabs are mounted, Tabs refuses every id (ValueError); it then makes the
        first tab, Inbox, active by itself, which is the only tab a first open can have.
        """
        tabs = self.query_one(Tabs)
        if tabs.active != value and any(tab.id == value for tab in tabs.query(Tab)):
            tabs.active = value

    # -- watchers: state to view -------------------------------------------------------

    def watch_text(self, text: str) -> None:
        """The filter box says the filter applied: cleared with it (another subscriber, a
        match opened from the search of every page).

        While it has focus the box is the one home of the text, and nothing writes into
        it: a change handled late would overwrite the keys typed since.
        """
        box = self.filter_box()
        if box is None or box.has_focus:
            return  # made with the filter applied, when first shown
        if box.value.strip() != text:
            box.value = text
        if not text:
            box.display = False

    def watch_subscriber(self) -> None:
        self._show_header()

    def watch_counts(self) -> None:
        self._show_header()

    def watch_selected(self) -> None:
        self._marks_changed()

    def watch_pending(self) -> None:
        self._marks_changed()

    def watch_fetching(self) -> None:
        self._show_status()

    def watch_offline(self) -> None:
        self._show_status()
        self._show_header()

    def watch_older(self, older: bool) -> None:
        """An older service: its tabs are the v1 feed's, without Archived and Snoozed."""
        tabs = self.query_one(Tabs)
        for tab in InboxTab:
            if tab not in V1_TABS:
                found = tabs.query(f"#{tab.value}")
                if found:
                    found.first().display = not older
        self._show_header()

    def _marks_changed(self) -> None:
        self.table.set_marks(self.selected, self.pending)
        self._show_status()

    def _show_header(self) -> None:
        counts = self.counts
        scope = self.context.scope()
        self.query_one(SubscriberHeader).show(
            HeaderState(
                self.subscriber,
                self.subscriber_id,
                None if counts is None else counts.unread,
                None if counts is None else counts.unseen,
                "reconnecting" if self.offline else "online",
                scope.own_name() if scope is not None else "",
                self.older,
                self.context.read_only is not None,
            )
        )
        name = self.subscriber.display_name if self.subscriber else self.subscriber_id
        self.sub_title = clip(name, 60)

    def _show_status(self) -> None:
        feed = self.feed
        self.query_one(StatusLine).status = Status(
            answered=feed.answered,
            fetching=self.fetching,
            length=len(feed),
            exact=feed.exact,
            text=self.text,
            shown=self.table.row_count,
            selected=len(self.selected),
            pending=len(self.pending),
            offline=self.offline,
            retry_key=self.key_for("refresh"),
            tab=self.tab.label,
        )

    async def _ensure_detail(self) -> None:
        """The detail pane, built after the first rows show (it pulls in JSON highlighting)."""
        if not self.query("#detail"):
            from inboxdesk.tui.inbox.detail import MessageDetail

            panes = next(iter(self.query("#panes").results(Horizontal)), None)
            if panes is None or not panes.is_attached:
                return  # the app is closing (q, SIGHUP) before the first frame was built on
            await panes.mount(MessageDetail(id="detail"))
            self.post_message(FirstRowsShown())
        self._show_detail()

    def _show_detail(self) -> None:
        details: list[MessageDetail] = list(self.query("#detail").results())  # type: ignore[arg-type]
        if not details or not details[0].children:
            return  # not built yet, or being torn down with the app
        message_id = self.table.cursor_key
        message = self.feed.message(message_id) if message_id else None
        details[0].show(message, self.context.clock())

    def _repaint(self, indices: list[int]) -> None:
        if self.text:
            found = {r.id for r in self.feed.rows()}
            indices = [
                i
                for i in range(self.table.row_count)
                if (row := self.table.source.row(i)) is not None and row.id in found
            ]
        self.table.refresh_rows(indices)

    @on(MessageTable.Highlighted, "#messages")
    def _highlighted(self, event: MessageTable.Highlighted) -> None:
        self._show_detail()
