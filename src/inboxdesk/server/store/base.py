"""The database under every store: one connection per thread, one writer at a time."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic_core import from_json


def iso(at: datetime) -> str:
    """ISO 8601 UTC with milliseconds and `Z`, as the service writes every time."""
    u = at.astimezone(UTC)
    # What `isoformat(timespec="milliseconds")` writes, in a third less time (an f-string
    # is as slow as isoformat): the demo formats some 20,000 times at each start.
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (  # noqa: UP031
        u.year,
        u.month,
        u.day,
        u.hour,
        u.minute,
        u.second,
        u.microsecond // 1000,
    )


def utc_now() -> str:
    return iso(datetime.now(UTC))


def read_doc(text: str) -> Any:
    """A stored JSON document, as `json.loads` reads it, in a third of its time (the
    listings read one per row); what pydantic-core's parser refuses (an escaped lone
    surrogate) `json.loads` reads."""
    try:
        return from_json(text)
    except ValueError:
        return json.loads(text)


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who a request acts for: one environment of one organization."""

    environment_id: str
    organization_id: str


class NotFound(Exception):
    """The resource does not exist in the caller's environment."""


class Forbidden(Exception):
    """A request the caller's key may not make (403), in production's words."""


class NotAllowed(Exception):
    """A request the service refuses with 400 and this message, as production words it."""


class Database:
    """One SQLite database; one connection per thread, WAL so readers never block."""

    path: str
    _local: threading.local
    _writer: threading.Lock

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=30000")
            self._local.db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that holds the write lock from its first statement.

        One writer at a time in this process: a writer waits on a lock in its own thread
        instead of retrying SQLite's busy lock (busy_timeout still covers other processes).
        Callers on the service run it in worker threads, never on the event loop.
        A transaction opened inside another of the same thread is part of it.
        """
        db = self._connection()
        if getattr(self._local, "depth", 0):
            # Inside another transaction of this thread (a fixture loaded whole): one.
            yield db
            return
        with self._writer:
            db.execute("BEGIN IMMEDIATE")
            self._local.depth = 1
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            finally:
                self._local.depth = 0
            db.execute("COMMIT")

    def read(self) -> sqlite3.Connection:
        return self._connection()

    def close(self) -> None:
        self.close_connection()

    def close_connection(self) -> None:
        """Close this thread's connection (each thread that used the database closes its
        own; a store's `close` does more)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
