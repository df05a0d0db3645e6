"""What the inbox holds of a listing: sparse pages of light rows.

Pure state with no widgets, so paging, filtering and undo are plain to test. The
screen owns one `Feed` per listing (in its `ListingState`, listing.py) and changes it
only in its handlers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.models import Count, NotificationCounts
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.text import clip, pad

if TYPE_CHECKING:
    from inboxdesk.models import Message
    from inboxdesk.models.feed import FeedItem

# The v2 inbox gives InboxNotifications, an older service's v1 feed FeedItems, mark-as
# full Messages: rows take what they draw from each.
FeedEntry: TypeAlias = "Message | FeedItem | InboxNotification"

PAGE_SIZE = 100  # the most the feed gives in one page; feed `page` = offset // PAGE_SIZE
# Pages kept around the viewport; farther ones are dropped and fetched again if needed,
# so scrolling through 100,000 messages holds about 50 pages' rows (see BENCHMARKS.md).
KEEP_PAGES = 50


def preview_of(content: object) -> str:
    """The content as one line: the string, or the blocks' text joined."""
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = " · ".join(str(getattr(block, "content", "")) for block in content)
    else:
        text = ""
    return " ".join(text.split())


@dataclass(slots=True, eq=False)
class Row:
    """One loaded message as the list draws it, and the item itself for the detail pane.

    An item costs about 5 KB: at most KEEP_PAGES pages of them are held (about 25 MB),
    however long the inbox.
    """

    id: str
    read: bool
    seen: bool
    created_at: str
    heading: str
    preview: str
    status: str
    channel: str
    cta_url: str | None
    item: FeedEntry
    archived: bool = False
    snoozed_until: str | None = None
    # The clipped and padded title, preview and status of the last widths drawn.
    _clipped: tuple[tuple[int, int, int], tuple[str, str, str]] | None = None

    def clipped(self, title: int, preview: int, status: int) -> tuple[str, str, str]:
        """Title and preview padded to their widths, and the status clipped, as drawn.

        Kept for the widths last asked: a repaint after a mark redraws the row's flags,
        not its text.
        """
        widths = (title, preview, status)
        if self._clipped is None or self._clipped[0] != widths:
            cells = (
                pad(clip(self.heading or "(no title)", title), title),
                pad(clip(self.preview, preview), preview) if preview else "",
                clip(self.status, status),
            )
            self._clipped = (widths, cells)
        return self._clipped[1]

    @property
    def snoozed(self) -> bool:
        return self.snoozed_until is not None

    @classmethod
    def of(cls, item: FeedEntry) -> Row:
        if isinstance(item, InboxNotification):
            return cls.of_notification(item)
        cta = item.cta.data.url if item.cta and item.cta.data else None
        return cls(
            id=item.id or "",
            read=item.read,
            seen=item.seen,
            created_at=item.created_at or "",
            # Title or subject: the workflow's name is not part of a feed item.
            heading=item.title or item.subject or "",
            preview=preview_of(item.content),
            status=str(item.status),
            channel=str(item.channel),
            cta_url=cta,
            item=item,
            archived=bool(getattr(item, "archived", False)),
        )

    @classmethod
    def of_notification(cls, item: InboxNotification) -> Row:
        redirect = getattr(item, "redirect", None)
        url = redirect.get("url") if isinstance(redirect, dict) else None
        return cls(
            id=item.id,
            read=item.is_read,
            seen=item.is_seen,
            created_at=item.created_at or "",
            # The subject is optional in the v2 inbox: the body leads where it is absent,
            # as in the subscriber's own Inbox.
            heading=item.subject or preview_of(item.body),
            preview=preview_of(item.body) if item.subject else "",
            # The v2 inbox has no delivery status: its severity where set, else the
            # state the markers show, in words (so the filter finds "archived" too).
            status=(
                str(item.severity)
                if item.severity not in (None, "none")
                else "archived"
                if item.is_archived
                else "snoozed"
                if item.is_snoozed
                else ""
            ),
            channel=str(getattr(item, "channelType", None) or "in_app"),
            cta_url=url if isinstance(url, str) else None,
            item=item,
            archived=item.is_archived,
            snoozed_until=(item.snoozed_until or "") if item.is_snoozed else None,
        )


