"""Finding in the inbox: go to a message by id or transactionId (ctrl+g), a search of
every page for the filter's text, and range select (J/K).

The screen holds one `Finder`. The go-to's anchor is its state, applied when the
listing that shows the message has its rows (the screen's page handler calls `go`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from inboxdesk.client import InboxClient
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.feed import PAGE_SIZE, FeedEntry, InboxTab, Row
from inboxdesk.tui.messages import OpenSubscriber

if TYPE_CHECKING:
    from inboxdesk.tui.inbox.screen import InboxScreen
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


class Finder:
    """Where the go-to takes the cursor, the search of every page, range select."""

    def __init__(self, screen: InboxScreen) -> None:
        self.screen = screen
        self.anchor: Anchor | None = None

    # -- go to -------------------------------------------------------------------------

    def go_to(self) -> None:
        from inboxdesk.tui.screens.goto import GoToScreen

        screen = self.screen
        client = screen.context.client
        tabs = _tabs(client, screen.tab, screen.v2)
        screen.app.push_screen(
            GoToScreen(screen.context, screen.subscriber_id, tabs), self._went_to
        )

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
        if self.screen.text:
            self.screen.empty_filter_box()
            self.screen.filter_to("")
        self.anchor = anchor
        self.go()

    def go(self) -> None:
        """One step towards the anchor: its subscriber, its tab, its row's page, the row."""
        anchor, screen = self.anchor, self.screen
        if anchor is None:
            return
        if screen.subscriber_id != anchor.subscriber_id:
            if not anchor.opening:
                anchor.opening = True
                screen.post_message(OpenSubscriber(anchor.subscriber_id))
            return
        if screen.tab.value != anchor.tab:
            screen.show_tab(anchor.tab)  # the tab's handler opens that listing
            return
        if not screen.feed.answered:
            return
        feed, index, table = screen.feed, anchor.index, screen.table
        row = feed.row(index)
        if row is None or row.id != anchor.message_id:
            found = feed.index_of(anchor.message_id)
            if found is None and row is None and not anchor.asked:
                anchor.asked = True  # its page is fetched, then this runs again
                feed.holds(index + 1)
                table.grown()
                table.move_to(index)
                return
            if found is None and row is None and feed.missing(index, index + 1):
                return  # another page came first: its own is still on the way
            if found is None:  # moved since it was found: the pane shows it alone
                self.anchor = None
                self._show_alone(anchor.item)
                return
            index = found
        self.anchor = None
        table.move_to(index)
        screen.show_detail()

    def _show_alone(self, item: FeedEntry) -> None:
        from inboxdesk.tui.inbox.detail import MessageDetail

        screen = self.screen
        for detail in screen.query("#detail").results(MessageDetail):
            detail.show(item, screen.context.clock())
        screen.notify("Shown in the detail pane: no list here shows it.", timeout=4)

    # -- a search of every page for the filter's text ----------------------------------

    def all_loaded(self) -> bool:
        feed = self.screen.feed
        return feed.exact and not feed.missing(0, len(feed))

    def search_all(self) -> None:
        from inboxdesk.tui.inbox.search import SearchScreen

        screen = self.screen
        if not screen.text:
            screen.notify("Type a text to look for first (/).", markup=False)
            return
        client, subscriber_id, feed_filter, v2 = (
            screen.context.client,
            screen.subscriber_id,
            screen.tab,
            screen.v2,
        )

        async def fetch(number: int) -> tuple[list[Row], bool]:
            (page,) = await loader.pages(client, subscriber_id, [number], feed_filter, v2)
            return [Row.of(m) for m in page.items if m.id], page.has_more

        feed = screen.feed
        pages = -(-len(feed) // PAGE_SIZE) if feed.exact else None
        most = client.options.limits.max_pages
        tab = feed_filter.value

        def chosen(match: tuple[int, Row] | None) -> None:
            if match is not None:
                index, row = match
                self._anchor_at(Anchor(subscriber_id, tab, row.id, row.item, index))

        screen.app.push_screen(SearchScreen(screen.text, fetch, pages, most), chosen)

    # -- range select ------------------------------------------------------------------

    def extend(self, step: int) -> None:
        """The highlighted message and its neighbour join the selection; the cursor moves."""
        screen = self.screen
        table = screen.table
        start = table.cursor_key
        table.move_to(table.cursor_row + step)
        screen.selected = screen.selected | {k for k in (start, table.cursor_key) if k}
