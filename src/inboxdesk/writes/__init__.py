"""Every write the app and the command line send, through one outbox (decisions.md 1 to 6).

UI-free: the app turns the outbox's events into Textual messages, the command line
prints them.
"""

from inboxdesk.writes.effects import Flags, after_mark, restore_steps
from inboxdesk.writes.events import (
    Dropped,
    Event,
    Failed,
    Partial,
    Queued,
    Refused,
    Result,
    Sent,
)
from inboxdesk.writes.model import IDEMPOTENCY_WINDOW_HOURS, Kind, Step, Where, Write, describe
from inboxdesk.writes.outbox import UNDOABLE_MARK_ALL, Outbox
from inboxdesk.writes.store import WriteStore, open_store

__all__ = [
    "IDEMPOTENCY_WINDOW_HOURS",
    "UNDOABLE_MARK_ALL",
    "Dropped",
    "Event",
    "Failed",
    "Flags",
    "Kind",
    "Outbox",
    "Partial",
    "Queued",
    "Refused",
    "Result",
    "Sent",
    "Step",
    "Where",
    "Write",
    "WriteStore",
    "after_mark",
    "describe",
    "open_store",
    "restore_steps",
]
