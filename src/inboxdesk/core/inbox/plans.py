"""The inbox's writes as plans, built from data (the ids, the flags the rows showed, the
subscriber), for the app's keys and the command line alike: each says its write for
the outbox, whether to ask first, and what to ask (`question`, `details`), as
`PrimaryPlan` and `ArchiveAll` do.

Marks stay on mark-as (one request for every id); archive and snooze are one v2
request per message; mark-all is one request for every message of the subscriber.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inboxdesk.core.inbox.webhooks import webhook_warning, webhook_warning_uncounted
from inboxdesk.models import Count, MarkAs
from inboxdesk.models.inbox import INBOX_WRITES
from inboxdesk.text import plural
from inboxdesk.writes.before import Unread
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.model import UNDOABLE_MARK_ALL, Kind, Step, Write

if TYPE_CHECKING:
    from inboxdesk.client.source import Abilities

# The actions of the v2 inbox's writes: an older service has none of them.
INBOX_ACTIONS = {action.value for action in INBOX_WRITES}
# What each of them (and the bulk archives) needs of the service's source.
ARCHIVING = {"archive", "unarchive", "archive_all", "archive_all_read"}
SNOOZING = {"snooze", "unsnooze"}


def able(action: str, abilities: Abilities) -> bool:
    """Whether a source with these abilities can do the action (a key's, or a write's)."""
    if action in ARCHIVING:
        return abilities.archive
    if action in SNOOZING:
        return abilities.snooze
    return True


@dataclass(frozen=True)
class MarkPlan:
    """Mark messages read, seen, unread or unseen."""

    subscriber_id: str
    state: str  # a MarkAs value
    ids: tuple[str, ...]
    before: Mapping[str, Flags] | None = None  # each id's flags before, for its undo

    def write(self) -> Write:
        step = Step(self.state, self.ids)
        before = dict(self.before) if self.before is not None else None
        return Write(Kind.MARK, self.subscriber_id, (step,), before)

    @property
    def warning(self) -> str:
        """The webhooks it sets off, when over 20 messages (else "")."""
        return webhook_warning(len(set(self.ids)))

    @property
    def asks(self) -> bool:
        return bool(self.warning)

    @property
    def label(self) -> str:
        return f"Mark {self.state}"

    def question(self) -> str:
        return f"Mark {plural(len(self.ids), 'message')} {self.state}?"

    def details(self) -> list[str]:
        return [self.warning, "z undoes the mark, not the webhooks."]


@dataclass(frozen=True)
class InboxPlan:
    """Archive, unarchive, snooze or unsnooze notifications of the v2 inbox."""

    subscriber_id: str
    action: str  # an InboxAction value
    ids: tuple[str, ...]
    before: Mapping[str, Flags] | None = None
    until: str | None = None  # a snooze's end, ISO 8601

    def write(self) -> Write:
        step = Step(self.action, self.ids)
        before = dict(self.before) if self.before is not None else None
        return Write(Kind.INBOX, self.subscriber_id, (step,), before, until=self.until)

    @property
    def warning(self) -> str:
        """An archive's webhooks, when over 20 messages (else "")."""
        return webhook_warning(len(set(self.ids))) if self.action == "archive" else ""

    @property
    def asks(self) -> bool:
        return bool(self.warning)

    @property
    def label(self) -> str:
        return "Archive"

    def question(self) -> str:
        return f"Archive {plural(len(self.ids), 'message')}?"

    def details(self) -> list[str]:
        return [self.warning, "z undoes the archive."]


@dataclass(frozen=True)
class MarkAllPlan:
    """Mark every in-app message of a subscriber (the app: read), archived and snoozed
    ones included: what it changes is listed first (`Unread`), so that it can be undone
    when few enough. The question and details are the app's, of a mark-all read."""

    subscriber_id: str
    unread: Unread
    # The header's unread count, which may say "more than" when the listing did not count.
    shown: Count | None = None
    state: str = MarkAs.READ.value

    @property
    def nothing(self) -> bool:
        return self.unread.count == 0

    def write(self) -> Write:
        step = Step(self.state)
        return Write(Kind.MARK_ALL, self.subscriber_id, (step,), self.unread.before)

    @property
    def asks(self) -> bool:
        return True

    @property
    def label(self) -> str:
        return "Mark all read"

    def question(self) -> str:
        count = self.unread.count
        if count is not None:
            number = f"{count:,}"
        elif self.shown is not None and not self.shown.odd:
            number = f"more than {self.shown.value:,}"
        else:
            number = f"more than {UNDOABLE_MARK_ALL:,}"
        return f"Mark all {number} unread messages read (archived and snoozed included)?"

    def details(self) -> list[str]:
        # Every in-app message changes, not only what the Inbox tab shows.
        lines = [
            "Every unread in-app message of this subscriber becomes read and seen, "
            "archived and snoozed ones included."
        ]
        count = self.unread.count
        lines.append(webhook_warning(count) if count is not None else webhook_warning_uncounted())
        lines.append(
            "z undoes it."
            if self.unread.before is not None
            else "This cannot be undone: there are too many to list which ones change."
        )
        return lines
