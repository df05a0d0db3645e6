"""An archive all (or all read): one v2 bulk request on every channel's messages of the
subscriber (core/inbox/archive_all.py plans it). The service has no unarchive-all: no undo."""

from __future__ import annotations

from collections.abc import Mapping

from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients, Notice, WriteKind
from inboxdesk.writes.model import Kind, Write

NO_UNDO = "This cannot be undone: the service has no unarchive-all."


class ArchiveAll(WriteKind):
    kind = Kind.ARCHIVE_ALL
    undone_by_z = True  # asked, and refused with the reason

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        await clients.client.bulk(write.target, write.steps[0].action, idempotency_key=write.key)
        return Sent(write, Result(refetch=True))  # 204: no count, no items

    def refusal(self, write: Write, answers: Answers) -> str | None:
        return NO_UNDO

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        return NO_UNDO

    def describe(self, write: Write) -> str:
        read = " read" if write.steps[0].action == "read-archive" else ""
        return f"archive all{read} messages"

    def notice(self, event: Sent | Partial) -> Notice | None:
        what = self.what(event.write)
        return f"Done: {what} (every channel). The list is read again.", "information"
