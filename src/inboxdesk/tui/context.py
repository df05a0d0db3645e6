"""What a view is handed when it is built: the services it uses, and nothing of the App.

Screens get one `ViewContext` in their constructor and never import or reach into the
App. What the App keeps and a view shows (whether the service is away, the
environments) comes as a `Watched` value; every write's outcome comes from the outbox
through `writes`, to which the App subscribes too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual.signal import Signal

from inboxdesk.client import InboxClient, InboxdeskError

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.screen import Screen

    from inboxdesk.scope import Scope
    from inboxdesk.tui.environments import HeldKeys
    from inboxdesk.writes import Event, Outbox

T = TypeVar("T")


class Watched(Generic[T]):
    """A value with one home that views watch: `value` now, and a call on each change."""

    def __init__(self, owner: DOMNode, name: str, value: T) -> None:
        self._value = value
        self._changed: Signal[T] = Signal(owner, name)

    @property
    def value(self) -> T:
        return self._value

    def set(self, value: T) -> None:
        if value != self._value:
            self._value = value
            self._changed.publish(value)

    def watch(self, node: DOMNode, callback: Callable[[T], Any]) -> None:
        """Call `callback` with each new value while `node` is mounted."""
        self._changed.subscribe(node, callback, immediate=True)


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
        "toggle_cell",
        "edit_subscriber",
        "remove_credentials",
        "remove_token",
        "resend",
        "cancel_delayed",
        "edit_schedule",
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
    # Every write's outcome, as the outbox hands it on: each subscriber redraws what it
    # shows of it (`writes.subscribe(node, callback)`).
    writes: Signal[Event]
    # True while the service is unreachable: views show it, and load again once back.
    offline: Watched[bool]
    # The organization's environments and the key's own, once known.
    scope: Watched[Scope | None]
    # The subscriber the agent is on (set by the inbox as it opens one): every view that
    # shows a subscriber's data starts from it.
    subscriber: Watched[str | None]
    # Switch to a view (its mode, tui/modes.py) and have it show what is asked (its
    # message, or the timeline's notification); its screen, or None before the inbox
    # is open. Every opener of a view goes through it.
    open: Callable[[str, object], Screen[Any] | None]
    auto_refresh: float = 0.0
    # Following a delivery: the seconds kept for a provider's report, and the most.
    follow_grace: float = 5.0
    follow_limit: float = 600.0
    # The keys held, one per environment (their home: the App); None in a view built alone.
    keys: HeldKeys | None = None
    # The setting that makes this run read-only (`--read-only`, a profile's, the
    # environment acted in), else None: asked each time, as a key given alone learns
    # its environment (and so its read_only) after the views are built.
    read_only_of: Callable[[], str | None] = lambda: None

    @property
    def read_only(self) -> str | None:
        return self.read_only_of()

    def allows(self, action: str) -> bool:
        """Whether `action` may be bound: every action but the writes in a read-only run."""
        return self.read_only is None or action not in WRITE_ACTIONS

    @property
    def outbox(self) -> Outbox:
        return self.outbox_of()
