"""Archive all and archive all read, said once for the app and the command line.

Both use the v2 bulk operations, which differ from archiving messages one by one in
ways a user must be told before confirming: they act on every channel's messages of
the subscriber (not only in-app), give messages already archived a new date, archive
snoozed ones too (keeping the snooze), and set off the customer's webhook for the
first 100 messages only. Nothing on the service's side takes them back.
"""

from __future__ import annotations

from dataclasses import dataclass

from inboxdesk.client import InboxClient
from inboxdesk.client.source import V2
from inboxdesk.core.inbox import ends
from inboxdesk.models import Count
from inboxdesk.text import safe
from inboxdesk.writes import Kind, Step, Write

# The bulk operation of each: every message, or the read ones.
OPERATION = {False: "archive", True: "read-archive"}
# What each archives that the Inbox still shows: not yet archived (and read, for X).
NOT_ARCHIVED: ends.Filters = {"archived": False}
READ_NOT_ARCHIVED: ends.Filters = {"read": True, "archived": False}
WEBHOOKS_FOR = 100  # the service sends message.archived for this many only


@dataclass(frozen=True)
class ArchiveAll:
    """One archive all, before it is confirmed: the write and the number it archives."""

    subscriber_id: str
    read_only: bool  # only the read messages (`X`, `--read`)
    count: Count  # in-app messages it archives that are not archived yet

    def write(self) -> Write:
        return Write(Kind.ARCHIVE_ALL, self.subscriber_id, (Step(OPERATION[self.read_only]),))

    def question(self) -> str:
        which = "read " if self.read_only else ""
        who = safe(self.subscriber_id, newlines=False)
        return f"Archive all {self.count} {which}in-app messages of {who} not archived yet?"

    def details(self) -> list[str]:
        which = "read messages" if self.read_only else "messages"
        webhooks = (
            "The customer's webhook (message.archived) is sent for the first "
            f"{WEBHOOKS_FOR} messages only."
        )
        return [
            f"It archives every one of the subscriber's {which} in this environment, of "
            "every channel (email, sms and the rest too, not only in-app).",
            "Messages already archived get a new archive date; snoozed ones are archived "
            "too and keep their snooze; each becomes read and seen.",
            webhooks,
            "It cannot be undone: the service has no unarchive-all.",
        ]


async def plan_archive_all(client: InboxClient, subscriber_id: str, read: bool) -> ArchiveAll:
    """The archive all with the exact number of in-app messages it archives (the count
    endpoint, then the end search past its cap)."""
    filters = READ_NOT_ARCHIVED if read else NOT_ARCHIVED
    (counted,) = await client.count_notifications(subscriber_id, [dict(filters)])
    count = await ends.exact(client, subscriber_id, counted, filters, V2, 0)
    return ArchiveAll(subscriber_id, read, count)
