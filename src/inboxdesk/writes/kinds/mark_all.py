"""A mark-all: every in-app message of the subscriber marked with one request. Its
"before" lists the messages it changes when at most UNDOABLE_MARK_ALL do (the undo
marks them back); the service answers with a count only."""

from __future__ import annotations

from inboxdesk.text import plural
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import Clients, Notice
from inboxdesk.writes.kinds.mark import Mark
from inboxdesk.writes.model import Kind, Write


class MarkAll(Mark):
    kind = Kind.MARK_ALL
    whole_inbox = True

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        count = await clients.client.mark_all(
            write.target, write.steps[0].action, idempotency_key=write.key
        )
        return Sent(write, Result(count=count, refetch=True))

    def remembered(self, event: Sent | Partial) -> dict[str, Flags]:
        """The listed messages as the mark left them: the service returns none."""
        if event.write.before is None:
            return self.after(event)
        return self.predicted(event.write)

    def messages_changed(self, write: Write) -> int | None:
        return len(write.before) if write.before is not None else None

    def describe(self, write: Write) -> str:
        return f"mark all messages {write.steps[0].action}"

    def notice(self, event: Sent | Partial) -> Notice | None:
        write = event.write
        count = event.result.count or 0
        undo = " z undoes it." if write.before is not None else ""
        action = write.steps[0].action
        what = plural(count, "unread message" if action == "read" else "message")
        return f"Marked all {what} {action}.{undo}", "information"
