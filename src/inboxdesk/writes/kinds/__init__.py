"""Every write kind, one object each, asked by the outbox, History, the app's notices
and the command line's history: a new kind is one module here, one line below and one
name in `Kind` (the name the queue and the journal store)."""

from __future__ import annotations

from inboxdesk.writes.kinds.archive_all import ArchiveAll
from inboxdesk.writes.kinds.base import WriteKind
from inboxdesk.writes.kinds.cancel import Cancel
from inboxdesk.writes.kinds.credentials import Credentials, CredentialsRemoved
from inboxdesk.writes.kinds.inbox import Inbox
from inboxdesk.writes.kinds.mark import Mark
from inboxdesk.writes.kinds.mark_all import MarkAll
from inboxdesk.writes.kinds.preference import Preference
from inboxdesk.writes.kinds.resend import Resend
from inboxdesk.writes.kinds.schedule import Schedule
from inboxdesk.writes.kinds.send import Send
from inboxdesk.writes.kinds.set_primary import SetPrimary
from inboxdesk.writes.kinds.subscriber import SubscriberFields
from inboxdesk.writes.model import Kind, Write

KINDS: dict[Kind, WriteKind] = {
    kind.kind: kind
    for kind in (
        Mark(),
        MarkAll(),
        SetPrimary(),
        Inbox(),
        Preference(),
        ArchiveAll(),
        Send(),
        SubscriberFields(),
        Credentials(),
        CredentialsRemoved(),
        Resend(),
        Cancel(),
        Schedule(),
    )
}


def kind_of(write: Write) -> WriteKind:
    """The object of the write's kind."""
    return KINDS[write.kind]


def describe(write: Write) -> str:
    """The write in a few words, for notices and the queue's list (raw: show it safe)."""
    return kind_of(write).describe(write)


def overlaps(write: Write, later: Write) -> bool:
    """Whether `later` touched what `write` touched (its undo may not restore what was
    meant)."""
    return kind_of(write).overlaps(write, later, kind_of(later))
