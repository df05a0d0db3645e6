"""The state of one listing of the inbox (a subscriber's tab): its rows, the pages asked
for, and the search for its end. One small object that the screen alone writes, and
replaces whole when another listing opens."""

from __future__ import annotations

from dataclasses import dataclass, field

from inboxdesk.core.inbox.feed import PAGE_SIZE, Feed
from inboxdesk.core.inbox.tabs import InboxTab


@dataclass(frozen=True)
class Listing:
    """Which listing an answer belongs to: answers for an older one are dropped."""

    subscriber_id: str
    generation: int


@dataclass
class ListingState:
    """One listing's rows and what has been asked of the service for it."""

    listing: Listing
    tab: InboxTab = InboxTab.INBOX
    feed: Feed = field(default_factory=Feed)
    # Pages asked for and not yet answered, so that the viewport does not ask twice.
    asked: set[int] = field(default_factory=set)
    # The search for the end: under way, tried (by itself once per listing), and
    # whether `G` waits for it.
    end_running: bool = False
    end_tried: bool = False
    jump_to_end: bool = False

    @property
    def subscriber_id(self) -> str:
        return self.listing.subscriber_id

    @property
    def busy(self) -> bool:
        return bool(self.asked)

    def wanted(self, pages: list[int], refresh: bool = False) -> list[int]:
        """Those of `pages` to ask for now (all on a refresh), noted as asked."""
        wanted = pages if refresh else [p for p in pages if p not in self.asked]
        self.asked.update(wanted)
        return wanted

    def search_end(self, asked: bool = False) -> bool:
        """Whether to search for the end now: by itself once per listing, and again
        whenever `G` asks after a search that found none; noted as under way."""
        if self.feed.exact or self.end_running or not (asked or not self.end_tried):
            return False
        self.end_running = self.end_tried = True
        return True

    def all_loaded(self) -> bool:
        """Every row of the listing is loaded (a search of every page adds nothing)."""
        feed = self.feed
        return feed.exact and not feed.missing(0, len(feed))

    def known_pages(self) -> int | None:
        """How many pages the listing has, when its length is exact."""
        return -(-len(self.feed) // PAGE_SIZE) if self.feed.exact else None


def pages_in_view(top: int, height: int, length: int) -> list[int]:
    """The pages a refresh reads again: the first, and those the view shows."""
    pages = {0, *range(top // PAGE_SIZE, (top + height) // PAGE_SIZE + 1)}
    return sorted(p for p in pages if p * PAGE_SIZE < max(1, length))
