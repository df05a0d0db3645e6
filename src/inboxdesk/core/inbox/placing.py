"""Where a found message lands: which subscriber's inbox, which tab, which row.

The go-to (ctrl+g) and the search of every page find a message at a row of a tab's own
listing (an `Anchor`); `place` is the next step towards it, a pure function of the
inbox open now and its rows. The screen does the step, and asks again when the rows
change, until the cursor is on the message or the message is shown alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from inboxdesk.core.inbox.feed import Feed, FeedEntry
from inboxdesk.core.inbox.tabs import InboxTab


@dataclass(frozen=True)
class Anchor:
    """Where a found message opens: this subscriber's list on `tab`, row `index`."""

    subscriber_id: str
    tab: str
    message_id: str
    item: FeedEntry
    index: int
    opening: bool = False  # the subscriber's inbox was asked for
    asked: bool = False  # the row's page was asked for


class Move(StrEnum):
    OPEN = "open"  # open the anchor's subscriber
    TAB = "tab"  # show the anchor's tab
    WAIT = "wait"  # rows are on the way: nothing to do until they come
    FETCH = "fetch"  # the listing holds at least index + 1 rows: go there, its page loads
    ALONE = "alone"  # no row shows it any more: the detail pane shows it alone
    AT = "at"  # the cursor goes to `index`


@dataclass(frozen=True)
class Step:
    move: Move
    anchor: Anchor | None  # what is left to reach (None: reached, or given up)
    index: int = 0


def place(anchor: Anchor, subscriber_id: str, tab: InboxTab, feed: Feed) -> Step:
    """The next step towards `anchor` from the inbox of `subscriber_id` on `tab`."""
    if subscriber_id != anchor.subscriber_id:
        if anchor.opening:
            return Step(Move.WAIT, anchor)
        return Step(Move.OPEN, replace(anchor, opening=True))
    if tab.value != anchor.tab:
        return Step(Move.TAB, anchor)
    if not feed.answered:
        return Step(Move.WAIT, anchor)
    index = anchor.index
    row = feed.row(index)
    if row is None or row.id != anchor.message_id:
        found = feed.index_of(anchor.message_id)
        if found is None and row is None and not anchor.asked:
            return Step(Move.FETCH, replace(anchor, asked=True), index)
        if found is None and row is None and feed.missing(index, index + 1):
            return Step(Move.WAIT, anchor)  # another page came first: its own is on the way
        if found is None:  # moved since it was found
            return Step(Move.ALONE, None)
        index = found
    return Step(Move.AT, None, index)


def goto_tabs(current: InboxTab) -> list[InboxTab]:
    """The tabs the go-to looks in, each in its own listing (its filters, its order):
    the current one first, then one that filters nothing."""
    every = [t for t in InboxTab if not t.query and t != current][:1]
    return [current, *every]
