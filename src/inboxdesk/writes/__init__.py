"""Every write the app and the command line send, through one outbox (decisions.md 1 to 6).

UI-free: the app turns the outbox's events into Textual messages, the command line
prints them. Names are imported from their modules when first used (PEP 562): the
app's first frame needs a write's model and effects, not the outbox, its events or its
store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inboxdesk.lazy import exports

if TYPE_CHECKING:
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
    from inboxdesk.writes.model import (
        IDEMPOTENCY_WINDOW_HOURS,
        UNDOABLE_MARK_ALL,
        Kind,
        Step,
        Where,
        Write,
        describe,
    )
    from inboxdesk.writes.outbox import Outbox
    from inboxdesk.writes.store import WriteStore, open_store

_MODULES = {
    **dict.fromkeys(["Flags", "after_mark", "restore_steps"], "effects"),
    **dict.fromkeys(
        ["Dropped", "Event", "Failed", "Partial", "Queued", "Refused", "Result", "Sent"],
        "events",
    ),
    **dict.fromkeys(
        [
            "IDEMPOTENCY_WINDOW_HOURS",
            "UNDOABLE_MARK_ALL",
            "Kind",
            "Step",
            "Where",
            "Write",
            "describe",
        ],
        "model",
    ),
    "Outbox": "outbox",
    **dict.fromkeys(["WriteStore", "open_store"], "store"),
}


# Not seen by mypy, which reads the imports above and so still flags a wrong name.
if not TYPE_CHECKING:
    __getattr__, __dir__ = exports(__name__, _MODULES, globals())


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
