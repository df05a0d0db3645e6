"""The names `inboxdesk.writes` exports, each once: the type checkers read them here, and
`lazy_loader` imports each from its module when first used (__init__.py)."""

from .effects import (
    Flags as Flags,
    after_mark as after_mark,
    restore_steps as restore_steps,
)
from .events import (
    Dropped as Dropped,
    Event as Event,
    Failed as Failed,
    Partial as Partial,
    Queued as Queued,
    Refused as Refused,
    Result as Result,
    Sent as Sent,
)
from .model import (
    IDEMPOTENCY_WINDOW_HOURS as IDEMPOTENCY_WINDOW_HOURS,
    UNDOABLE_MARK_ALL as UNDOABLE_MARK_ALL,
    Kind as Kind,
    Step as Step,
    Where as Where,
    Write as Write,
)
from .kinds import (
    describe as describe,
    kind_of as kind_of,
)
from .outbox import Outbox as Outbox
from .store import (
    WriteStore as WriteStore,
    open_store as open_store,
)
