"""What the inbox view holds: loaded pages, filters, selection and the last change.

Pure state with no widgets, so paging, filtering and undo are plain to test.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from inboxdesk.models import MarkAs, Message, Subscriber, Workflow


class FeedFilter(StrEnum):
    ALL = "all"
    UNREAD = "unread"
    UNSEEN = "unseen"

    @property
    def query(self) -> dict[str, bool]:
        """The feed's read/seen parameters for this filter."""
        return {FeedFilter.UNREAD: {"read": False}, FeedFilter.UNSEEN: {"seen": False}}.get(
            self, {}
        )


@dataclass(frozen=True)
class Change:
    """One mark-as the user may undo: what it did and each message's state before."""

    mark_as: MarkAs
    before: dict[str, tuple[bool, bool]]


@dataclass(slots=True)
class Row:
    """One loaded message as the list needs it; the rest stays compact JSON until shown.

    A parsed Message costs about 5 KB; a Row with its JSON about a third of that, which
    keeps a 10,000-message inbox in bounds.
    """

    id: str
    read: bool
    seen: bool
    created_at: str
    heading: str
    preview: str
    status: str
    channel: str
    workflow: str
    template_id: str | None
    subscriber_pk: str | None
    raw: bytes

    @classmethod
    def of(cls, message: Message) -> Row:
        return cls(
            id=message.id or "",
            read=message.read,
            seen=message.seen,
            created_at=message.created_at,
            heading=message.heading,
            preview=message.preview,
            status=str(message.status),
            channel=str(message.channel),
            workflow=message.template.name if message.template else "",
            template_id=message.template.id if message.template else None,
            subscriber_pk=message.subscriber.id if message.subscriber else None,
            raw=message.model_dump_json(
                by_alias=True, exclude_unset=True, exclude={"subscriber", "template"}
            ).encode(),
        )


# How many parsed messages to keep for the detail pane.
PARSED_CACHE = 64


@dataclass
class InboxState:
    subscriber_id: str
    filter: FeedFilter = FeedFilter.ALL
    text: str = ""
    messages: dict[str, Row] = field(default_factory=dict)
    next_page: int = 0
    has_more: bool = True
    total: int | None = None
    selected: set[str] = field(default_factory=set)
    last_change: Change | None = None
    # One object per workflow and subscriber: thousands of messages repeat them.
    _workflows: dict[str, Workflow] = field(default_factory=dict, repr=False)
    _subscribers: dict[str, Subscriber] = field(default_factory=dict, repr=False)
    _parsed: dict[str, Message] = field(default_factory=dict, repr=False)

    def reset(self, feed_filter: FeedFilter | None = None) -> None:
        """Forget loaded pages (keeping selection and undo) to load from page 0 again."""
        if feed_filter is not None:
            self.filter = feed_filter
        self.messages.clear()
        self._parsed.clear()
        self.next_page = 0
        self.has_more = True
        self.total = None

    def _keep(self, message: Message) -> Row:
        template, subscriber = message.template, message.subscriber
        if template is not None and template.id:
            self._workflows.setdefault(template.id, template)
        if subscriber is not None and subscriber.id:
            self._subscribers.setdefault(subscriber.id, subscriber)
        row = Row.of(message)
        self._parsed.pop(row.id, None)
        self.messages[row.id] = row
        return row

    def message(self, message_id: str) -> Message | None:
        """The full message, parsed from its row (recent ones are kept parsed)."""
        row = self.messages.get(message_id)
        if row is None:
            return None
        parsed = self._parsed.get(message_id)
        if parsed is None:
            parsed = Message.model_validate_json(row.raw)
            if row.template_id:
                parsed.template = self._workflows.get(row.template_id)
            if row.subscriber_pk:
                parsed.subscriber = self._subscribers.get(row.subscriber_pk)
            if len(self._parsed) >= PARSED_CACHE:
                self._parsed.pop(next(iter(self._parsed)))
            self._parsed[message_id] = parsed
        parsed.read, parsed.seen = row.read, row.seen
        return parsed

    def add_page(
        self, page: int, items: Iterable[Message], has_more: bool, total: int | None
    ) -> list[Row]:
        """Take one page; returns the rows not already loaded, in feed order."""
        added = [self._keep(m) for m in items if m.id and m.id not in self.messages]
        self.next_page = page + 1
        self.has_more = has_more
        self.total = total
        return added

    def update(self, items: Iterable[Message]) -> list[Row]:
        """Replace loaded rows with the service's newer copies; returns those replaced."""
        return [self._keep(m) for m in items if m.id in self.messages]

    def set_flags(self, read: bool, seen: bool, channel: str = "in_app") -> list[Row]:
        """Apply a documented effect (mark-all) to every loaded row of a channel."""
        changed = []
        for row in self.messages.values():
            if row.channel == channel:
                row.read, row.seen = read, seen
                changed.append(row)
        return changed

    def matches(self, row: Row) -> bool:
        if not self.text:
            return True
        needle = self.text.casefold()
        return needle in f"{row.heading} {row.preview} {row.workflow} {row.status}".casefold()

    def visible(self) -> list[Row]:
        return [r for r in self.messages.values() if self.matches(r)]

    def targets(self, cursor_id: str | None) -> list[str]:
        """The ids an action applies to: the selection, else the highlighted message."""
        if self.selected:
            return [i for i in self.messages if i in self.selected] + sorted(
                self.selected - self.messages.keys()
            )
        return [cursor_id] if cursor_id else []

    def toggle(self, message_id: str) -> bool:
        if message_id in self.selected:
            self.selected.discard(message_id)
            return False
        self.selected.add(message_id)
        return True

    def remember(self, mark_as: MarkAs, ids: Iterable[str]) -> Change:
        before = {
            i: (self.messages[i].read, self.messages[i].seen) for i in ids if i in self.messages
        }
        return Change(mark_as, before)


def undo_steps(change: Change, now: dict[str, tuple[bool, bool]]) -> list[tuple[MarkAs, list[str]]]:
    """The mark-as calls that put each message back to its state before `change`.

    Read flags first: read and unread both set seen, so seen flags go back after.
    """
    steps: list[tuple[MarkAs, list[str]]] = []
    after_read: dict[str, tuple[bool, bool]] = {}
    to_read = [i for i, (read, _) in change.before.items() if read and not now.get(i, (read,))[0]]
    to_unread = [i for i, (read, _) in change.before.items() if not read and now.get(i, (read,))[0]]
    for mark, ids in ((MarkAs.READ, to_read), (MarkAs.UNREAD, to_unread)):
        if ids:
            steps.append((mark, ids))
    for i, (read, seen) in now.items():
        after_read[i] = (
            (change.before.get(i, (read, seen))[0], True)
            if i in to_read + to_unread
            else (read, seen)
        )
    to_seen = [
        i
        for i, (_, seen) in change.before.items()
        if seen and not after_read.get(i, (False, seen))[1]
    ]
    to_unseen = [
        i
        for i, (_, seen) in change.before.items()
        if not seen and after_read.get(i, (False, seen))[1]
    ]
    for mark, ids in ((MarkAs.SEEN, to_seen), (MarkAs.UNSEEN, to_unseen)):
        if ids:
            steps.append((mark, ids))
    return steps
