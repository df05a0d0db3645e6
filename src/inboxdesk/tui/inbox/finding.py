"""Finding in the inbox: go to a message by id or transactionId (ctrl+g), the text
filter as you type with a search of every page, and range select (J/K).

A layer between the view (view.py) and its handlers (screen.py): the go-to's anchor is
its state, applied when the listing that shows the message has its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Input

from inboxdesk.client import InboxClient
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.feed import PAGE_SIZE, FeedEntry, Filtered, InboxTab, Row
from inboxdesk.tui.inbox.messages import PageLoaded
from inboxdesk.tui.inbox.view import InboxView
from inboxdesk.tui.messages import OpenSubscriber

if TYPE_CHECKING:
    from inboxdesk.tui.screens.goto import Locate


def _tabs(client: InboxClient, current: InboxTab, v2: bool) -> list[tuple[str, Locate]]:
    """The tabs the go-to may open a message on, each finding a row in its own listing
    (its filters, its order): the current one first, then one that filters nothing."""
    every = [f for f in InboxTab if not f.query and f != current][:1]

    def locator(tab: InboxTab) -> Locate:
        return lambda owner, message_id, progress: loader.locate(
            client, owner, message_id, tab, v2, progress
        )

    return [(tab.value, locator(tab)) for tab in [current, *every]]


FINDING_BINDINGS: list[BindingType] = [
    Binding(
        "ctrl+g",
        "go_to",
        "Go to",
        id="inbox.go_to",
        tooltip="Go to a message by its id or transactionId",
    ),
    Binding(
        "J",
        "extend_down",
        "Select down",
        id="inbox.extend_down",
        show=False,
        tooltip="Select the highlighted message and the one below, moving down",
    ),
    Binding(
        "K",
        "extend_up",
        "Select up",
        id="inbox.extend_up",
        show=False,
        tooltip="Select the highlighted message and the one above, moving up",
    ),
    Binding(
        "ctrl+f",
        "search_all",
        "Search all",
        id="inbox.search_all",
        show=False,
        tooltip="Search every page of the inbox for the filter's text",
    ),
]


@dataclass
class Anchor:
    """Where the go-to opens a message: this subscriber's list on `tab`, row `index`."""

    subscriber_id: str
    tab: str
    message_id: str
    item: FeedEntry
    index: int
    opening: bool = False  # the subscriber's inbox was asked for
    asked: bool = False  # the row's page was asked for


class FindingView(InboxView):
    BINDINGS: ClassVar[list[BindingType]] = FINDING_BINDINGS

    _anchor: Anchor | None = None

    # -- go to -------------------------------------------------------------------------

    def action_go_to(self) -> None:
        from inboxdesk.tui.screens.goto import GoToScreen

        client = self.context.client
        screen = GoToScreen(client, self.subscriber_id, _tabs(client, self.tab, self.v2))
        self.app.push_screen(screen, self._went_to)

    def _went_to(self, found: object) -> None:
        from inboxdesk.tui.screens.goto import GoTo

        if not isinstance(found, GoTo):
            return
        if found.subscriber_id is None or found.tab is None or found.index is None:
            self._show_alone(found.message)
            return
        self._anchor_at(
            Anchor(
                found.subscriber_id, found.tab, found.message.id or "", found.message, found.index
            )
        )

    def _anchor_at(self, anchor: Anchor) -> None:
        if self.text:
            self._empty_filter_box()
            self._filter_to("")
        self._anchor = anchor
        self._go()

    def _go(self) -> None:
        """One step towards the anchor: its subscriber, its tab, its row's page, the row."""
        anchor = self._anchor
        if anchor is None:
            return
        if self.subscriber_id != anchor.subscriber_id:
            if not anchor.opening:
                anchor.opening = True
                self.post_message(OpenSubscriber(anchor.subscriber_id))
            return
        if self.tab.value != anchor.tab:
            self._show_filter(anchor.tab)  # the tab's handler opens that listing
            return
        if not self.feed.answered:
            return
        feed, index = self.feed, anchor.index
        row = feed.row(index)
        if row is None or row.id != anchor.message_id:
            found = feed.index_of(anchor.message_id)
            if found is None and row is None and not anchor.asked:
                anchor.asked = True  # its page is fetched, then this runs again
                feed.holds(index + 1)
                self.table.grown()
                self.table.move_to(index)
                return
            if found is None and row is None and feed.missing(index, index + 1):
                return  # another page came first: its own is still on the way
            if found is None:  # moved since it was found: the pane shows it alone
                self._anchor = None
                self._show_alone(anchor.item)
                return
            index = found
        self._anchor = None
        self.table.move_to(index)
        self._show_detail()

    def on_page_loaded(self, event: PageLoaded) -> None:
        # After InboxScreen's own handler (Textual calls each class's, subclass first).
        if event.listing == self.listing:
            self._go()

    def _show_alone(self, item: FeedEntry) -> None:
        from inboxdesk.tui.inbox.detail import MessageDetail

        for detail in self.query("#detail").results(MessageDetail):
            detail.show(item, self.context.clock())
        self.notify("Shown in the detail pane: no list here shows it.", timeout=4)

    # -- the text filter, as you type, and a search of every page ----------------------

    @on(Input.Changed, "#text-filter")
    def _typed(self, event: Input.Changed) -> None:
        if event.input.has_focus:  # the box's text now, not when the change was sent
            self._filter_to(event.input.value.strip())

    def _filter_to(self, text: str) -> None:
        self.text = text
        self.table.show(Filtered.of(self.feed, text) if text else self.feed, self.table.cursor_key)
        self._show_detail()
        self._show_status()

    @on(Input.Submitted, "#text-filter")
    def _offer_search(self, event: Input.Submitted) -> None:
        if event.value.strip() and not self._all_loaded():
            self.action_search_all()

    def _all_loaded(self) -> bool:
        return self.feed.exact and not self.feed.missing(0, len(self.feed))

    def action_search_all(self) -> None:
        from inboxdesk.tui.inbox.search import SearchScreen

        if not self.text:
            self.notify("Type a text to look for first (/).", markup=False)
            return
        client, subscriber_id, feed_filter, v2 = (
            self.context.client,
            self.subscriber_id,
            self.tab,
            self.v2,
        )

        async def fetch(number: int) -> tuple[list[Row], bool]:
            (page,) = await loader.pages(client, subscriber_id, [number], feed_filter, v2)
            return [Row.of(m) for m in page.items if m.id], page.has_more

        pages = -(-len(self.feed) // PAGE_SIZE) if self.feed.exact else None
        most = client.options.limits.max_pages
        tab = feed_filter.value

        def chosen(match: tuple[int, Row] | None) -> None:
            if match is not None:
                index, row = match
                self._anchor_at(Anchor(subscriber_id, tab, row.id, row.item, index))

        self.app.push_screen(SearchScreen(self.text, fetch, pages, most), chosen)

    # -- range select ------------------------------------------------------------------

    def action_extend_down(self) -> None:
        self._extend(1)

    def action_extend_up(self) -> None:
        self._extend(-1)

    def _extend(self, step: int) -> None:
        """The highlighted message and its neighbour join the selection; the cursor moves."""
        start = self.table.cursor_key
        self.table.move_to(self.table.cursor_row + step)
        self.selected = self.selected | {k for k in (start, self.table.cursor_key) if k}