@dataclass
class Feed:
    """The feed of one subscriber and filter, as sparse pages of rows.

    `length` is how many rows the list shows. It is exact when the service gave a total
    above the page size or the last page was seen; otherwise (production caps
    `totalCount` at the page size) it is a lower bound, one past the last row known,
    and grows as pages arrive.
    """

    pages: dict[int, list[Row]] = field(default_factory=dict)
    length: int = 0
    exact: bool = False
    answered: bool = False  # the first page has arrived
    _where: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)

    # -- reading -----------------------------------------------------------------------

    def __len__(self) -> int:
        return self.length

    def row(self, index: int) -> Row | None:
        page = self.pages.get(index // PAGE_SIZE)
        if page is None:
            return None
        pos = index % PAGE_SIZE
        return page[pos] if pos < len(page) else None

    def get(self, message_id: str) -> Row | None:
        where = self._where.get(message_id)
        return self.pages[where[0]][where[1]] if where else None

    def index_of(self, message_id: str) -> int | None:
        where = self._where.get(message_id)
        return where[0] * PAGE_SIZE + where[1] if where else None

    def rows(self) -> Iterable[Row]:
        """Every loaded row, in feed order."""
        for number in sorted(self.pages):
            yield from self.pages[number]

    def missing(self, start: int, stop: int) -> list[int]:
        """The pages that rows `start` to `stop` need and that are not loaded."""
        stop = min(stop, self.length)
        if stop <= start:
            return []
        first, last = start // PAGE_SIZE, (stop - 1) // PAGE_SIZE
        return [p for p in range(first, last + 1) if p not in self.pages]

    def message(self, message_id: str) -> FeedEntry | None:
        """The whole item, with the flags the latest mark gave its row."""
        row = self.get(message_id)
        if row is None:
            return None
        if isinstance(row.item, InboxNotification):
            row.item.is_read, row.item.is_seen = row.read, row.seen
        else:
            row.item.read, row.item.seen = row.read, row.seen
        return row.item

    # -- changing ----------------------------------------------------------------------

    def add_page(
        self, page: int, items: Iterable[FeedEntry], has_more: bool, total: int | None
    ) -> list[int]:
        """Merge one page in place; returns the row indices whose content changed."""
        old = self.pages.get(page, [])
        kept = {row.id: row for row in old}
        # A row the service sent unchanged stays the same object: merged, not rebuilt.
        rows = [
            kept[new.id] if new.id in kept and _same(kept[new.id], new) else new
            for new in (Row.of(m) for m in items if m.id)
        ]
        for row in old:
            self._where.pop(row.id, None)
        for pos, row in enumerate(rows):
            self._where[row.id] = (page, pos)
        self.pages[page] = rows
        self.answered = True
        start, end = page * PAGE_SIZE, page * PAGE_SIZE + len(rows)
        if rows or page == 0:
            if not has_more:
                self.length, self.exact = end, True
            elif total is not None and total > end:
                self.length, self.exact = total, True  # a service that counts everything
            elif not self.exact or self.length <= end:
                self.length, self.exact = max(self.length, end + 1), False
        elif self.length > start:  # past the end: the feed is shorter than believed
            self.length = start
            self.exact = page - 1 in self.pages
        changed = [
            start + pos for pos, row in enumerate(rows) if pos >= len(old) or old[pos] is not row
        ]
        return changed + list(range(start + len(rows), start + len(old)))

    def holds(self, rows: int) -> None:
        """The listing is known to hold at least `rows` rows (the go-to found one there)."""
        if not self.exact:
            self.length = max(self.length, rows)

    def end_found(self, length: int) -> None:
        """The true length, from a search for the last row."""
        self.length, self.exact = length, True
        for number in [p for p in self.pages if p * PAGE_SIZE >= length]:
            self._drop(number)

    def drop_far(self, *rows: int) -> None:
        """Drop the pages farthest from these rows (the view, the cursor): they are
        fetched again when needed."""
        if len(self.pages) <= KEEP_PAGES:
            return
        near = [row // PAGE_SIZE for row in rows] or [0]

        def distance(page: int) -> int:
            return min(abs(page - n) for n in near)

        farthest = sorted(self.pages, key=distance, reverse=True)
        for number in farthest[: len(self.pages) - KEEP_PAGES]:
            self._drop(number)

    def _drop(self, number: int) -> None:
        for row in self.pages.pop(number, []):
            self._where.pop(row.id, None)

    def update(self, items: Iterable[Message | InboxNotification]) -> list[int]:
        """Take the service's newer copies of loaded rows; returns the changed indices.

        A row the service archived or snoozed stays where it is, marked, whatever the
        tab: only a refresh or another tab drops it.
        """
        changed = []
        for item in items:
            where = self._where.get(item.id or "")
            if where is None:
                continue
            page, pos = where
            row = self.pages[page][pos]
            if isinstance(item, InboxNotification):
                if isinstance(row.item, InboxNotification):
                    # The same Row object, changed: the text filter's list holds it too.
                    newer = Row.of_notification(item)
                    row.item, row.archived = item, newer.archived
                    row.snoozed_until = newer.snoozed_until
                    row.read, row.seen = newer.read, newer.seen
                    if row.status != newer.status:  # "archived" or "snoozed" in words
                        row.status, row._clipped = newer.status, None
                    changed.append(page * PAGE_SIZE + pos)
                    continue
                row.archived = item.is_archived
                row.snoozed_until = (item.snoozed_until or "") if item.is_snoozed else None
                changed.append(page * PAGE_SIZE + pos)
                flags = item.is_read, item.is_seen
            else:
                flags = item.read, item.seen
            if (row.read, row.seen) != flags:
                row.read, row.seen = flags
                changed.append(page * PAGE_SIZE + pos)
        return changed

    def flags(self, ids: Iterable[str]) -> dict[str, tuple[bool, bool]]:
        """Read and seen of each loaded id."""
        return {i: (r.read, r.seen) for i in ids if (r := self.get(i)) is not None}


def _same(a: Row, b: Row) -> bool:
    return (
        a.id == b.id
        and (a.read, a.seen, a.archived, a.snoozed_until)
        == (b.read, b.seen, b.archived, b.snoozed_until)
        and a.item == b.item
    )


def matches(row: Row, needle: str) -> bool:
    """The text filter's rule: the casefolded needle is in the title, preview or status."""
    return needle in f"{row.heading} {row.preview} {row.status}".casefold()


@dataclass
class Filtered:
    """The loaded rows that contain a text: what the list shows under the text filter."""

    found: list[Row]
    exact = True

    @classmethod
    def of(cls, feed: Feed, text: str) -> Filtered:
        needle = text.casefold()
        return cls([r for r in feed.rows() if matches(r, needle)])

    def __len__(self) -> int:
        return len(self.found)

    def row(self, index: int) -> Row | None:
        return self.found[index] if 0 <= index < len(self.found) else None

    def index_of(self, message_id: str) -> int | None:
        return next((n for n, r in enumerate(self.found) if r.id == message_id), None)


def no_longer_listed(selected: Iterable[str], before: Iterable[Row], feed: Feed) -> frozenset[str]:
    """The selected rows of a page before its new answer that the listing no longer
    holds (archived, snoozed or deleted since, here or elsewhere): not the user's to act
    on any more, though they stay selected in no view. A row only moved to another loaded
    page is still listed."""
    chosen = frozenset(selected)
    return frozenset(row.id for row in before if row.id in chosen and feed.index_of(row.id) is None)


def targets(selected: Iterable[str], cursor_id: str | None, feed: Feed) -> list[str]:
    """The ids an action applies to: the selection in feed order (ids no longer loaded
    last), else the highlighted message."""

    def order(message_id: str) -> tuple[int, str]:
        index = feed.index_of(message_id)
        return (index if index is not None else 1 << 62, message_id)

    chosen = sorted(selected, key=order)
    if chosen:
        return chosen
    return [cursor_id] if cursor_id else []


def adjusted_counts(
    counts: NotificationCounts | None, feed: Feed, items: Iterable[Message | InboxNotification]
) -> NotificationCounts | None:
    """The unread and unseen counts after a write, from the items the service answered
    against their rows before it; None when that cannot be told (a count not exact, an
    item not among the rows), and the counts are then fetched again."""
    if counts is None or counts.unread.capped or counts.unseen.capped:
        return None
    unread, unseen = counts.unread.value, counts.unseen.value
    # An answer of several steps (an undo's restoring marks: unread, then unseen) names
    # a message once per step: its last state is the one it ends in, counted once.
    last = {item.id or "": item for item in items}
    for item in last.values():
        row = feed.get(item.id or "")
        if row is None:
            return None
        was = (row.read, row.seen, row.archived, row.snoozed)
        if isinstance(item, InboxNotification):
            now = (item.is_read, item.is_seen, item.is_archived, item.is_snoozed)
        else:  # a mark's answer: its flags, with the row's archive and snooze
            now = (item.read, item.seen, row.archived, row.snoozed)
        unread += InboxTab.UNREAD.shows_state(*now) - InboxTab.UNREAD.shows_state(*was)
        unseen += InboxTab.UNSEEN.shows_state(*now) - InboxTab.UNSEEN.shows_state(*was)
    return NotificationCounts(Count(max(0, unread)), Count(max(0, unseen)))


@dataclass(frozen=True)
class Applied:
    """What a write's answer changed in the listing."""

    changed: list[int]  # the row indices to redraw
    reload: bool  # the tab lists an item that is not among the rows (an undo): list again
    counts: NotificationCounts | None  # the counts known from the answer, else None


def apply_answer(
    feed: Feed,
    tab: InboxTab,
    counts: NotificationCounts | None,
    items: Iterable[Message | InboxNotification],
) -> Applied:
    """Take the messages a write's answer holds into the rows: the rows redrawn, whether
    the listing must be read again, and the counts after it where the answer tells them
    (else they are asked for again)."""
    items = list(items)
    adjusted = adjusted_counts(counts, feed, items)
    changed = feed.update(items)
    reload = any(feed.get(i.id or "") is None and tab.shows(i) for i in items)
    return Applied(changed, reload, None if reload else adjusted)
