"""The inbox of one subscriber: a Textual shell over core/inbox.

A key press reads top to bottom: the action here -> a plan of core/inbox (plans.py: the
write for the outbox, and what to ask first) or a read of the service (loading.py), in
a worker of this screen -> a message, or the write's outcome handed back by the outbox
-> one handler here changes the state -> watchers redraw the widgets. The state is the
reactives below and one `ListingState` (core/inbox/listing.py: the rows, the pages asked
for, the search for the end), which only this screen writes. Where a found message
lands is core/inbox/placing.py's. Key availability follows the reactives declared with
`bindings=True` through `check_action`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Input, Tab, Tabs
from textual.worker import Worker, WorkerState

from inboxdesk.client import InboxdeskError, NotFoundError
from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.client.source import V1, V2, InboxSource
from inboxdesk.core.delivery.follow_feed import FAST, Follow
from inboxdesk.core.inbox import ends, loading
from inboxdesk.core.inbox.feed import Filtered, Row, apply_answer, no_longer_listed, targets
from inboxdesk.core.inbox.listing import Listing, ListingState, pages_in_view
from inboxdesk.core.inbox.placing import Anchor, Move, goto_tabs, place
from inboxdesk.core.inbox.plans import INBOX_ACTIONS, InboxPlan, MarkAllPlan, MarkPlan, able
from inboxdesk.core.inbox.tabs import InboxTab, tabs_of
from inboxdesk.core.inbox.unknown import unknown_subscriber
from inboxdesk.models import MarkAs, NotificationCounts, Subscriber
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.private_apis import lays_out_once
from inboxdesk.text import clip, safe
from inboxdesk.tui.clipboard import copy
from inboxdesk.tui.context import ViewContext
from inboxdesk.tui.inbox.bindings import FINDING_BINDINGS, INBOX_BINDINGS
from inboxdesk.tui.inbox.header import HeaderState, SubscriberHeader
from inboxdesk.tui.inbox.messages import (
    CountsFailed,
    CountsLoaded,
    EndFound,
    OlderService,
    PageLoaded,
    SubscriberLoaded,
    UnreadListed,
)
from inboxdesk.tui.inbox.status import Status, StatusLine
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.messages import FirstRowsShown, OpenSubscriber, Reload, ServiceAnswered
from inboxdesk.tui.preferences.opening import SHOW_PREFERENCES
from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.widgets.app_footer import AppFooter
from inboxdesk.tui.widgets.app_header import AppHeader
from inboxdesk.writes.model import Kind

if TYPE_CHECKING:
    from collections.abc import Callable

    from inboxdesk.client.source import Loaded
    from inboxdesk.core.inbox.feed import Feed, FeedEntry
    from inboxdesk.core.inbox.loading import FirstPage
    from inboxdesk.models import Message
    from inboxdesk.tui.inbox.detail import MessageDetail
    from inboxdesk.tui.screens.goto import Locate
    from inboxdesk.tui.write_notices import InboxState
    from inboxdesk.writes.effects import Flags
    from inboxdesk.writes.events import Event, Partial, Sent
    from inboxdesk.writes.model import Write

FILTER_PLACEHOLDER = "filter as you type; Enter also searches pages not loaded; Esc clears"
MARK_ACTIONS = {"mark_read", "mark_unread", "mark_seen", "mark_unseen"}
ROW_ACTIONS = MARK_ACTIONS | INBOX_ACTIONS | {"toggle_select", "copy_id", "open_cta"}
NOT_ON_OLDER = (
    "This service has no v2 inbox (an older deployment): archive and snooze are not there."
)
Plan = MarkPlan | InboxPlan | MarkAllPlan


def _has_rows(first: FirstPage | None) -> bool:
    """Whether the first page came already, with messages."""
    if first is None or not first.done() or first.cancelled() or first.exception() is not None:
        return False
    return bool(first.result().items)


@lays_out_once
class InboxScreen(ServiceScreen):
    # Seconds between refreshes while following and messages keep coming (tests shorten it).
    follow_fast = FAST
    """A subscriber's in-app messages; every key calls the service through the client."""

    BINDINGS: ClassVar[list[BindingType]] = [
        SHOW_PREFERENCES,
        *INBOX_BINDINGS,
        *FINDING_BINDINGS,
    ]
    AUTO_FOCUS = "#messages"

    # What the view shows; changed only by handlers (and the keys' own actions). `var`s:
    # watchers redraw the widgets that show them, and the screen itself never repaints
    # (a repaint clears its whole render cache after every mark).
    subscriber_id: var[str] = var("", init=False)
    subscriber: var[Subscriber | None] = var(None, init=False)
    counts: var[NotificationCounts | None] = var(None, init=False)
    # The last ask for the counts failed: those shown are from before (the header says
    # so); the next refresh, write or auto-refresh asks again.
    counts_stale: var[bool] = var(False, init=False)
    has_rows: var[bool] = var(False, init=False, bindings=True)
    selected: var[frozenset[str]] = var(frozenset(), init=False, bindings=True)
    text: var[str] = var("", init=False, bindings=True)
    # Ids of this subscriber's writes queued in the outbox, marked in the list.
    pending: var[frozenset[str]] = var(frozenset(), init=False)
    offline: var[bool] = var(False, init=False)
    # Where listings are read from, and what the service can do: the v2 inbox, or the
    # v1 feed once its list answered 404 (no archive or snooze).
    source: var[InboxSource] = var(V2, init=False, bindings=True)
    # Not `loading`: that is Widget.loading, which covers the screen with an indicator.
    fetching: var[bool] = var(False, init=False)

    def __init__(
        self, subscriber_id: str, context: ViewContext, first_page: FirstPage | None = None
    ) -> None:
        super().__init__(id="inbox")
        self.context = context
        self._first_subscriber = subscriber_id
        # The first page of the first subscriber's Inbox tab, asked for by the App already.
        self._first_page = first_page
        if _has_rows(first_page):
            # Shown as the screen mounts (`_adopt`): the footer's first keys are those of a
            # list with rows, not turned on one by one (a redraw each) just after.
            self.set_reactive(InboxScreen.has_rows, True)
        # The listing shown: replaced whole by each open; answers of an older one dropped.
        self._generation = 0
        self.state = ListingState(Listing(subscriber_id, 0))
        # Where a go-to or a search of every page takes the cursor, until it is there.
        self.going_to: Anchor | None = None
        # Following is the auto-refresh at the follow pace (decisions 108, 109).
        self.following = False
        self._follow = Follow()
        self._refresh_timer: Timer | None = None
        self._top_id: object = None
        self._followed: str | None = None
        # Counts asked so far, and the first ask answered after the last write's answer:
        # an answer to an earlier ask may have been read before that write.
        self._counts_asked = 0
        self._counts_fresh = 0
        # How many counts came from the service, and how many had come when each write
        # of this screen went to the outbox: a write's answer adjusts the counts shown
        # only if none came since (a count read meanwhile may already include it).
        self._counts_loaded = 0
        self._loaded_at_submit: dict[str, int] = {}

    @property
    def feed(self) -> Feed:
        """The rows of the listing shown."""
        return self.state.feed

    @property
    def tab(self) -> InboxTab:
        return self.state.tab

    @property
    def listing(self) -> Listing:
        return self.state.listing

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

    def show_tab(self, value: str) -> None:
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

    def empty_filter_box(self) -> None:
        """Empty and hide the box: the filter was cleared by something other than typing
        (another subscriber, a match opened from the search of every page)."""
        box = self.filter_box()
        if box is None:
            return
        if box.has_focus:
            self.table.focus()
        box.value = ""
        box.display = False

    def watch_subscriber_id(self, subscriber_id: str) -> None:
        # The app's current subscriber: Activity, Preferences and the timeline start from it.
        self.context.subscriber.set(subscriber_id or None)

    def watch_subscriber(self) -> None:
        self._show_header()

    def watch_counts(self) -> None:
        self._show_header()

    def watch_counts_stale(self) -> None:
        self._show_header()

    def watch_selected(self) -> None:
        self._marks_changed()

    def watch_pending(self) -> None:
        self._marks_changed()

    def watch_fetching(self) -> None:
        self.show_status()

    def watch_offline(self) -> None:
        self.show_status()
        self._show_header()

    def watch_source(self, source: InboxSource) -> None:
        """The tabs the source can list (an older service's: no Archived or Snoozed)."""
        tabs = self.query_one(Tabs)
        shown = tabs_of(source.abilities)
        for tab in InboxTab:
            found = tabs.query(f"#{tab.value}")
            if found:
                found.first().display = tab in shown
        self._show_header()

    def _marks_changed(self) -> None:
        self.table.set_marks(self.selected, self.pending)
        self.show_status()

    def _show_header(self) -> None:
        counts = self.counts
        scope = self.context.scope.value
        self.query_one(SubscriberHeader).show(
            HeaderState(
                self.subscriber,
                self.subscriber_id,
                None if counts is None else counts.unread,
                None if counts is None else counts.unseen,
                "reconnecting" if self.offline else "online",
                scope.own_name() if scope is not None else "",
                self.source.abilities.note,
                self.context.read_only is not None,
                ("⏸ paused" if self._follow_paused() else "● live") if self.following else "",
                # Looked up only when said: finding the key checks every binding.
                self.key_for("refresh") if self.counts_stale else "",
            )
        )
        name = self.subscriber.display_name if self.subscriber else self.subscriber_id
        self.sub_title = clip(name, 60)

    def show_status(self) -> None:
        feed = self.feed
        status = Status(
            answered=feed.answered,
            fetching=self.fetching,
            length=len(feed),
            exact=feed.exact,
            text=self.text,
            shown=self.table.row_count,
            selected=len(self.selected),
            pending=len(self.pending),
            offline=self.offline,
            tab=self.tab.label,
        )
        if status.failed:  # the key looked up only when said: that checks every binding
            status = replace(status, retry_key=self.key_for("refresh"))
        self.query_one(StatusLine).status = status

    async def _ensure_detail(self) -> None:
        """The detail pane, built after the first rows show (it pulls in JSON highlighting)."""
        if not self.query("#detail"):
            from inboxdesk.tui.inbox.detail import MessageDetail

            panes = next(iter(self.query("#panes").results(Horizontal)), None)
            if panes is None or not panes.is_attached:
                return  # the app is closing (q, SIGHUP) before the first frame was built on
            # Composed with the message highlighted: one layout shows the pane.
            await panes.mount(
                MessageDetail(self._highlighted_message(), self.context.clock(), id="detail")
            )
            self.post_message(FirstRowsShown())
        self.show_detail()

    def _highlighted_message(self) -> FeedEntry | None:
        message_id = self.table.cursor_key
        return self.feed.message(message_id) if message_id else None

    def show_detail(self) -> None:
        details: list[MessageDetail] = list(self.query("#detail").results())  # type: ignore[arg-type]
        if not details or not details[0].children:
            return  # not built yet, or being torn down with the app
        details[0].show(self._highlighted_message(), self.context.clock())

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
        self.show_detail()

    def on_mount(self) -> None:
        self.table.focus()
        context = self.context
        self.offline = context.offline.value
        context.offline.watch(self, self._service_state)
        # The header names the key's environment once the app has loaded it.
        context.scope.watch(self, lambda _: self._show_header())
        context.writes.subscribe(self, self._write_done)
        self.open(self._first_subscriber)
        self._schedule_refresh()

    # -- the one refresh timer: the auto-refresh, or following at its pace (decision 108)

    def _schedule_refresh(self) -> None:
        """Start the refresh timer again, at the auto-refresh's interval or, following,
        at the follow pace; there is never a second timer."""
        if self._refresh_timer is not None:
            self._refresh_timer.stop()
            self._refresh_timer = None
        if self.following:
            seconds = self._follow.interval(self.context.clock().timestamp())
            self._refresh_timer = self.set_timer(seconds, self._follow_tick)
        elif self.context.auto_refresh > 0:
            self._refresh_timer = self.set_interval(
                self.context.auto_refresh, self._refresh_on_timer
            )

    def _follow_tick(self) -> None:
        if not self._follow_paused():
            self._refresh_on_timer()
        self._show_header()  # live or paused, as the cursor now is
        self._schedule_refresh()

    def _follow_paused(self) -> bool:
        """Paused once the agent moves off the message followed (the top one when
        following began or the cursor was last on top); messages arriving above it, which
        keep the cursor on its message, do not pause it."""
        if self.table.cursor_row <= 0:
            self._followed = self.table.cursor_key
        return self.table.cursor_key != self._followed

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        self._follow = Follow(fast=self.follow_fast)
        self._follow.changed_at = self.context.clock().timestamp()
        self._top_id, self._followed = None, self.table.cursor_key
        self._schedule_refresh()
        self._show_header()

    # -- opening and loading -----------------------------------------------------------

    def open(self, subscriber_id: str, tab: InboxTab | None = None) -> None:
        """Show a subscriber's inbox, forgetting everything tied to the previous listing."""
        same = subscriber_id == self.subscriber_id
        tab = tab or (self.tab if same else InboxTab.INBOX)
        if tab not in tabs_of(self.source.abilities):
            tab = InboxTab.INBOX
        self._generation += 1
        self.state = ListingState(Listing(subscriber_id, self._generation), tab)
        if not same:
            self.subscriber_id = subscriber_id
            self.subscriber = None
            self.counts = None
            self.counts_stale = False
            self._loaded_at_submit.clear()  # the writes of another subscriber's counts
            self.selected = frozenset()
        self.show_tab(tab.value)
        self.empty_filter_box()
        self.text = ""
        self.has_rows = False
        self.table.show(self.feed)
        self.table.move_to(0)
        self.fetching = True
        # The page first: its rows are what the first frame waits for.
        first, self._first_page = self._first_page, None
        if first is not None and not first.cancelled() and tab is InboxTab.INBOX:
            self._adopt(first)
            # Asked for once the rows are on screen: the first frame waits for nothing.
            self.call_after_refresh(self._load_header, subscriber_id)
        else:
            self.fetch([0], refresh=True)
            if self.subscriber is None:  # another subscriber (forgotten above), or not found
                self._load_subscriber(subscriber_id)
            self._ask_counts(subscriber_id)

    def _load_header(self, subscriber_id: str) -> None:
        self._load_subscriber(subscriber_id)
        self._ask_counts(subscriber_id)

    def _ask_counts(self, subscriber_id: str) -> None:
        self._counts_asked += 1
        self._load_counts(subscriber_id, self.source, self.counts, self._counts_asked)

    def _adopt(self, first: FirstPage) -> None:
        """The first page the App asked for: shown before the first frame if it came,
        else awaited instead of asked for again."""
        self.state.asked.add(0)
        if first.done() and first.exception() is None:
            loaded = first.result()
            self.post_message(ServiceAnswered())
            # Shown now, not posted: the screen's first layout comes before a message.
            self.show_page(PageLoaded(self.listing, 0, loaded.items, loaded.has_more, loaded.total))
            self._say_left_out(loaded)
        else:
            self._load_pages(self.listing, [0], self.tab, self.source, first)

    def fetch(self, pages: list[int], refresh: bool = False) -> None:
        """Ask for those pages of the listing shown (unless asked for already)."""
        wanted = self.state.wanted(pages, refresh)
        if wanted:
            self.fetching = True
            self._load_pages(self.listing, wanted, self.tab, self.source)

    def on_open_subscriber(self, event: OpenSubscriber) -> None:
        self.open(event.subscriber_id, InboxTab(event.tab) if event.tab else None)
        self._pending_changed()

    def on_reload(self, event: Reload) -> None:
        self.reload()

    def reload(self) -> None:
        """Subscriber, counts and the pages in view again, merged into the rows in place."""
        self._load_header(self.subscriber_id)
        # The length is searched for again: marks and archives since change it, and
        # the status line must not keep an old total.
        self.feed.exact = False
        self.state.end_tried = False
        top = round(self.table.scroll_y)
        self.fetch(pages_in_view(top, self.table.size.height, len(self.feed)), refresh=True)

    def search_end(self, asked: bool = False) -> None:
        """Find the listing's true length when the service gives no total."""
        if self.state.search_end(asked):
            self._find_end(self.listing, len(self.feed), self.tab, self.source)

    def _say_left_out(self, loaded: Loaded) -> None:
        """What the client left out of a page (client/bounded.py), one notice each."""
        for line in loaded.said:
            self.notify(safe(line), severity="warning", timeout=10, markup=False)

    # -- workers: each does its I/O and posts what it found ----------------------------

    @work(name="load_subscriber", group="subscriber", exclusive=True, exit_on_error=False)
    async def _load_subscriber(self, subscriber_id: str) -> None:
        found = await loading.subscriber(self.context.client, subscriber_id)
        self.post_message(SubscriberLoaded(subscriber_id, found))

    @work(name="load_counts", group="counts", exclusive=True, exit_on_error=False)
    async def _load_counts(
        self,
        subscriber_id: str,
        source: InboxSource,
        hint: NotificationCounts | None,
        asked: int,
    ) -> None:
        client = self.context.client
        try:
            counts = await loading.counts(client, subscriber_id, source)
            if not loading.capped(counts):
                self.post_message(CountsLoaded(subscriber_id, counts, asked))
                return
            if hint is None or hint.unread.capped or hint.unseen.capped:
                self.post_message(CountsLoaded(subscriber_id, counts, asked))  # 99+ meanwhile
            counts = await ends.exact_counts(client, subscriber_id, counts, source, hint)
        except InboxdeskError as error:
            self.post_message(CountsFailed(subscriber_id, error, asked))
            return
        self.post_message(CountsLoaded(subscriber_id, counts, asked))

    # Not exclusive: pages of a newer listing simply make older answers stale.
    @work(name="load_pages", group="pages", exit_on_error=False)
    async def _load_pages(
        self,
        listing: Listing,
        pages: list[int],
        tab: InboxTab,
        source: InboxSource,
        first: FirstPage | None = None,
    ) -> None:
        try:
            if first is not None:
                results = [await first]
            else:
                results = await loading.pages(
                    self.context.client, listing.subscriber_id, pages, tab, source
                )
        except NoV2Inbox:
            self.post_message(OlderService(listing))
            return
        except NotFoundError:
            return  # the subscriber's load says so, once
        self.post_message(ServiceAnswered())
        for page, result in zip(pages, results, strict=True):
            self.post_message(
                PageLoaded(listing, page, result.items, result.has_more, result.total)
            )
            self._say_left_out(result)

    @work(name="find_end", group="end", exclusive=True, exit_on_error=False)
    async def _find_end(
        self, listing: Listing, known: int, tab: InboxTab, source: InboxSource
    ) -> None:
        """The listing's length, which the service does not give (loading.find_end)."""
        try:
            end = await loading.find_end(
                self.context.client, listing.subscriber_id, known, tab, source
            )
        except InboxdeskError as exc:
            # Said only if `G` waits for it: nobody asked for this search.
            self.post_message(EndFound(listing, None, exc))
            return
        last = end.last
        self.post_message(PageLoaded(listing, end.page, last.items, last.has_more, last.total))
        self._say_left_out(last)
        self.post_message(EndFound(listing, end.length))

    # Writes are not exclusive: the outbox sends them one at a time, in the order made.
    @work(name="submit", group="write", exit_on_error=False)
    async def _submit(self, write: Write) -> None:
        self._loaded_at_submit[write.id] = self._counts_loaded
        await self.context.outbox.submit(write)

    @work(name="send_undo", group="write", exit_on_error=False)
    async def _send_undo(self, write: Write, now: dict[str, Flags]) -> None:
        self._loaded_at_submit[write.id] = self._counts_loaded  # the undo's, by what it undoes
        await self.context.outbox.undo(write, now)

    @work(name="plan_archive_all", group="write", exit_on_error=False)
    async def _plan_archive_all(self, subscriber_id: str, read: bool) -> None:
        """Counted first (exactly), then asked with what the bulk operation does."""
        from inboxdesk.core.inbox.archive_all import plan_archive_all

        found = await plan_archive_all(self.context.client, subscriber_id, read)
        if subscriber_id != self.subscriber_id:
            return  # another subscriber opened meanwhile
        if found.count.value == 0:
            self.notify("Nothing to archive here.", markup=False)
            return
        label = "Archive all read" if read else "Archive all"
        write = found.write()
        self._ask(found.question(), " ".join(found.details()), label, lambda: self._submit(write))

    @work(name="list_unread", group="write", exit_on_error=False)
    async def _list_unread(self, subscriber_id: str, source: InboxSource) -> None:
        unread = await loading.unread_before(self.context.client, subscriber_id, source)
        self.post_message(UnreadListed(subscriber_id, unread))

    # -- handlers: the only places state changes ---------------------------------------

    def on_page_loaded(self, event: PageLoaded) -> None:
        self.show_page(event)

    def show_page(self, event: PageLoaded) -> None:
        """A page of a listing: its rows shown if it is the current listing's."""
        if event.listing != self.listing:
            return
        self.state.asked.discard(event.page)
        self.fetching = self.state.busy
        grew_from, keep = len(self.feed), self.table.cursor_key
        # A new message on top while following: not calm.
        if self.following and event.page == 0 and event.items and event.items[0].id != self._top_id:
            self._top_id = event.items[0].id
            self._follow.changed_at = self.context.clock().timestamp()
        before = self.feed.pages.get(event.page, [])
        changed = self.feed.add_page(event.page, event.items, event.has_more, event.total)
        self._unselect_gone(no_longer_listed(self.selected, before, self.feed))
        self.feed.drop_far(self.table.cursor_row, round(self.table.scroll_y))
        self.has_rows = len(self.feed) > 0
        if self.text:
            self.table.show(Filtered.of(self.feed, self.text), self.table.cursor_key)
        else:
            if len(self.feed) != grew_from:
                self.table.grown()
            # A refresh that drops rows above keeps the cursor on its message (else the
            # row now where it was: the nearest).
            moved = self.feed.index_of(keep) if keep else None
            if moved is not None and moved != self.table.cursor_row:
                self.table.move_to(moved)
            self.table.refresh_rows(changed)
        if event.page == 0:
            # After the frame that shows the rows, and after what else waits for that
            # frame: the pane is the costliest part to build (JSON highlighting).
            self.call_after_refresh(self.call_later, self._ensure_detail)
            # The total the service did not give, found meanwhile: the status line says
            # it, and `G` goes straight there. Not before the frame with the rows.
            self.call_after_refresh(self._search_end_of, self.listing)
        self.show_status()
        self._go()  # a go-to waiting for this listing's rows

    def _unselect_gone(self, gone: frozenset[str]) -> None:
        """A write never reaches a message the listing no longer shows: one gone since
        it was selected leaves the selection, and the user is told."""
        if not gone:
            return
        self.selected = self.selected - gone
        many = f"{len(gone)} selected messages are" if len(gone) > 1 else "A selected message is"
        self.notify(f"{many} no longer listed here: unselected.", timeout=5, markup=False)

    def on_older_service(self, event: OlderService) -> None:
        """An older service: the v1 feed from now on, said once."""
        if event.listing != self.listing or self.source is V1:
            return
        self.source = V1
        self.notify(
            "This service has no v2 inbox (an older deployment): showing the v1 feed, "
            "without the Archived and Snoozed tabs; archive and snooze are off.",
            title="Older service",
            severity="warning",
            timeout=10,
            markup=False,
        )
        self.open(self.subscriber_id, self.tab)

    def on_end_found(self, event: EndFound) -> None:
        if event.listing != self.listing:
            return
        state = self.state
        state.end_running = False
        jump, state.jump_to_end = state.jump_to_end, False
        if event.length is not None:
            self.feed.end_found(event.length)
            self.table.grown()
        elif jump and event.error is not None:
            self.context.report(event.error)
        if jump and not self.text:
            self.table.move_to(len(self.feed) - 1)
        self.fetching = state.busy
        self.show_status()

    def on_subscriber_loaded(self, event: SubscriberLoaded) -> None:
        if event.subscriber_id != self.subscriber_id:
            return
        self.subscriber = event.subscriber
        if event.subscriber is None:
            self.post_message(FirstRowsShown())  # no first page to wait for
            self.notify(
                f"{unknown_subscriber(event.subscriber_id)} Pick another.",
                severity="warning",
                markup=False,
            )
            self.call_later(self.run_action, "app.pick_subscriber")

    def on_counts_loaded(self, event: CountsLoaded) -> None:
        if event.subscriber_id == self.subscriber_id and event.asked >= self._counts_fresh:
            self.counts = event.counts
            self.counts_stale = False
            self._counts_loaded += 1

    def on_counts_failed(self, event: CountsFailed) -> None:
        """The counts shown are kept, marked as old. Said once until they are fresh
        again, whatever fails meanwhile: a count the service keeps failing (while its
        pages load) would otherwise say so at every refresh, or, unreachable, take the
        app offline and back at each probe's refresh."""
        if event.subscriber_id != self.subscriber_id or event.asked < self._counts_fresh:
            return
        # A subscriber not found: its load says so, once.
        if not self.counts_stale and not isinstance(event.error, NotFoundError):
            self.context.report(event.error)
        self.counts_stale = True

    def on_unread_listed(self, event: UnreadListed) -> None:
        """Ask before marking them all, with how many and what it sets off."""
        if event.subscriber_id != self.subscriber_id:
            return
        shown = self.counts.unread if self.counts is not None else None
        plan = MarkAllPlan(self.subscriber_id, event.unread, shown)
        if plan.nothing:
            self.notify("No unread messages: nothing to mark.")
            return
        self._confirm(plan)

    def _write_done(self, event: Event) -> None:
        """Redraw what a write changed, from what the service returned."""
        # Loaded with the outbox, which opens after the first frame: here, already loaded.
        from inboxdesk.writes.events import Partial, Queued, Sent
        from inboxdesk.writes.kinds import kind_of

        self._pending_changed()
        write = event.write
        loaded = self._loaded_at_submit.pop(write.id, None)
        if loaded is None and write.undoes is not None:
            loaded = self._loaded_at_submit.pop(write.undoes, None)
        if isinstance(event, Queued) and loaded is not None:
            self._loaded_at_submit[write.id] = loaded  # to be sent later
        if write.kind is Kind.INBOX and write.undoes is None and isinstance(event, Sent | Partial):
            self._say_inbox_write(event)
        if kind_of(write).subject != "subscriber" or write.target != self.subscriber_id:
            return
        if isinstance(event, Sent | Partial):
            # Counts asked before this answer may have been read before the write.
            self._counts_fresh = self._counts_asked + 1
            counted_before = loaded == self._counts_loaded
            if event.result.refetch:
                self.reload()  # mark-all answers a number: the rows in view again
            else:
                items: list[Message | InboxNotification] = [
                    *event.result.messages,
                    *event.result.notifications,
                ]
                applied = apply_answer(self.feed, self.tab, self.counts, items)
                self._repaint(applied.changed)
                if applied.reload or self.state.busy:
                    # One this tab lists is not among the rows (an undo); or pages are on
                    # their way that may have been read before this write (a refresh as
                    # queued writes are sent): read again after it, not left stale.
                    self.reload()
                elif applied.counts is not None and applied.changed and counted_before:
                    # Known from the answer: the exact counts are searched for on refresh.
                    # (A row the answer left as it was was read after the write already:
                    # counts read with it may be older, so they are asked again; and so
                    # are counts that came after the write went out, or of another
                    # screen's write, which may include it already.)
                    self.counts = applied.counts
                    if not self.counts_stale:
                        return  # else counted from old counts: asked again
            self._ask_counts(self.subscriber_id)

    def _say_inbox_write(self, event: Sent | Partial) -> None:
        """What an archive or snooze changed, against the rows as they were before it
        (the feed is updated after this)."""
        earlier: dict[str, InboxState] = {}
        if event.write.target == self.subscriber_id:
            for message_id in event.write.ids:
                row = self.feed.get(message_id)
                if row is not None:
                    earlier[message_id] = (row.archived, row.snoozed_until)
        from inboxdesk.tui.write_notices import inbox_notice

        text, severity = inbox_notice(event, earlier, self.context.clock())
        self.notify(text, severity=severity, timeout=8, markup=False)  # type: ignore[arg-type]

    def _pending_changed(self) -> None:
        queued = self.context.outbox.queued()
        self.pending = frozenset(i for w in queued if w.target == self.subscriber_id for i in w.ids)

    @on(Worker.StateChanged)
    def _worker_ended(self, event: Worker.StateChanged) -> None:
        """A worker that ended without its message frees what it held (a failed page load
        its pages); the failure goes to the app's one report.

        Worker.StateChanged does not bubble, so it is handed on to the app here.
        """
        if event.state not in (WorkerState.ERROR, WorkerState.CANCELLED):
            return
        group, error = event.worker.group, event.state == WorkerState.ERROR
        if group == "pages":
            self.state.asked.clear()
            self.fetching = self.state.busy
        if group == "end" and error:
            # `G` may search again (a cancelled search was replaced by a newer one).
            self.state.end_running, self.state.jump_to_end = False, False
            self.fetching = self.state.busy
        if error:
            self.app.post_message(Worker.StateChanged(event.worker, event.state))

    def _service_state(self, offline: bool) -> None:
        self.offline = offline
        if not offline:
            self.reload()  # the app sends the queued writes

    @on(MessageTable.RowsWanted, "#messages")
    def _rows_wanted(self, event: MessageTable.RowsWanted) -> None:
        if not self.text:
            self.fetch(self.feed.missing(event.start, event.end))

    @on(MessageTable.EndWanted, "#messages")
    def _end_wanted(self, event: MessageTable.EndWanted) -> None:
        """`G` before the end is known: go there when the search (started now, or
        already under way since the first page) finds it."""
        if not self.text and self.feed.answered and not self.feed.exact:
            self.state.jump_to_end = True
            self.fetching = True
            self.search_end(asked=True)

    def _search_end_of(self, listing: Listing) -> None:
        if listing == self.listing:  # else that listing is gone: its own page searches
            self.search_end()

    @on(Tabs.TabActivated, "#filters")
    def _filter_tab(self, event: Tabs.TabActivated) -> None:
        chosen = InboxTab(event.tab.id or InboxTab.INBOX.value)
        if chosen != self.tab:
            self.open(self.subscriber_id, chosen)

    # -- actions: each key's, handed to the part that does it ---------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.context.allows(action):
            return False  # read-only: not bound, so no footer, help or palette offers it
        if not able(action, self.source.abilities):
            return None  # greyed out: the service cannot (an older one: archive, snooze)
        if action in ROW_ACTIONS:
            return True if self.has_rows or self.selected else None
        if action == "clear_selection":
            return True if self.selected or self.text else None
        return True

    def action_mark_read(self) -> None:
        self._mark(MarkAs.READ)

    def action_mark_unread(self) -> None:
        self._mark(MarkAs.UNREAD)

    def action_mark_seen(self) -> None:
        self._mark(MarkAs.SEEN)

    def action_mark_unseen(self) -> None:
        self._mark(MarkAs.UNSEEN)

    def action_mark_all_read(self) -> None:
        self._list_unread(self.subscriber_id, self.source)

    def action_archive(self) -> None:
        self._inbox_write("archive")

    def action_unarchive(self) -> None:
        self._inbox_write("unarchive")

    def action_snooze(self) -> None:
        ids = self._inbox_targets("snooze")
        if not ids:
            return
        from inboxdesk.tui.screens.snooze import SnoozeScreen

        def chosen(moment: datetime | None) -> None:
            if moment is not None:
                self._inbox_write("snooze", moment, ids)

        self.app.push_screen(SnoozeScreen(len(ids), self.context.clock), chosen)

    def action_unsnooze(self) -> None:
        self._inbox_write("unsnooze")

    def action_archive_all(self) -> None:
        self._plan_archive_all(self.subscriber_id, False)

    def action_archive_all_read(self) -> None:
        self._plan_archive_all(self.subscriber_id, True)

    def action_undo(self) -> None:
        outbox = self.context.outbox
        write = outbox.last(self.subscriber_id)
        if write is None:
            self.notify("Nothing to undo.", markup=False)
            return
        self._send_undo(write, self.feed.flags(write.before or {}))

    # -- the writes: a plan of core/inbox, asked first when it says so -----------------

    def _targets(self) -> list[str]:
        return targets(self.selected, self.table.cursor_key, self.feed)

    def _mark(self, mark_as: MarkAs) -> None:
        ids = self._targets()
        if not ids:
            self.notify("Nothing to mark: no message is highlighted.", severity="warning")
            return
        self._confirm(MarkPlan(self.subscriber_id, mark_as.value, tuple(ids), self.feed.flags(ids)))

    def _inbox_targets(self, action: str) -> list[str]:
        if not able(action, self.source.abilities):
            self.notify(NOT_ON_OLDER, severity="warning", markup=False)
            return []
        ids = self._targets()
        if not ids:
            self.notify(f"Nothing to {action}: no message is highlighted.", severity="warning")
        return ids

    def _inbox_write(
        self, action: str, until: datetime | None = None, ids: list[str] | None = None
    ) -> None:
        """One write of one v2 request per message, undoable and queued like a mark."""
        ids = ids if ids is not None else self._inbox_targets(action)
        if not ids:
            return
        when = until.isoformat() if until is not None else None
        flags = self.feed.flags(ids)
        self._confirm(InboxPlan(self.subscriber_id, action, tuple(ids), flags, when))

    def _confirm(self, plan: Plan) -> None:
        """The plan's write for the outbox, asked first when the plan says so."""
        if not plan.asks:
            self._submit(plan.write())
            return
        details = " ".join(line for line in plan.details() if line)
        self._ask(plan.question(), details, plan.label, lambda: self._submit(self._as_shown(plan)))

    def _as_shown(self, plan: Plan) -> Write:
        """The write of a plan just confirmed, its "before" the rows as they are now: a
        write still on its way at the key may have been answered while it was asked."""
        if isinstance(plan, MarkPlan | InboxPlan) and plan.before is not None:
            plan = replace(plan, before={**plan.before, **self.feed.flags(plan.ids)})
        return plan.write()

    def _ask(self, question: str, detail: str, label: str, then: Callable[[], object]) -> None:
        from inboxdesk.tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question, detail, label), answered)

    # -- finding: go to, the search of every page, range select ------------------------

    def action_go_to(self) -> None:
        from inboxdesk.tui.screens.goto import GoToScreen

        client, source = self.context.client, self.source

        def locator(tab: InboxTab) -> Locate:
            return lambda owner, message_id, progress: loading.locate(
                client, owner, message_id, tab, source, progress
            )

        tabs = [(tab.value, locator(tab)) for tab in goto_tabs(self.tab)]
        self.app.push_screen(GoToScreen(self.context, self.subscriber_id, tabs), self._went_to)

    def _went_to(self, found: object) -> None:
        from inboxdesk.tui.screens.goto import GoTo

        if not isinstance(found, GoTo):
            return
        if found.subscriber_id is None or found.tab is None or found.index is None:
            self._show_alone(found.message)
            return
        message = found.message
        self._anchor_at(
            Anchor(found.subscriber_id, found.tab, message.id or "", message, found.index)
        )

    def _anchor_at(self, anchor: Anchor) -> None:
        if self.text:
            self.empty_filter_box()
            self.filter_to("")
        self.going_to = anchor
        self._go()

    def _go(self) -> None:
        """One step towards the anchor (placing.py): its subscriber, its tab, its row's
        page, the row."""
        if self.going_to is None:
            return
        step = place(self.going_to, self.subscriber_id, self.tab, self.feed)
        anchor, self.going_to = self.going_to, step.anchor
        if step.move is Move.OPEN:
            self.post_message(OpenSubscriber(anchor.subscriber_id))
        elif step.move is Move.TAB:
            self.show_tab(anchor.tab)  # the tab's handler opens that listing
        elif step.move is Move.FETCH:
            self.feed.holds(step.index + 1)  # its page is fetched, then this runs again
            self.table.grown()
            self.table.move_to(step.index)
        elif step.move is Move.ALONE:
            self._show_alone(anchor.item)
        elif step.move is Move.AT:
            self.table.move_to(step.index)
            self.show_detail()

    def _show_alone(self, item: FeedEntry) -> None:
        from inboxdesk.tui.inbox.detail import MessageDetail

        for detail in self.query("#detail").results(MessageDetail):
            detail.show(item, self.context.clock())
        self.notify("Shown in the detail pane: no list here shows it.", timeout=4)

    def action_search_all(self) -> None:
        from inboxdesk.tui.inbox.search import SearchScreen

        if not self.text:
            self.notify("Type a text to look for first (/).", markup=False)
            return
        client, subscriber_id, tab = self.context.client, self.subscriber_id, self.tab
        source = self.source

        async def fetch(number: int) -> tuple[list[Row], bool]:
            (page,) = await loading.pages(client, subscriber_id, [number], tab, source)
            return [Row.of(m) for m in page.items if m.id], page.has_more

        def chosen(match: tuple[int, Row] | None) -> None:
            if match is not None:
                index, row = match
                self._anchor_at(Anchor(subscriber_id, tab.value, row.id, row.item, index))

        most = client.options.limits.max_pages
        search = SearchScreen(self.text, fetch, self.state.known_pages(), most)
        self.app.push_screen(search, chosen)

    def action_extend_down(self) -> None:
        self._extend(1)

    def action_extend_up(self) -> None:
        self._extend(-1)

    def _extend(self, step: int) -> None:
        """The highlighted message and its neighbour join the selection; the cursor moves."""
        table = self.table
        start = table.cursor_key
        table.move_to(table.cursor_row + step)
        self.selected = self.selected | {k for k in (start, table.cursor_key) if k}

    def action_toggle_select(self) -> None:
        message_id = self.table.cursor_key
        if message_id is None:
            return
        self.selected = self.selected ^ {message_id}
        self.table.move_to(self.table.cursor_row + 1)

    def action_select_all(self) -> None:
        source = self.table.source
        shown = (source.row(i) for i in range(len(source)))
        self.selected = self.selected | {r.id for r in shown if r is not None}

    def action_clear_selection(self) -> None:
        text_filter = self.filter_box()
        typing = text_filter is not None and text_filter.has_focus
        if typing or (self.text and not self.selected):
            self._set_text_filter("")
            return
        self.selected = frozenset()

    def action_filter_text(self) -> None:
        text_filter = self.made_filter_box()
        text_filter.display = True
        text_filter.value = self.text
        text_filter.focus()

    @on(Input.Changed, "#text-filter")
    def _typed(self, event: Input.Changed) -> None:
        if event.input.has_focus:  # the box's text now, not when the change was sent
            self.filter_to(event.input.value.strip())

    @on(Input.Submitted, "#text-filter")
    def _text_submitted(self, event: Input.Submitted) -> None:
        """The filter applied; with pages not loaded, every page is searched for it."""
        text = event.value.strip()
        self._set_text_filter(text)
        if text and not self.state.all_loaded():
            self.action_search_all()

    def filter_to(self, text: str) -> None:
        """Filter the rows to `text` (the box, if any, is left as typed)."""
        self.text = text
        self.table.show(Filtered.of(self.feed, text) if text else self.feed, self.table.cursor_key)
        self.show_detail()
        self.show_status()

    def _set_text_filter(self, text: str) -> None:
        text_filter = self.made_filter_box() if text else self.filter_box()
        if text_filter is not None:
            text_filter.display = bool(text)
            text_filter.value = text
        self.text = text
        keep = self.table.cursor_key
        self.table.show(Filtered.of(self.feed, text) if text else self.feed, keep)
        self.table.focus()
        self.show_detail()
        self.show_status()

    def action_next_filter(self) -> None:
        order = list(tabs_of(self.source.abilities))
        following = order[(order.index(self.tab) + 1) % len(order)]
        self.show_tab(following.value)

    def action_pick_subscriber(self) -> None:
        self.call_later(self.run_action, "app.pick_subscriber")

    def action_copy_id(self) -> None:
        message_id = self.table.cursor_key
        if message_id:
            copy(self.app, message_id, "the message id")

    def action_delivery(self) -> None:
        """The highlighted message's delivery: its notification, by its transactionId."""
        row = self.feed.get(self.table.cursor_key or "")
        transaction = row.item.transaction_id if row is not None else None
        from inboxdesk.tui.activity.timeline import open_delivery  # after the first frame

        open_delivery(self, self.context, self.subscriber_id, transaction)

    def action_copy_subscriber(self) -> None:
        copy(self.app, self.subscriber_id, "the subscriberId")

    def action_open_cta(self) -> None:
        """The call-to-action URL in the browser; shown (and copied) when there is none."""
        message_id = self.table.cursor_key
        row = self.feed.get(message_id) if message_id else None
        url = row.cta_url if row is not None else None
        if not url:
            self.notify("This message has no call-to-action URL.", markup=False)
            return
        import webbrowser  # here: it pulls in subprocess and shlex, which start-up skips

        shown = clip(url, 200)
        if not url.lower().startswith(("https://", "http://")):
            self.notify(f"Not opened (not a web link): {shown}", severity="warning", markup=False)
            return
        try:
            webbrowser.get()
        except webbrowser.Error:
            copy(self.app, url, "the link (no browser here)")
            return
        self.app.open_url(url)
        self.notify(f"Opened {shown}", markup=False)

    def action_refresh(self) -> None:
        self.reload()
        self.notify("Refreshing from the service.", timeout=2)

    def _refresh_on_timer(self) -> None:
        """Auto-refresh: paused while the service is away or writes wait in the queue,
        so that rows showing them are not redrawn from before."""
        if not self.offline and not self.pending and not self.context.outbox.queued():
            self.reload()
