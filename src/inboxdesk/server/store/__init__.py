"""SQLite storage of the local service, one module per resource.

Queryable state (flags, dates, owners) lives in columns; the rest of each resource is
its wire JSON in `doc`. Every read and write is scoped to the caller's environment
(integrations may be listed and switched organization-wide, as older deployments do).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from pathlib import Path

from inboxdesk.server.checkpoints import FeedCheckpoints
from inboxdesk.server.store.activity import (
    ACTIVITY_SCHEMA,
    PREFERENCES_SCHEMA,
    ActivityQuery,
    ActivityStore,
    StagedNotification,
)
from inboxdesk.server.store.base import (
    Caller,
    Forbidden,
    NotAllowed,
    NotFound,
    hash_key,
    iso,
    utc_now,
)
from inboxdesk.server.store.idempotency import IdempotencyConflict, IdempotencyStore, Replay
from inboxdesk.server.store.inbox import (
    BulkOperation,
    InboxAction,
    InboxStore,
    Narrowing,
    SnoozeTooSoon,
    default_clock,
)
from inboxdesk.server.store.integrations import IntegrationStore
from inboxdesk.server.store.messages import MARK_EFFECTS
from inboxdesk.server.store.preferences import PreferenceStore
from inboxdesk.server.store.schema import ADDED_COLUMNS, INDEXES, SCHEMA
from inboxdesk.server.store.seeding import SeedingStore
from inboxdesk.server.store.subscribers import (
    SUBSCRIBER_COUNT_CAP,
    SUBSCRIBER_ORDER,
    SubscriberChanges,
    SubscriberSearch,
)
from inboxdesk.server.store.tenancy import TenancyStore
from inboxdesk.server.store.topics import TOPICS_SCHEMA, TopicStore
from inboxdesk.server.store.triggers import WORKER_SCHEMA, FoundWorkflow, TriggerStore
from inboxdesk.server.worker import Worker

# Everything that opening a database brings it up to.
_SCHEMA = SCHEMA + ACTIVITY_SCHEMA + PREFERENCES_SCHEMA + WORKER_SCHEMA + TOPICS_SCHEMA
# Stamped in the file (SQLite's `PRAGMA user_version`) once a database is brought up to
# this schema, so that the next open skips the work. A digest of the schema itself, not a
# number to bump: any change to it (a column, an index) brings every database made
# before up to date again. Never 0, which is what SQLite gives a file never stamped.
SCHEMA_VERSION = 1 + int.from_bytes(
    hashlib.sha256(repr((_SCHEMA, ADDED_COLUMNS, INDEXES)).encode()).digest()[:4], "big"
) % (2**31 - 1)

__all__ = [
    "MARK_EFFECTS",
    "SCHEMA_VERSION",
    "SUBSCRIBER_COUNT_CAP",
    "SUBSCRIBER_ORDER",
    "ActivityQuery",
    "BulkOperation",
    "Caller",
    "Forbidden",
    "FoundWorkflow",
    "IdempotencyConflict",
    "InboxAction",
    "Narrowing",
    "NotAllowed",
    "NotFound",
    "Replay",
    "SnoozeTooSoon",
    "StagedNotification",
    "Store",
    "SubscriberSearch",
    "hash_key",
    "iso",
    "utc_now",
]


class Store(
    TenancyStore,
    SeedingStore,
    IntegrationStore,
    InboxStore,
    PreferenceStore,
    SubscriberChanges,
    IdempotencyStore,
    ActivityStore,
    TriggerStore,
    TopicStore,
):
    """The whole database: every resource's store over one set of connections."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._writer = threading.Lock()
        self._callers: dict[str, Caller] = {}
        self._checkpoints = FeedCheckpoints()
        # The service's clock: snoozes end by it (tests set their own).
        self.clock = default_clock
        # Whether preferences are kept per context (ServerSettings.context_preferences).
        self.context_preferences = False
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # It holds API keys and integration credentials: readable by its owner alone. SQLite
            # gives its -wal and -shm files the database file's mode.
            with contextlib.suppress(FileExistsError):
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        db = self._connection()
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            db.executescript(_SCHEMA)
            self._add_columns()
        if db.execute("SELECT 1 FROM idempotency WHERE state = 'pending' LIMIT 1").fetchone():
            with self.transaction() as writing:
                # Requests that were running when the process died never finish.
                writing.execute("DELETE FROM idempotency WHERE state = 'pending'")
        # The worker of this store: started by the first trigger, or now when work
        # queued before the last stop is waiting.
        self.worker = Worker(self)
        self.worker.start_if_queued()

    @property
    def checkpoint_stride(self) -> int:
        """Rows between two checkpoints of a deep listing (server/checkpoints.py)."""
        return self._checkpoints.stride

    @checkpoint_stride.setter
    def checkpoint_stride(self, rows: int) -> None:
        # Checkpoints anew: those kept were taken at the stride before.
        self._checkpoints = FeedCheckpoints(rows)

    def close(self) -> None:
        """Stop the worker (what it has queued stays), then this thread's connection."""
        self.worker.stop()
        super().close()

    def _add_columns(self) -> None:
        """Bring a database made by an older version up to the schema, in place: its
        missing columns added and filled from what its rows hold, its indexes renewed,
        and the schema's version stamped with them."""
        with self.transaction() as db:
            for table, column, kind, fill in ADDED_COLUMNS:
                have = {row["name"] for row in db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                    if fill is not None:
                        db.execute(fill)
            for statement in INDEXES:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
