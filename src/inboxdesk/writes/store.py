"""The outbox's file: the queue of writes not yet sent, and the journal of every write.

One SQLite file in the user data directory (WAL, mode 0600). It holds no key: a write
is filed under its profile, host and environment.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inboxdesk.writes.model import Where, Write

SCHEMA = """
CREATE TABLE IF NOT EXISTS queue (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    profile TEXT NOT NULL,
    host TEXT NOT NULL,
    environment TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    profile TEXT NOT NULL,
    host TEXT NOT NULL,
    environment TEXT NOT NULL,
    at TEXT NOT NULL,
    outcome TEXT NOT NULL,
    body TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""


def _private(path: Path) -> None:
    """Create the file (and its folder) readable by its owner alone."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


class WriteStore:
    """The queue and the journal. `path=None` keeps both in memory (tests, `--no-history`)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        if path is not None:
            _private(path)
        self._db = sqlite3.connect(":memory:" if path is None else path, isolation_level=None)
        if path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            for side in ("-wal", "-shm"):
                sidecar = Path(f"{path}{side}")
                if sidecar.exists():
                    os.chmod(sidecar, 0o600)
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    # -- queue ---------------------------------------------------------------------------

    def enqueue(self, where: Where, write: Write) -> None:
        self._db.execute(
            "INSERT INTO queue (id, profile, host, environment, body) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET body = excluded.body",
            (write.id, where.profile, where.host, where.environment, json.dumps(write.to_json())),
        )

    def dequeue(self, write_id: str) -> None:
        self._db.execute("DELETE FROM queue WHERE id = ?", (write_id,))

    def queued(self, where: Where) -> list[Write]:
        rows = self._db.execute(
            "SELECT body FROM queue WHERE profile = ? AND host = ? AND environment = ?"
            " ORDER BY seq",
            (where.profile, where.host, where.environment),
        )
        return [Write.from_json(json.loads(body)) for (body,) in rows]

    def waiting_elsewhere(self, where: Where) -> int:
        """Queued writes of other profiles, hosts or environments: they wait for those."""
        (count,) = self._db.execute(
            "SELECT count(*) FROM queue WHERE NOT (profile = ? AND host = ? AND environment = ?)",
            (where.profile, where.host, where.environment),
        ).fetchone()
        return int(count)

    # -- journal -------------------------------------------------------------------------

    def record(
        self, where: Where, write: Write, outcome: str, detail: Mapping[str, Any] | None = None
    ) -> None:
        self._db.execute(
            "INSERT INTO journal (id, profile, host, environment, at, outcome, body, detail)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                write.id,
                where.profile,
                where.host,
                where.environment,
                datetime.now(UTC).isoformat(),
                outcome,
                json.dumps(write.to_json()),
                json.dumps(dict(detail or {})),
            ),
        )

    def journal(self, where: Where | None = None) -> list[tuple[str, Write, dict[str, Any]]]:
        """Every outcome recorded, oldest first: (outcome, write, detail)."""
        query = "SELECT outcome, body, detail FROM journal"
        args: tuple[str, ...] = ()
        if where is not None:
            query += " WHERE profile = ? AND host = ? AND environment = ?"
            args = (where.profile, where.host, where.environment)
        rows = self._db.execute(query + " ORDER BY seq", args)
        return [
            (outcome, Write.from_json(json.loads(body)), json.loads(detail))
            for outcome, body, detail in rows
        ]


def open_store(path: Path) -> tuple[WriteStore, str | None]:
    """The store at `path`; if it cannot be opened, one in memory and the reason, so that
    a broken data directory costs the queue's persistence and history, not the write."""
    try:
        return WriteStore(path), None
    except (OSError, sqlite3.Error) as exc:
        return WriteStore(None), (
            f"The write queue and history file {path} cannot be used ({exc}); writes are "
            "kept in memory for this session only."
        )
