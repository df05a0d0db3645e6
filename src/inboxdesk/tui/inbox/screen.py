"""The inbox of one subscriber: loading, handlers and keys (marking, undo, selection).

A key press reads top to bottom: action -> a write for the outbox, or a load through
`loader` -> a message -> one handler changes the state (declared in view.py) -> watchers
redraw. The app reports every worker's failure. Key availability follows the reactives
declared with `bindings=True` through `check_action`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.binding import BindingType
from textual.widgets import Input, Tabs
from textual.worker import Worker, WorkerState

from inboxdesk.client import InboxdeskError, NotFoundError
from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.text import clip
from inboxdesk.tui.clipboard import copy
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.bindings import INBOX_BINDINGS
from inboxdesk.tui.inbox.changes import INBOX_ACTIONS, InboxChanges
from inboxdesk.tui.inbox.feed import (
    PAGE_SIZE,
    V1_TABS,
    Feed,
    Filtered,
    InboxTab,
    adjusted_counts,
)
from inboxdesk.tui.inbox.loader import FirstPage
from inboxdesk.tui.inbox.messages import (
    CountsLoaded,
    EndFound,
    Listing,
    OlderService,
    PageLoaded,
    SubscriberLoaded,
)
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.messages import FirstRowsShown, OpenSubscriber, Reload, ServiceAnswered
from inboxdesk.tui.write_messages import WriteMessage
from inboxdesk.writes.model import Kind

if TYPE_CHECKING:
    from inboxdesk.models import Message
    from inboxdesk.tui.write_notices import InboxState
    from inboxdesk.writes.events import Partial, Sent

MARK_ACTIONS = {"mark_read", "mark_unread", "mark_seen", "mark_unseen"}
ROW_ACTIONS = MARK_ACTIONS | INBOX_ACTIONS | {"toggle_select", "copy_id", "open_cta"}


class InboxScreen(InboxChanges):
    """A subscriber's in-app messages; every key calls the service through the client."""

    BINDINGS: ClassVar[list[BindingType]] = INBOX_BINDINGS

    def on_mount(self) -> None:
        self.table.focus()
        self.watch(self.app, "offline", self._service_state, init=False)
        # The header names the key's environment once the app has loaded it.
        self.watch(self.app, "scope", lambda _: self._show_header(), init=False)
        self.context.writes.subscribe(self, self._write_done)
        self.open(self._first_subscriber)
        refresh = self.context.auto_refresh
        if refresh > 0:
            self.set_interval(refresh, self._refresh_on_timer)

    # -- opening and loading -----------------------------------------------------------

    def open(self, subscriber_id: str, tab: InboxTab | None = None) -> None:
        """Show a subscriber's inbox, forgetting everything tied to the previous listing."""
        same = subscriber_id == self.subscriber_id
        self._generation += 1
        self.listing = Listing(subscriber_id, self._generation)
        self.tab = tab or (self.tab if same else InboxTab.INBOX)
        if self.older and self.tab not in V1_TABS:
            self.tab = InboxTab.INBOX
        self.feed = Feed()
        self._asked.clear()
        self._jump_to_end = False
        if not same:
            self.subscriber_id = subscriber_id
            self.subscriber = None
            self.counts = None
            self.selected = frozenset()
        self._show_filter(self.tab.value)
        self._empty_filter_box()
        self.text = ""
        self.has_rows = False
        self.table.show(self.feed)
        self.table.move_to(0)
        self.fetching = True
        # The page first: its rows are what the first frame waits for.
        first, self._first_page = self._first_page, None
        if first is not None and not first.cancelled() and self.tab is InboxTab.INBOX:
            self._adopt(first)
            # Asked for once the rows are on screen: the first frame waits for nothing.
            self.call_after_refresh(self._load_header, subscriber_id)
        else:
            self._fetch([0], refresh=True)
            self._load_header(subscriber_id)

    def _load_header(self, subscriber_id: str) -> None:
        self.load_subscriber(subscriber_id)
        self.load_counts(subscriber_id)

    def _adopt(self, first: FirstPage) -> None:
        """The first page the App asked for: shown before the first frame if it came,
        else awaited instead of asked for again."""
        self._asked.add(0)
        if first.done() and first.exception() is None:
            loaded = first.result()
            self.post_message(ServiceAnswered())
            # Handled now, not posted: the screen's first layout comes before a message.
            self.on_page_loaded(
                PageLoaded(self.listing, 0, loaded.items, loaded.has_more, loaded.total)
            )
        else:
            self.load_pages(self.listing, [0], self.tab, first)

    def on_open_subscriber(self, event: OpenSubscriber) -> None:
        self.open(event.subscriber_id)
        self._pending_changed()

    def on_reload(self, event: Reload) -> None:
        self.reload()

    def reload(self) -> None:
        """Subscriber, counts and the pages in view again, merged into the rows in place."""
        top = round(self.table.scroll_y)
        pages = {0, *range(top // PAGE_SIZE, (top + self.table.size.height) // PAGE_SIZE + 1)}
        self.load_subscriber(self.subscriber_id)
        self.load_counts(self.subscriber_id)
        # The length is searched for again: marks and archives since change it, and
        # the status line must not keep an old total (issue 20).
        self.feed.exact = False
        self._end_tried = None
        self._fetch(sorted(p for p in pages if p * PAGE_SIZE < max(1, len(self.feed))), True)

    def _fetch(self, pages: list[int], refresh: bool = False) -> None:
        wanted = pages if refresh else [p for p in pages if p not in self._asked]
        if not wanted:
            return
        self._asked.update(wanted)
        self.fetching = True
        self.load_pages(self.listing, wanted, self.tab)

    @work(group="subscriber", exclusive=True, exit_on_error=False)
    async def load_subscriber(self, subscriber_id: str) -> None:
        found = await loader.subscriber(self.context.client, subscriber_id)
        self.post_message(SubscriberLoaded(subscriber_id, found))

    @work(group="counts", exclusive=True, exit_on_error=False)
    async def load_counts(self, subscriber_id: str) -> None:
        client, v2, hint = self.context.client, self.v2, self.counts
        try:
            counts = await loader.counts(client, subscriber_id, v2)
            if not loader.capped(counts):
                self.post_message(CountsLoaded(subscriber_id, counts))
                return
            if hint is None or hint.unread.capped or hint.unseen.capped:
                self.post_message(CountsLoaded(subscriber_id, counts))  # 99+ meanwhile
            counts = await loader.exact_counts(client, subscriber_id, counts, v2, hint)
        except NotFoundError:
            return  # load_subscriber says so, once
        self.post_message(CountsLoaded(subscriber_id, counts))

    # Not exclusive: pages of a newer listing simply make older answers stale.
    @work(group="pages", exit_on_error=False)
    async def load_pages(
        self, listing: Listing, pages: list[int], tab: InboxTab, first: FirstPage | None = None
    ) -> None:
        client = self.context.client
        try:
            if first is not None:
                results = [await first]
            else:
                results = await loader.pages(client, listing.subscriber_id, pages, tab, self.v2)
        except NoV2Inbox:
            self.post_message(OlderService(listing))
            return
        except NotFoundError:
            return  # load_subscriber says so, once
        self.post_message(ServiceAnswered())
        for page, result in zip(pages, results, strict=True):
            self.post_message(
                PageLoaded(listing, page, result.items, result.has_more, result.total)
            )

    @work(group="end", exclusive=True, exit_on_error=False)
    async def find_end(self, listing: Listing, known: int, tab: InboxTab) -> None:
        """The listing's length, which the service does not give (loader.find_end)."""
        client = self.context.client
        try:
            end = await loader.find_end(client, listing.subscriber_id, known, tab, self.v2)
        except InboxdeskError as exc:
            # Said only if `G` waits for it (on_end_found): nobody asked for this search.
            self.post_message(EndFound(listing, None, exc))
            return
        last = end.last
        self.post_message(PageLoaded(listing, end.page, last.items, last.has_more, last.total))
        self.post_message(EndFound(listing, end.length))

    # -- handlers: the only places state changes ---------------------------------------

    def on_page_loaded(self, event: PageLoaded) -> None:
        self._asked.discard(event.page)
        if event.listing != self.listing:
            return
        self.fetching = bool(self._asked)
        grew_from, keep = len(self.feed), self.table.cursor_key
        changed = self.feed.add_page(event.page, event.items, event.has_more, event.total)
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
        self._show_status()

    def on_older_service(self, event: OlderService) -> None:
        """An older service: the v1 feed from now on, said once (decisions.md 18)."""
        if event.listing != self.listing or self.older:
            return
        self.older = True
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
        self._end_running = None
        jump, self._jump_to_end = self._jump_to_end, False
        if event.length is not None:
            self.feed.end_found(event.length)
            self.table.grown()
        elif jump and event.error is not None:
            self.context.report(event.error)
        if jump and not self.text:
            self.table.move_to(len(self.feed) - 1)
        self.fetching = bool(self._asked)
        self._show_status()

    def on_subscriber_loaded(self, event: SubscriberLoaded) -> None:
        if event.subscriber_id != self.subscriber_id:
            return
        self.subscriber = event.subscriber
        if event.subscriber is None:
            self.post_message(FirstRowsShown())  # no first page to wait for
            self.notify(
                f"Subscriber {clip(event.subscriber_id, 80)} not found in this environment; "
                "pick another.",
                severity="warning",
                markup=False,
            )
            self.call_later(self.run_action, "app.pick_subscriber")

    def on_counts_loaded(self, event: CountsLoaded) -> None:
        if event.subscriber_id == self.subscriber_id:
            self.counts = event.counts

    def _write_done(self, message: WriteMessage) -> None:
        """Redraw what a write changed, from what the service returned (decisions.md 6)."""
        # Loaded with the outbox, which opens after the first frame: here, already loaded.
        from inboxdesk.writes.events import Partial, Sent

        self._pending_changed()
        event, write = message.event, message.write
        if write.kind is Kind.INBOX and write.undoes is None and isinstance(event, Sent | Partial):
            self._say_inbox_write(event)
        if write.kind is Kind.SET_PRIMARY or write.target != self.subscriber_id:
            return
        if isinstance(event, Sent | Partial):
            if event.result.refetch:
                self.reload()  # mark-all answers a number: the rows in view again
            else:
                items: list[Message | InboxNotification] = [
                    *event.result.messages,
                    *event.result.notifications,
                ]
                adjusted = adjusted_counts(self.counts, self.feed, items)
                self._repaint(self.feed.update(items))
                if any(self.feed.get(i.id or "") is None and self.tab.shows(i) for i in items):
                    self.reload()  # one this tab lists is not among the rows (an undo)
                elif adjusted is not None:
                    # Known from the answer: the exact counts are searched for on refresh.
                    self.counts = adjusted
                    return
            self.load_counts(self.subscriber_id)

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

        text, severity = inbox_notice(event, earlier)
        self.notify(text, severity=severity, timeout=8, markup=False)  # type: ignore[arg-type]

    def _pending_changed(self) -> None:
        queued = self.context.outbox.queued()
        self.pending = frozenset(i for w in queued if w.target == self.subscriber_id for i in w.ids)

    @on(Worker.StateChanged)
    def _worker_ended(self, event: Worker.StateChanged) -> None:
        """A failed page load frees its pages; the failure goes to the app's one report.

        Worker.StateChanged does not bubble, so it is handed on to the app here.
        """
        if event.state not in (WorkerState.ERROR, WorkerState.CANCELLED):
            return
        if event.worker.group == "pages":
            self._asked.clear()
            self.fetching = False
        if event.worker.group == "end" and event.state == WorkerState.ERROR:
            # A bug, reported below; `G` may search again (a cancelled search was replaced).
            self._end_running, self._jump_to_end = None, False
            self.fetching = bool(self._asked)
        if event.state == WorkerState.ERROR:
            self.app.post_message(Worker.StateChanged(event.worker, event.state))

    def _service_state(self, offline: bool) -> None:
        self.offline = offline
        if not offline:
            self.reload()  # the app sends the queued writes

    @on(MessageTable.RowsWanted, "#messages")
    def _rows_wanted(self, event: MessageTable.RowsWanted) -> None:
        if not self.text:
            self._fetch(self.feed.missing(event.start, event.end))

    @on(MessageTable.EndWanted, "#messages")
    def _end_wanted(self, event: MessageTable.EndWanted) -> None:
        """`G` before the end is known: go there when the search (started now, or
        already under way since the first page) finds it."""
        if not self.text and self.feed.answered and not self.feed.exact:
            self._jump_to_end = True
            self.fetching = True
            self._search_end(asked=True)

    def _search_end_of(self, listing: Listing) -> None:
        if listing == self.listing:  # else that listing is gone: its own page searches
            self._search_end()

    def _search_end(self, asked: bool = False) -> None:
        """Find the feed's true length when the service gives no total: by itself once
        per listing, and again whenever `G` asks after a search that found no end."""
        if self.feed.exact or self._end_running == self.listing:
            return
        if asked or self._end_tried != self.listing:
            self._end_running = self._end_tried = self.listing
            self.find_end(self.listing, len(self.feed), self.tab)

    @on(Tabs.TabActivated, "#filters")
    def _filter_tab(self, event: Tabs.TabActivated) -> None:
        chosen = InboxTab(event.tab.id or InboxTab.INBOX.value)
        if chosen != self.tab:
            self.open(self.subscriber_id, chosen)

    # -- actions -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.context.allows(action):
            return False  # read-only: not bound, so no footer, help or palette offers it
        if action in INBOX_ACTIONS and self.older:
            return None  # greyed out: the older service has no archive or snooze
        if action in ROW_ACTIONS:
            return True if self.has_rows or self.selected else None
        if action == "clear_selection":
            return True if self.selected or self.text else None
        return True

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

    @on(Input.Submitted, "#text-filter")
    def _text_submitted(self, event: Input.Submitted) -> None:
        self._set_text_filter(event.value.strip())

    def _set_text_filter(self, text: str) -> None:
        text_filter = self.made_filter_box() if text else self.filter_box()
        if text_filter is not None:
            text_filter.display = bool(text)
            text_filter.value = text
        self.text = text
        keep = self.table.cursor_key
        self.table.show(Filtered.of(self.feed, text) if text else self.feed, keep)
        self.table.focus()
        self._show_detail()
        self._show_status()

    def action_next_filter(self) -> None:
        order = list(V1_TABS if self.older else InboxTab)
        following = order[(order.index(self.tab) + 1) % len(order)]
        self._show_filter(following.value)

    def action_pick_subscriber(self) -> None:
        self.call_later(self.run_action, "app.pick_subscriber")

    def action_copy_id(self) -> None:
        message_id = self.table.cursor_key
        if message_id:
            copy(self.app, message_id, "the message id")

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
        """Auto-refresh (decisions.md 30): paused while the service is away or writes
        wait in the queue, so that rows showing them are not redrawn from before."""
        if not self.offline and not self.pending and not self.context.outbox.queued():
            self.reload()
