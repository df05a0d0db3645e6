"""What every write kind does and says: the one interface that the outbox, History, the
app's notices and the command line's history ask, in place of switching on the kind.

A kind is one object, registered once (`kinds/__init__.py`) under the name the queue
and the journal store (`Kind`). Its module holds all of it: how it is sent, why it
cannot be undone, its inverse, its words, its notice and its lines in History.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from inboxdesk.text import clip, plural
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Failed, Partial, Sent
from inboxdesk.writes.model import Kind, Write

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient

# (text, severity) of a notice; the text is raw: shown with markup off, through `clip`.
Notice = tuple[str, str]
# What a kind's later writes are said to have touched, in an undo's notes.
MESSAGES = "messages"
SUBSCRIBER_DATA = "subscriber's data"
SHOWN_IDS = 20  # ids History lists of one write


class Answers(Protocol):
    """What the service answered to a write, as this session or the journal kept it."""

    def flags_after(self, write: Write) -> dict[str, Flags]: ...

    def values_after(self, write: Write) -> dict[str, Any]: ...

    def count_of(self, write: Write) -> int | float | None: ...


@dataclass(frozen=True)
class Clients:
    """The clients a write may go with: the key's, and an environment's own key's."""

    client: InboxClient
    of: Callable[[str], InboxClient] | None = None
    own_environment: str = ""  # the key's environment; "" while unknown


@dataclass(frozen=True)
class Section:
    """A write's own lines in History, raw (the view shows each through `safe`): a bold
    heading and indented lines, or bold `name: value` fields."""

    heading: str = ""
    lines: tuple[str, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()


class WriteKind(ABC):
    """One kind of write. The class attributes say how the outbox treats it; the
    methods do what differs from kind to kind."""

    kind: ClassVar[Kind]
    # What its `target` is: the inbox follows the writes of its subscriber.
    subject: ClassVar[Literal["subscriber", "integration", "transaction"]] = "subscriber"
    # Waits in the queue while the service is away; False: fails at once (what its
    # confirmation showed, or a notification's moment, may not hold later).
    queued: ClassVar[bool] = True
    # Journalled before its first try (a trigger: its transactionId is never lost).
    journal_first: ClassVar[bool] = False
    # The inbox's z takes it back; the others are undone from History.
    undone_by_z: ClassVar[bool] = False
    # Why it can never be undone, said in History; None: it may be.
    final: ClassVar[str | None] = None
    # Goes with the key of the environment it acts in (a switch), so its undo is
    # never refused for being made in another environment than the key's.
    with_environment_key: ClassVar[bool] = False
    # It changes every message of its target, listed or not (a mark-all).
    whole_inbox: ClassVar[bool] = False
    # What its later writes touched, in an undo's notes.
    things: ClassVar[str] = MESSAGES
    # Its "before" is each message's read and seen (a mark, an inbox write): brought up
    # to date as it goes out with the writes on the same messages before it.
    flags_before: ClassVar[bool] = False

    # -- sending -------------------------------------------------------------------------

    def client(self, write: Write, clients: Clients) -> InboxClient:
        """The client it goes with: the key's."""
        return clients.client

    @abstractmethod
    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        """Send it; raise the client's error when nothing was done."""

    def after(self, event: Sent | Partial) -> dict[str, Flags]:
        """Each id's flags as the service returned them, for the journal and undo."""
        result = event.result
        after = {m.id: (m.read, m.seen) for m in result.messages if m.id}
        after.update({n.id: (n.is_read, n.is_seen) for n in result.notifications})
        return after

    def remembered(self, event: Sent | Partial) -> dict[str, Flags]:
        """The flags this session keeps to undo it: what the service returned."""
        return self.after(event)

    # -- undo ----------------------------------------------------------------------------

    @abstractmethod
    def refusal(self, write: Write, answers: Answers) -> str | None:
        """Why it cannot be undone, or None."""

    @abstractmethod
    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        """The write that takes it back, or why there is nothing to send. `now`: the
        flags as last seen, where fresher than the service's answer."""

    def overlaps(self, write: Write, later: Write, later_kind: WriteKind) -> bool:
        """Whether a later write touched what `write` touched (its undo may then not
        restore what was meant)."""
        touched = set(write.ids) or {write.target}
        if touched & (set(later.ids) or {later.target}):
            return True
        return later_kind.whole_inbox and later.target == write.target

    def undo_notes(self, write: Write) -> list[str]:
        """What else to say before undoing it."""
        return []

    def done_note(self, write: Write) -> str | None:
        """What else to say once it is done (an undo that changes more than a value)."""
        return None

    def messages_changed(self, write: Write) -> int | None:
        """How many messages its undo writes to; None: not messages."""
        return len(write.ids)

    # -- words ---------------------------------------------------------------------------

    @abstractmethod
    def describe(self, write: Write) -> str:
        """It in a few words, for notices, the queue and History (raw: show it safe)."""

    @abstractmethod
    def notice(self, event: Sent | Partial) -> Notice | None:
        """What the app says when it is done; None where its view says it."""

    def failure_notice(self, event: Failed) -> Notice | None:
        """What the app says of its failure; None: the app's report says it."""
        return None

    def what(self, write: Write) -> str:
        """Its words, clipped for a notice."""
        return clip(self.describe(write), 80)

    def before_after(self, write: Write, detail: Mapping[str, Any]) -> tuple[Any, Any]:
        """Its before and after as History, its JSON and the CSV show them."""
        before = None if write.before is None else {i: list(f) for i, f in write.before.items()}
        return before, detail.get("after") or None

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        """Its own lines in History: each message's flags before and after."""
        if not write.ids:
            return Section()
        before, after = before or {}, after or {}
        lines = []
        for message_id in write.ids[:SHOWN_IDS]:
            was = flags_text(before.get(message_id)) if message_id in before else "unknown"
            now = flags_text(after.get(message_id)) if message_id in after else "not returned"
            lines.append(f"{message_id}: {was} → {now}")
        lines += more(write.ids)
        return Section(f"{plural(len(write.ids), 'message')}, before → after:", tuple(lines))


def flags_text(flags: object) -> str:
    if isinstance(flags, list | tuple) and len(flags) == 2:
        read, seen = flags
        return f"{'read' if read else 'unread'}, {'seen' if seen else 'unseen'}"
    return str(flags)


def more(ids: tuple[str, ...]) -> list[str]:
    """The line that says how many ids History leaves out."""
    return [f"… and {len(ids) - SHOWN_IDS} more"] if len(ids) > SHOWN_IDS else []


def messages(write: Write) -> str:
    """`3 messages`, of the ids the write names."""
    count = len(write.ids)
    return f"{count} {'message' if count == 1 else 'messages'}"


def partial_words(event: Sent | Partial) -> str:
    """What failed of a write done in part, or ""."""
    if isinstance(event, Partial) and event.error is not None:
        return (
            f" {event.failed} of {plural(event.requests, 'request')} failed: {event.error.message}"
        )
    return ""


def severity(event: Sent | Partial) -> str:
    return "warning" if isinstance(event, Partial) else "information"
