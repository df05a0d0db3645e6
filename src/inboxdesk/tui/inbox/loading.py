"""The inbox's loading: which pages are asked for, the search for a listing's end, and
the workers that ask the service (through `loader`) and post what they found.

The screen holds one `Loading`; its workers post messages, and the screen's handlers
change the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inboxdesk.client import InboxdeskError, NotFoundError
from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.text import safe
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.messages import (
    CountsLoaded,
    EndFound,
    Listing,
    OlderService,
    PageLoaded,
    SubscriberLoaded,
)
from inboxdesk.tui.messages import ServiceAnswered
from inboxdesk.tui.workers import start

if TYPE_CHECKING:
    from inboxdesk.core.inbox.ends import Loaded
    from inboxdesk.tui.inbox.feed import InboxTab
    from inboxdesk.tui.inbox.loader import FirstPage
    from inboxdesk.tui.inbox.screen import InboxScreen


class Loading:
    """What the inbox has asked the service for and not yet heard back about."""

    def __init__(self, screen: InboxScreen, first_page: FirstPage | None) -> None:
        self.screen = screen
        # The first page of the first subscriber's Inbox tab, asked for by the App already.
        self.first_page = first_page
        self._generation = 0
        # Pages asked for and not yet answered, so that the viewport does not ask twice.
        self.asked: set[int] = set()
        # The listings whose end is being searched for and was searched for, and
        # whether `G` waits for that search.
        self.end_running: Listing | None = None
        self.end_tried: Listing | None = None
        self.jump_to_end = False

    def new_listing(self, subscriber_id: str) -> Listing:
        """A listing whose answers replace every older one's: those are dropped."""
        self._generation += 1
        self.asked.clear()
        self.jump_to_end = False
        return Listing(subscriber_id, self._generation)

    def take_first_page(self) -> FirstPage | None:
        first, self.first_page = self.first_page, None
        return None if first is None or first.cancelled() else first

    def fetch(self, pages: list[int], refresh: bool = False) -> None:
        """Ask for those pages of the current listing (unless asked for already)."""
        wanted = pages if refresh else [p for p in pages if p not in self.asked]
        if not wanted:
            return
        self.asked.update(wanted)
        self.screen.fetching = True
        self.pages(self.screen.listing, wanted, self.screen.tab)

    @property
    def busy(self) -> bool:
        return bool(self.asked)

    # -- workers: each does its I/O and posts what it found ----------------------------

    def subscriber(self, subscriber_id: str) -> None:
        client, screen = self.screen.context.client, self.screen

        async def work() -> None:
            found = await loader.subscriber(client, subscriber_id)
            screen.post_message(SubscriberLoaded(subscriber_id, found))

        start(screen, work, name="load_subscriber", group="subscriber", exclusive=True)

    def counts(self, subscriber_id: str) -> None:
        screen = self.screen
        client, v2, hint = screen.context.client, screen.v2, screen.counts

        async def work() -> None:
            try:
                counts = await loader.counts(client, subscriber_id, v2)
                if not loader.capped(counts):
                    screen.post_message(CountsLoaded(subscriber_id, counts))
                    return
                if hint is None or hint.unread.capped or hint.unseen.capped:
                    screen.post_message(CountsLoaded(subscriber_id, counts))  # 99+ meanwhile
                counts = await loader.exact_counts(client, subscriber_id, counts, v2, hint)
            except NotFoundError:
                return  # the subscriber's load says so, once
            screen.post_message(CountsLoaded(subscriber_id, counts))

        start(screen, work, name="load_counts", group="counts", exclusive=True)

    def pages(
        self, listing: Listing, pages: list[int], tab: InboxTab, first: FirstPage | None = None
    ) -> None:
        screen = self.screen
        client, v2 = screen.context.client, screen.v2

        async def work() -> None:
            try:
                if first is not None:
                    results = [await first]
                else:
                    results = await loader.pages(client, listing.subscriber_id, pages, tab, v2)
            except NoV2Inbox:
                screen.post_message(OlderService(listing))
                return
            except NotFoundError:
                return  # the subscriber's load says so, once
            screen.post_message(ServiceAnswered())
            for page, result in zip(pages, results, strict=True):
                screen.post_message(
                    PageLoaded(listing, page, result.items, result.has_more, result.total)
                )
                say_left_out(screen, result)

        # Not exclusive: pages of a newer listing simply make older answers stale.
        start(screen, work, name="load_pages", group="pages")

    def search_end(self, asked: bool = False) -> None:
        """Find the feed's true length when the service gives no total: by itself once
        per listing, and again whenever `G` asks after a search that found no end."""
        screen = self.screen
        listing = screen.listing
        if screen.feed.exact or self.end_running == listing:
            return
        if asked or self.end_tried != listing:
            self.end_running = self.end_tried = listing
            self._find_end(listing, len(screen.feed), screen.tab)

    def _find_end(self, listing: Listing, known: int, tab: InboxTab) -> None:
        """The listing's length, which the service does not give (loader.find_end)."""
        screen = self.screen
        client, v2 = screen.context.client, screen.v2

        async def work() -> None:
            try:
                end = await loader.find_end(client, listing.subscriber_id, known, tab, v2)
            except InboxdeskError as exc:
                # Said only if `G` waits for it: nobody asked for this search.
                screen.post_message(EndFound(listing, None, exc))
                return
            last = end.last
            screen.post_message(
                PageLoaded(listing, end.page, last.items, last.has_more, last.total)
            )
            say_left_out(screen, last)
            screen.post_message(EndFound(listing, end.length))

        start(screen, work, name="find_end", group="end", exclusive=True)

    def ended(self, group: str | None, error: bool) -> None:
        """A worker ended without its message: free what it held."""
        if group == "pages":
            self.asked.clear()
        if group == "end" and error:
            # `G` may search again (a cancelled search was replaced by a newer one).
            self.end_running, self.jump_to_end = None, False


def say_left_out(screen: InboxScreen, loaded: Loaded) -> None:
    """What the client left out of a page (client/bounded.py), one notice each."""
    for line in loaded.said:
        screen.notify(safe(line), severity="warning", timeout=10, markup=False)
