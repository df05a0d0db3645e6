"""Opening a store: a database is brought up to the schema once, and stamped with it, so
that the next open skips that work; requests that a dead process left running are
forgotten. (A database made before the flag columns: tests/server/test_inbox_v2_deep.py.)
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from inboxdesk.server.store import SCHEMA_VERSION, Store


def indexes(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}


def stamp(path: Path, version: int | None = None) -> int:
    """The database's schema version; set first when `version` is given."""
    with closing(sqlite3.connect(path)) as db:
        if version is not None:
            db.execute(f"PRAGMA user_version = {version}")
            db.commit()
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def test_a_database_is_brought_up_once_and_again_when_another_version_made_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "service.db"
    Store(path).close()
    assert stamp(path) == SCHEMA_VERSION != 0
    with closing(sqlite3.connect(path)) as db:
        db.execute("DROP INDEX messages_by_flags")
    # Stamped with this schema: opening trusts the stamp and does no schema work.
    Store(path).close()
    assert "messages_by_flags" not in indexes(path)
    # Stamped by another version (or never, 0): brought up to this schema and stamped.
    for other in (0, SCHEMA_VERSION + 1):
        stamp(path, other)
        Store(path).close()
        assert "messages_by_flags" in indexes(path)
        assert stamp(path) == SCHEMA_VERSION
        with closing(sqlite3.connect(path)) as db:
            db.execute("DROP INDEX messages_by_flags")


def test_requests_left_running_by_a_dead_process_are_forgotten_on_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "service.db"
    store = Store(path)
    with store.transaction() as db:
        db.executemany(
            "INSERT INTO idempotency (organization_id, key, body_hash, state, created_at) "
            "VALUES ('org', ?, 'h', ?, 0)",
            [("in-flight", "pending"), ("answered", "done")],
        )
    store.close()
    reopened = Store(path)
    keys = reopened.read().execute("SELECT key FROM idempotency").fetchall()
    assert [row[0] for row in keys] == ["answered"]
    reopened.close()
