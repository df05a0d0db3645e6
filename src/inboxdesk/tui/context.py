"""What a view is handed when it is built: the services it uses, and nothing of the App.

Screens get one `ViewContext` in their constructor and never import or reach into the
App; they tell it things by posting messages that bubble up to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from textual.signal import Signal

from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.tui.write_messages import WriteMessage

if TYPE_CHECKING:
    from inboxdesk.scope import Scope
    from inboxdesk.writes import Outbox


# The actions that write: none is bound in a read-only run (footer, help and palette
# list only bound keys).
WRITE_ACTIONS = frozenset(
    {
        "mark_read",
        "mark_unread",
        "mark_seen",
        "mark_unseen",
        "mark_all_read",
        "archive",
        "unarchive",
        "snooze",
        "unsnooze",
        "archive_all",
        "archive_all_read",
        "undo",
        "set_primary",
    }
)


@dataclass(frozen=True)
class ViewContext:
    """The services a view uses, handed to it when it is built."""

    client: InboxClient
    # The App's one outbox, opened on first use: the first frame needs none.
    outbox_of: Callable[[], Outbox]
    clock: Callable[[], datetime]
    # Tell the user what failed and what to do (one place: the App's report).
    report: Callable[[InboxdeskError], None]
    # Every write's outcome, for each view to redraw what it shows of it.
    writes: Signal[WriteMessage]
    # The organization's environments and the key's own, once known (its home: the App).
    scope: Callable[[], Scope | None]
    auto_refresh: float = 0.0
    # The setting that makes this run read-only (`--read-only`, a profile's), else None.
    read_only: str | None = None

    def allows(self, action: str) -> bool:
        """Whether `action` may be bound: every action but the writes in a read-only run."""
        return self.read_only is None or action not in WRITE_ACTIONS

    @property
    def outbox(self) -> Outbox:
        return self.outbox_of()
