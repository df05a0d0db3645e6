"""What a mark-all is about to change, listed beforehand so that it can be undone.

UI-free: the app's `A` and the command line's `mark-all` both list it: every in-app
message, archived and snoozed ones included.
"""

from __future__ import annotations

from dataclasses import dataclass

from inboxdesk.client import ApiError, InboxClient, NoV2Inbox
from inboxdesk.client.errors import LimitExceeded, Looping
from inboxdesk.client.limits import Walk
from inboxdesk.client.source import Entry, InboxSource
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.model import UNDOABLE_MARK_ALL

PAGE = 100  # the most either listing gives in one page


@dataclass(frozen=True)
class Unread:
    """What a mark-all changes: every message not yet in the state it sets."""

    before: dict[str, Flags] | None  # the ids and flags, when few enough to undo
    count: int | None  # how many; None when not known
    inbox: int | None = None  # how many of them the Inbox tab shows


# The listing filter that selects what each mark-all changes. A read marks seen too,
# but the app lists only the unread ones; unread is not listed (it also changes the
# unread-but-unseen ones, which one filter cannot select): it stays unknown.
CHANGES = {"read": {"read": False}, "seen": {"seen": False}, "unseen": {"seen": True}}


async def unread_before(
    client: InboxClient, subscriber_id: str, source: InboxSource, state: str = "read"
) -> Unread:
    """The messages a mark-all `state` would change, listed when few enough to undo it,
    and counted otherwise (None for a state no filter selects)."""
    query = CHANGES.get(state)
    if query is None:
        return Unread(None, None)
    before: dict[str, Flags] = {}
    for number in range(UNDOABLE_MARK_ALL // PAGE):
        found = await source.page(client, subscriber_id, query, number, PAGE)
        before.update({item.id: flags_of(item) for item in found.items if item.id})
        if not found.has_more:
            return Unread(before, len(before))
    return Unread(None, await _count_rest(client, subscriber_id, source, len(before), query))


def flags_of(item: Entry) -> Flags:
    """An item's read and seen, whichever source listed it."""
    if isinstance(item, InboxNotification):
        return item.flags
    return item.read, item.seen


async def _count_rest(
    client: InboxClient, subscriber_id: str, source: InboxSource, known: int, query: dict[str, bool]
) -> int | None:
    """How many past the listed ones, page by page up to `max_pages`; None past that, or
    on a service that loops."""
    offset = known
    walk = Walk(client.options.limits.max_pages, "the inbox")
    for _ in range(client.options.limits.max_pages):
        found = await source.rows(client, subscriber_id, query, offset, PAGE)
        ids = [item.id for item in found.items]
        offset, more = offset + found.rows, found.has_more and found.rows > 0
        if not more:
            return offset
        try:
            walk.onward(ids)
        except (Looping, LimitExceeded):
            return None  # no count to trust: the confirmation says it is not known
    return None


# How far a command-line mark looks for the state before it: the subscriber's newest
# messages, where ids piped from `messages --ids` are.
MARK_PAGES = 10


@dataclass(frozen=True)
class MarkBefore:
    """The state before a mark of given ids: each id's flags where found, and the ids
    whose state before is unknown (then the mark cannot be undone)."""

    before: dict[str, Flags]
    unknown: list[str]
    # False when the list answered an error (an unknown subscriber): the mark then
    # fails with the service's own words, and the unknown state is not worth saying.
    listed: bool = True


async def mark_before(
    client: InboxClient, subscriber_id: str, ids: list[str], seen: dict[str, Flags]
) -> MarkBefore:
    """Each id's flags from at most MARK_PAGES pages of the subscriber's v2 list (fresh),
    else as a journaled write last saw them (`seen`)."""
    wanted, before, listed = set(ids), dict[str, Flags](), True
    try:
        for number in range(MARK_PAGES):
            found = await client.notifications(subscriber_id, limit=PAGE, offset=number * PAGE)
            before.update({n.id: n.flags for n in found.data if n.id in wanted})
            if not found.has_more or wanted <= before.keys():
                break
    except NoV2Inbox:
        pass  # an older service: the journal's alone
    except ApiError:
        listed = False
    for message_id in wanted - before.keys():
        if message_id in seen:
            before[message_id] = seen[message_id]
    ordered = list(dict.fromkeys(ids))
    return MarkBefore(
        {i: before[i] for i in ordered if i in before},
        [i for i in ordered if i not in before],
        listed,
    )
