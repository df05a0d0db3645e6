"""The inbox's writes: marks, mark-all, archive and snooze, and undo.

Every one goes through the outbox (writes/), so undo and queueing while the service is
away work alike for all. Marks stay on mark-as; archive and snooze are one v2 request
per message. The screen holds one `Changes`; the rows are redrawn from what the service
returns, when the outbox hands the screen the write's outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from inboxdesk.core.inbox.webhooks import webhook_warning, webhook_warning_uncounted
from inboxdesk.models import MarkAs
from inboxdesk.models.inbox import INBOX_WRITES
from inboxdesk.text import plural
from inboxdesk.tui.inbox import loader
from inboxdesk.tui.inbox.feed import targets
from inboxdesk.tui.inbox.messages import UnreadListed
from inboxdesk.tui.workers import start
from inboxdesk.writes.model import UNDOABLE_MARK_ALL, Kind, Step, Write

if TYPE_CHECKING:
    from inboxdesk.tui.inbox.screen import InboxScreen

# The keys that act on the v2 inbox: an older service has none of them.
INBOX_ACTIONS = {action.value for action in INBOX_WRITES}
# The v2 inbox's bulk archives: an older service has none either.
BULK_ACTIONS = {"archive_all", "archive_all_read"}
NOT_ON_OLDER = (
    "This service has no v2 inbox (an older deployment): archive and snooze are not there."
)


class Changes:
    """The inbox's keys that write, each made into one write for the outbox."""

    def __init__(self, screen: InboxScreen) -> None:
        self.screen = screen

    def _ask(self, question: str, detail: str, label: str, then: Callable[[], object]) -> None:
        from inboxdesk.tui.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.screen.app.push_screen(ConfirmScreen(question, detail, label), answered)

    def _targets(self) -> list[str]:
        screen = self.screen
        return targets(screen.selected, screen.table.cursor_key, screen.feed)

    # -- marks -------------------------------------------------------------------------

    def mark(self, mark_as: MarkAs) -> None:
        screen = self.screen
        ids = self._targets()
        if not ids:
            screen.notify("Nothing to mark: no message is highlighted.", severity="warning")
            return
        step = Step(mark_as.value, tuple(ids))
        write = Write(Kind.MARK, screen.subscriber_id, (step,), screen.feed.flags(ids))
        warning = webhook_warning(len(ids))
        if not warning:
            self.submit(write)
            return
        self._ask(
            f"Mark {plural(len(ids), 'message')} {mark_as.value}?",
            warning + " z undoes the mark, not the webhooks.",
            f"Mark {mark_as.value}",
            lambda: self.submit(write),
        )

    def submit(self, write: Write) -> None:
        outbox = self.screen.context.outbox

        async def send() -> None:
            await outbox.submit(write)

        # Not exclusive: the outbox sends writes one at a time, in the order they were made.
        start(self.screen, send, name="submit", group="write")

    # -- archive and snooze ------------------------------------------------------------

    def snooze(self) -> None:
        ids = self._inbox_targets("snooze")
        if not ids:
            return
        from inboxdesk.tui.screens.snooze import SnoozeScreen

        def chosen(moment: datetime | None) -> None:
            if moment is not None:
                self.inbox_write("snooze", moment, ids)

        screen = self.screen
        screen.app.push_screen(SnoozeScreen(len(ids), screen.context.clock), chosen)

    def _inbox_targets(self, action: str) -> list[str]:
        screen = self.screen
        if screen.older:
            screen.notify(NOT_ON_OLDER, severity="warning", markup=False)
            return []
        ids = self._targets()
        if not ids:
            screen.notify(f"Nothing to {action}: no message is highlighted.", severity="warning")
        return ids

    def inbox_write(
        self, action: str, until: datetime | None = None, ids: list[str] | None = None
    ) -> None:
        """One write of one v2 request per message, undoable and queued like a mark."""
        ids = ids if ids is not None else self._inbox_targets(action)
        if not ids:
            return
        screen = self.screen
        when = until.isoformat() if until is not None else None
        step = Step(action, tuple(ids))
        write = Write(Kind.INBOX, screen.subscriber_id, (step,), screen.feed.flags(ids), until=when)
        warning = webhook_warning(len(ids)) if action == "archive" else ""
        if not warning:
            self.submit(write)
            return
        self._ask(
            f"Archive {plural(len(ids), 'message')}?",
            warning + " z undoes the archive.",
            "Archive",
            lambda: self.submit(write),
        )

    # -- undo --------------------------------------------------------------------------

    def undo(self) -> None:
        screen = self.screen
        outbox = screen.context.outbox
        write = outbox.last(screen.subscriber_id)
        if write is None:
            screen.notify("Nothing to undo.", markup=False)
            return
        now = screen.feed.flags(write.before or {})

        async def send() -> None:
            await outbox.undo(write, now)

        start(screen, send, name="send_undo", group="write")

    # -- archive all -------------------------------------------------------------------

    def archive_all(self, read: bool) -> None:
        """Counted first (exactly), then asked with what the bulk operation does."""
        from inboxdesk.core.inbox.archive_all import plan_archive_all

        screen = self.screen
        client, subscriber_id = screen.context.client, screen.subscriber_id

        async def plan() -> None:
            found = await plan_archive_all(client, subscriber_id, read)
            if subscriber_id != screen.subscriber_id:
                return  # another subscriber opened meanwhile
            if found.count.value == 0:
                screen.notify("Nothing to archive here.", markup=False)
                return
            label = "Archive all read" if read else "Archive all"
            write = found.write()
            details = " ".join(found.details())
            self._ask(found.question(), details, label, lambda: self.submit(write))

        start(screen, plan, name="plan_archive_all", group="write")

    # -- mark all ----------------------------------------------------------------------

    def mark_all_read(self) -> None:
        screen = self.screen
        client, subscriber_id, v2 = screen.context.client, screen.subscriber_id, screen.v2

        async def list_unread() -> None:
            unread = await loader.unread_before(client, subscriber_id, v2)
            screen.post_message(UnreadListed(subscriber_id, unread.before, unread.count))

        start(screen, list_unread, name="list_unread", group="write")

    def unread_listed(self, event: UnreadListed) -> None:
        """Ask before marking them all, with how many and what it sets off."""
        screen = self.screen
        if event.count == 0:
            screen.notify("No unread messages: nothing to mark.")
            return
        if event.count is not None:
            count = f"{event.count:,}"
        elif screen.counts is not None and not screen.counts.unread.odd:
            count = f"more than {screen.counts.unread.value:,}"
        else:
            count = f"more than {UNDOABLE_MARK_ALL:,}"
        # Every in-app message changes, not only what the Inbox tab shows.
        detail = (
            "Every unread in-app message of this subscriber becomes read and seen, "
            "archived and snoozed ones included. "
        )
        if event.count is not None:
            warning = webhook_warning(event.count)
            detail += warning + " " if warning else ""
        else:
            detail += webhook_warning_uncounted() + " "
        detail += (
            "z undoes it."
            if event.before is not None
            else "This cannot be undone: there are too many to list which ones change."
        )
        write = Write(Kind.MARK_ALL, screen.subscriber_id, (Step(MarkAs.READ.value),), event.before)
        self._ask(
            f"Mark all {count} unread messages read (archived and snoozed included)?",
            detail,
            "Mark all read",
            lambda: self.submit(write),
        )
