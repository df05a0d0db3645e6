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


@dataclass
class InboxState:
    subscriber_id: str
    filter: FeedFilter = FeedFilter.ALL
    text: str = ""
    messages: dict[str, Message] = field(default_factory=dict)
    next_page: int = 0
    has_more: bool = True
    total: int | None = None
    selected: set[str] = field(default_factory=set)
    last_change: Change | None = None
    # One shared object per workflow and subscriber: thousands of messages repeat them.
    _workflows: dict[str, Workflow] = field(default_factory=dict, repr=False)
    _subscribers: dict[str, Subscriber] = field(default_factory=dict, repr=False)

    def reset(self, feed_filter: FeedFilter | None = None) -> None:
        """Forget loaded pages (keeping selection and undo) to load from page 0 again."""
        if feed_filter is not None:
            self.filter = feed_filter
        self.messages.clear()
        self.next_page = 0
        self.has_more = True
        self.total = None

    def _share(self, message: Message) -> Message:
        template, subscriber = message.template, message.subscriber
        if template is not None and template.id:
            message.template = self._workflows.setdefault(template.id, template)
        if subscriber is not None and subscriber.id:
            message.subscriber = self._subscribers.setdefault(subscriber.id, subscriber)
        return message

    def add_page(
        self, page: int, items: Iterable[Message], has_more: bool, total: int | None
    ) -> list[Message]:
        """Take one page; returns the messages not already loaded, in feed order."""
        added = []
        for message in items:
            if message.id and message.id not in self.messages:
                self.messages[message.id] = self._share(message)
                added.append(message)
        self.next_page = page + 1
        self.has_more = has_more
        self.total = total
        return added

    def update(self, items: Iterable[Message]) -> list[Message]:
        """Replace loaded messages with the service's newer copies; returns those replaced."""
        replaced = []
        for message in items:
            if message.id in self.messages:
                self.messages[message.id] = self._share(message)
                replaced.append(message)
        return replaced

    def matches(self, message: Message) -> bool:
        if not self.text:
            return True
        needle = self.text.casefold()
        workflow = message.template.name if message.template else ""
        haystack = f"{message.heading} {message.preview} {workflow} {message.status}"
        return needle in haystack.casefold()

    def visible(self) -> list[Message]:
        return [m for m in self.messages.values() if self.matches(m)]

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
