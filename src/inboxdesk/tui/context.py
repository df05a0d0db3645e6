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
    from inboxdesk.tui.environments import Environments
    from inboxdesk.writes import Outbox


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
    # The keys held, one per environment (its home: the App); None in a view built alone.
    environments: Environments | None = None

    @property
    def outbox(self) -> Outbox:
        return self.outbox_of()
