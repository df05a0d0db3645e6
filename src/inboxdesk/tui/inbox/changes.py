"""The inbox's writes: marks, mark-all, archive and snooze, and undo.

Every one goes through the outbox (writes/), so undo and queueing while the service is
away work alike for all. Marks stay on mark-as; archive and snooze are one v2 request
per message (decisions.md 13). The rows are redrawn from what the service returns
(InboxScreen._write_done).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from textual import work

from inboxdesk.models import MarkAs
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.feed import targets
from inboxdesk.tui.inbox.finding import FindingView
from inboxdesk.tui.inbox.messages import UnreadListed
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.model import UNDOABLE_MARK_ALL, Kind, Step, Write

# Above this many messages a write asks first and names the webhooks it sets off
# (decisions.md 17).
WEBHOOK_WARNING_OVER = 20
INBOX_ACTIONS = {"archive", "unarchive", "snooze", "unsnooze", "archive_all", "archive_all_read"}
NOT_ON_OLDER = (
    "This service has no v2 inbox (an older deployment): archive and snooze are not there."
)


def webhooks(count: int) -> str:
    """The warning of a write over more than 20 messages, or nothing."""
    if count <= WEBHOOK_WARNING_OVER:
        return ""
    return (
        f"Production sends the customer's webhook once per message (read, seen, unread): "
        f"{count:,} webhooks."
    )


def plural(count: int, noun: str = "message") -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


class InboxChanges(FindingView):
    """Keys that write; see InboxScreen for loading and the handlers."""

    def _ask(self, question: str, detail: str, label: str, then: Callable[[], object]) -> None:
        from inboxdesk.tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question, detail, label), answered)

    # -- marks -------------------------------------------------------------------------

    def action_mark_read(self) -> None:
        self._mark(MarkAs.READ)

    def action_mark_unread(self) -> None:
        self._mark(MarkAs.UNREAD)

    def action_mark_seen(self) -> None:
        self._mark(MarkAs.SEEN)

    def action_mark_unseen(self) -> None:
        self._mark(MarkAs.UNSEEN)

    def _mark(self, mark_as: MarkAs) -> None:
        ids = targets(self.selected, self.table.cursor_key, self.feed)
        if not ids:
            self.notify("Nothing to mark: no message is highlighted.", severity="warning")
            return
        step = Step(mark_as.value, tuple(ids))
        write = Write(Kind.MARK, self.subscriber_id, (step,), self.feed.flags(ids))
        warning = webhooks(len(ids))
        if not warning:
            self.submit(write)
            return
        self._ask(
            f"Mark {plural(len(ids))} {mark_as.value}?",
            warning + " z undoes the mark, not the webhooks.",
            f"Mark {mark_as.value}",
            lambda: self.submit(write),
        )

    # Not exclusive: the outbox sends writes one at a time, in the order they were made.
    @work(group="write", exit_on_error=False)
    async def submit(self, write: Write) -> None:
        await self.context.outbox.submit(write)

    # -- archive and snooze ------------------------------------------------------------

    def action_archive(self) -> None:
        self._inbox_write("archive")

    def action_unarchive(self) -> None:
        self._inbox_write("unarchive")

    def action_unsnooze(self) -> None:
        self._inbox_write("unsnooze")

    def action_snooze(self) -> None:
        ids = self._inbox_targets("snooze")
        if not ids:
            return
        from inboxdesk.tui.screens.snooze import SnoozeScreen

        def chosen(moment: datetime | None) -> None:
            if moment is not None:
                self._inbox_write("snooze", moment, ids)

        self.app.push_screen(SnoozeScreen(len(ids), self.context.clock), chosen)

    def _inbox_targets(self, action: str) -> list[str]:
        if self.older:
            self.notify(NOT_ON_OLDER, severity="warning", markup=False)
            return []
        ids = targets(self.selected, self.table.cursor_key, self.feed)
        if not ids:
            self.notify(f"Nothing to {action}: no message is highlighted.", severity="warning")
        return ids

    def _inbox_write(
        self, action: str, until: datetime | None = None, ids: list[str] | None = None
    ) -> None:
        """One write of one v2 request per message, undoable and queued like a mark."""
        ids = ids if ids is not None else self._inbox_targets(action)
        if not ids:
            return
        when = until.isoformat() if until is not None else None
        step = Step(action, tuple(ids))
        write = Write(Kind.INBOX, self.subscriber_id, (step,), self.feed.flags(ids), until=when)
        warning = webhooks(len(ids)) if action == "archive" else ""
        if not warning:
            self.submit(write)
            return
        self._ask(
            f"Archive {plural(len(ids))}?",
            warning + " z undoes the archive.",
            "Archive",
            lambda: self.submit(write),
        )

    # -- archive all -------------------------------------------------------------------

    def action_archive_all(self) -> None:
        self.plan_archive_all(self.subscriber_id, read=False)

    def action_archive_all_read(self) -> None:
        self.plan_archive_all(self.subscriber_id, read=True)

    @work(group="write", exit_on_error=False)
    async def plan_archive_all(self, subscriber_id: str, read: bool) -> None:
        """Counted first (exactly), then asked with what the bulk operation does."""
        from inboxdesk.archive_all import plan_archive_all

        plan = await plan_archive_all(self.context.client, subscriber_id, read)
        if subscriber_id != self.subscriber_id:
            return  # another subscriber opened meanwhile
        if plan.count.value == 0:
            self.notify("Nothing to archive here.", markup=False)
            return
        label = "Archive all read" if read else "Archive all"
        write = plan.write()
        self._ask(plan.question(), " ".join(plan.details()), label, lambda: self.submit(write))

    # -- undo --------------------------------------------------------------------------

    def action_undo(self) -> None:
        outbox = self.context.outbox
        write = outbox.last(self.subscriber_id)
        if write is None:
            self.notify("Nothing to undo.", markup=False)
            return
        self.send_undo(write, self.feed.flags(write.before or {}))

    @work(group="write", exit_on_error=False)
    async def send_undo(self, write: Write, now: dict[str, Flags]) -> None:
        await self.context.outbox.undo(write, now)

    # -- mark all ----------------------------------------------------------------------

    def action_mark_all_read(self) -> None:
        self.list_unread(self.subscriber_id, not self.older)

    @work(group="write", exit_on_error=False)
    async def list_unread(self, subscriber_id: str, v2: bool) -> None:
        unread = await loader.unread_before(self.context.client, subscriber_id, v2)
        self.post_message(UnreadListed(subscriber_id, unread.before, unread.count))

    def on_unread_listed(self, event: UnreadListed) -> None:
        if event.subscriber_id != self.subscriber_id:
            return
        if event.count == 0:
            self.notify("No unread messages: nothing to mark.")
            return
        if event.count is not None:
            count = f"{event.count:,}"
        elif self.counts is not None:
            count = f"more than {self.counts.unread.value:,}"
        else:
            count = f"more than {UNDOABLE_MARK_ALL:,}"
        # Every in-app message changes, not only what the Inbox tab shows (decisions.md 15).
        detail = (
            "Every unread in-app message of this subscriber becomes read and seen, "
            "archived and snoozed ones included. "
        )
        if event.count is not None:
            detail += webhooks(event.count) + " " if webhooks(event.count) else ""
        else:
            detail += (
                webhooks(UNDOABLE_MARK_ALL + 1).replace(
                    f"{UNDOABLE_MARK_ALL + 1:,} webhooks", "one webhook per message"
                )
                + " "
            )
        detail += (
            "z undoes it."
            if event.before is not None
            else "This cannot be undone: there are too many to list which ones change."
        )
        write = Write(Kind.MARK_ALL, self.subscriber_id, (Step(MarkAs.READ.value),), event.before)
        self._ask(
            f"Mark all {count} unread messages read (archived and snoozed included)?",
            detail,
            "Mark all read",
            lambda: self.submit(write),
        )
