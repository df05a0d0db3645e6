"""The outbox's file: the queue of writes not yet sent, and the journal of every write.

One SQLite file in the user data directory (WAL, mode 0600). It holds no key: a write
is filed under its profile, host and environment, and the fingerprint of the key it was
made with (an HMAC under a random secret kept in a 0600 file beside it), so that
another key never sends it. A process claims a queued write in the file before sending
it: two processes on one data folder never both send it.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from inboxdesk.writes.effects import Flags
from inboxdesk.writes.model import Where, Write, aware_time

SCHEMA = """
CREATE TABLE IF NOT EXISTS queue (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    profile TEXT NOT NULL,
    host TEXT NOT NULL,
    environment TEXT NOT NULL,
    body TEXT NOT NULL,
    fingerprint TEXT NOT NULL DEFAULT '',
    claimed TEXT,
    claimed_at TEXT
);
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    profile TEXT NOT NULL,
    host TEXT NOT NULL,
    environment TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    made_at TEXT NOT NULL,
    at TEXT NOT NULL,
    outcome TEXT NOT NULL,
    queued INTEGER NOT NULL DEFAULT 0,
    body TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_made ON journal (made_at);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# The file's format; a file of a newer one is refused rather than misread.
VERSION = 3
# Journal entries older than this many days go when the file is opened.
RETENTION_DAYS = 90
# A claim older than this is a process that died mid-send: another may take the write.
CLAIM_MINUTES = 10
SECRET_BYTES = 32


class JournalError(Exception):
    """The file cannot be used: unreadable, or written by a newer inboxdesk."""


@dataclass(frozen=True)
class Entry:
    """One write in the journal, with its latest outcome."""

    write: Write
    where: Where
    outcome: str  # sent, partial, queued, failed, dropped
    at: datetime  # when that outcome came
    queued: bool  # whether it ever waited in the queue
    detail: dict[str, Any]
    seq: int = 0  # the order entries were first recorded in


def _private(path: Path) -> None:
    """Create the file (and its folder) readable by its owner alone."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def secret_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.secret")


def _secret(path: Path) -> bytes:
    """The install's fingerprint secret beside the file, made once (0600). Written whole
    to a file of its own then linked into place: two processes starting together agree
    on one secret, and neither reads a half-written one."""
    where = secret_path(path)
    if not where.exists():
        made = where.with_name(f"{where.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_bytes(SECRET_BYTES))
        finally:
            os.close(fd)
        try:
            os.link(made, where)
        except FileExistsError:
            pass  # another process made it first: theirs is the one
        finally:
            made.unlink()
    os.chmod(where, 0o600)
    secret = where.read_bytes()
    if len(secret) != SECRET_BYTES:
        raise JournalError(
            f"{where} is damaged ({len(secret)} bytes, not {SECRET_BYTES}); remove it, and "
            "writes queued before are held for a key that can no longer be told"
        )
    return secret


def _running(token: str) -> bool:
    """Whether the process of a claim's token (`pid-random`) still runs on this machine.
    One that cannot be told (another user's, a token of another shape) counts as running:
    its claim then lapses after CLAIM_MINUTES, as before."""
    pid, _, _ = token.partition("-")
    if not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


class WriteStore:
    """The queue and the journal. `path=None` keeps both in memory (tests, `--no-history`)."""

    def __init__(
        self, path: Path | None, retention_days: int = RETENTION_DAYS, most: int = 0
    ) -> None:
        self.path = path
        self.problem: str | None = None
        # Lines naming damaged rows skipped (one each), for the caller to say.
        self.skipped: dict[str, str] = {}
        # Who this store's claims are by: one process, one store.
        self.token = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.secret = secrets.token_bytes(SECRET_BYTES)
        if path is not None:
            _private(path)
            self.secret = _secret(path)
        self._db = sqlite3.connect(":memory:" if path is None else path, isolation_level=None)
        try:
            self._open(path, retention_days, most)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise JournalError(f"{path} is not a file inboxdesk can read ({exc})") from None
        except JournalError:
            self._db.close()
            raise

    def _open(self, path: Path | None, retention_days: int, most: int) -> None:
        if path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            for side in ("-wal", "-shm"):
                sidecar = Path(f"{path}{side}")
                if sidecar.exists():
                    os.chmod(sidecar, 0o600)
        found = self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
        ).fetchone()
        version = None
        if found:
            row = self._db.execute("SELECT value FROM meta WHERE name = 'version'").fetchone()
            try:
                version = int(row[0]) if row else None
            except (TypeError, ValueError):
                # The format number alone is damaged: read it as this format, not drop it.
                self._skip("version", f"its format number {row[0]!r} is not a number")
                version = VERSION
        if version is not None and version > VERSION:
            raise JournalError(
                f"{path} was written by a newer inboxdesk (format {version}; this one reads "
                f"up to {VERSION})"
            )
        # One transaction for the whole opening: one commit (and one sync of the log)
        # in place of one per statement, a tenth of the time on a new file.
        self._db.execute("BEGIN IMMEDIATE")
        with self._db:  # commits, or rolls back on an error
            if version is None:
                # Format 1 kept a row per outcome: its journal is dropped, its queue kept.
                self._db.execute("DROP TABLE IF EXISTS journal")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(queue)")}
            for column in (
                "fingerprint TEXT NOT NULL DEFAULT ''",
                "claimed TEXT",
                "claimed_at TEXT",
            ):
                if column.split()[0] not in columns:  # a queue of format 2
                    self._db.execute(f"ALTER TABLE queue ADD COLUMN {column}")
            self._db.execute(
                "INSERT OR REPLACE INTO meta (name, value) VALUES ('version', ?)", (str(VERSION),)
            )
            cutoff = datetime.now(UTC) - timedelta(days=retention_days)
            self._db.execute("DELETE FROM journal WHERE made_at < ?", (cutoff.isoformat(),))
            if most:
                self._db.execute(
                    "DELETE FROM journal WHERE seq NOT IN"
                    " (SELECT seq FROM journal ORDER BY made_at DESC, seq DESC LIMIT ?)",
                    (most,),
                )

    def close(self) -> None:
        self._db.close()

    # -- queue ---------------------------------------------------------------------------

    def _skip(self, name: str, why: str) -> None:
        self.skipped.setdefault(name, f"{self.path or 'the journal'}: {name} skipped: {why}.")

    def enqueue(self, where: Where, write: Write, fingerprint: str) -> None:
        """File `write` in the queue (again: its body updated, its claim let go)."""
        self._db.execute(
            "INSERT INTO queue (id, profile, host, environment, body, fingerprint)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET body = excluded.body, claimed = NULL,"
            " claimed_at = NULL",
            (
                write.id,
                where.profile,
                where.host,
                where.environment,
                json.dumps(write.to_json()),
                fingerprint,
            ),
        )

    def dequeue(self, write_id: str) -> None:
        self._db.execute("DELETE FROM queue WHERE id = ?", (write_id,))

    def _stale(self) -> str:
        return (datetime.now(UTC) - timedelta(minutes=CLAIM_MINUTES)).isoformat()

    def _release_dead(self) -> None:
        """Let go the claims of processes that no longer run (killed between a claim and
        its send): their writes go out in their place in the queue, before any made later,
        not 10 minutes later behind them."""
        rows = self._db.execute(
            "SELECT DISTINCT claimed FROM queue WHERE claimed IS NOT NULL AND claimed != ?",
            (self.token,),
        ).fetchall()
        for (token,) in rows:
            if not _running(str(token)):
                self._db.execute(
                    "UPDATE queue SET claimed = NULL, claimed_at = NULL WHERE claimed = ?",
                    (token,),
                )

    def queued(self, where: Where, fingerprint: str) -> list[Write]:
        """The writes filed for `where` and made with the key of `fingerprint`, oldest
        first, but those another process is sending now."""
        self._release_dead()
        rows = self._db.execute(
            "SELECT seq, body FROM queue WHERE profile = ? AND host = ? AND environment = ?"
            " AND fingerprint = ? AND (claimed IS NULL OR claimed = ? OR claimed_at < ?)"
            " ORDER BY seq",
            (where.profile, where.host, where.environment, fingerprint, self.token, self._stale()),
        )
        found = []
        for seq, body in rows:
            try:
                found.append(Write.from_json(json.loads(body)))
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                self._skip(f"queued write {seq}", f"it cannot be read ({type(exc).__name__})")
        return found

    def held(self, where: Where, fingerprint: str) -> int:
        """Queued writes of this profile and host made with another key: never sent with
        this one (they wait for theirs)."""
        (count,) = self._db.execute(
            "SELECT count(*) FROM queue WHERE profile = ? AND host = ? AND fingerprint != ?",
            (where.profile, where.host, fingerprint),
        ).fetchone()
        return int(count)

    def refile(self, write_id: str, where: Where) -> None:
        self._db.execute(
            "UPDATE queue SET profile = ?, host = ?, environment = ? WHERE id = ?",
            (where.profile, where.host, where.environment, write_id),
        )

    def claim(self, write_id: str) -> bool:
        """This process's to send: False when another has it (or it left the queue)."""
        done = self._db.execute(
            "UPDATE queue SET claimed = ?, claimed_at = ? WHERE id = ?"
            " AND (claimed IS NULL OR claimed = ? OR claimed_at < ?)",
            (self.token, datetime.now(UTC).isoformat(), write_id, self.token, self._stale()),
        )
        return done.rowcount == 1

    def release(self, write_id: str) -> None:
        self._db.execute(
            "UPDATE queue SET claimed = NULL, claimed_at = NULL WHERE id = ? AND claimed = ?",
            (write_id, self.token),
        )

    # -- journal -------------------------------------------------------------------------

    def record(
        self,
        where: Where,
        write: Write,
        outcome: str,
        detail: Mapping[str, Any] | None = None,
        at: datetime | None = None,
    ) -> None:
        """The write's latest outcome: one entry per write, updated as it goes.

        A journal that cannot be written (a full disk) stops, and says why in `problem`:
        the write itself goes on.
        """
        if self.problem is not None:
            return
        try:
            self._record(where, write, outcome, detail, at or datetime.now(UTC))
        except sqlite3.Error as exc:
            self.problem = f"The journal of writes stopped: {exc}. Writes go on unrecorded."

    def _record(
        self,
        where: Where,
        write: Write,
        outcome: str,
        detail: Mapping[str, Any] | None,
        at: datetime,
    ) -> None:
        self._db.execute(
            "INSERT INTO journal (id, profile, host, environment, kind, target, made_at, at,"
            " outcome, queued, body, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET at = excluded.at, outcome = excluded.outcome,"
            " queued = queued OR excluded.queued, body = excluded.body,"
            " environment = excluded.environment, detail = excluded.detail",
            (
                write.id,
                where.profile,
                where.host,
                where.environment,
                write.kind.value,
                write.target,
                write.made_at.isoformat(),
                at.isoformat(),
                outcome,
                int(outcome == "queued"),
                json.dumps(write.to_json()),
                json.dumps(dict(detail or {})),
            ),
        )

    def entries(
        self,
        where: Where | None = None,
        target: str | None = None,
        since: datetime | None = None,
        limit: int | None = None,
        write_id: str | None = None,
    ) -> list[Entry]:
        """Journal entries, newest first; `where` with an empty environment matches any."""
        query = (
            "SELECT profile, host, environment, at, outcome, queued, body, detail, seq, id"
            " FROM journal"
        )
        clauses: list[str] = []
        args: list[object] = []
        if where is not None:
            clauses += ["profile = ?", "host = ?"]
            args += [where.profile, where.host]
            if where.environment:
                clauses.append("environment = ?")
                args.append(where.environment)
        if target is not None:
            clauses.append("target = ?")
            args.append(target)
        if since is not None:
            clauses.append("made_at >= ?")
            args.append(since.astimezone(UTC).isoformat())
        if write_id is not None:
            clauses.append("id = ?")
            args.append(write_id)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY made_at DESC, seq DESC"
        if limit is not None:
            query += f" LIMIT {int(limit)}"
        found = []
        for row in self._db.execute(query, args):
            try:
                found.append(_entry(row[:-1]))
            except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
                why = str(exc) if isinstance(exc, _Damaged) else type(exc).__name__
                self._skip(f"journal entry {row[-1]}", f"it cannot be read ({why})")
        return found

    def entry(self, write_id: str) -> Entry | None:
        found = self.entries(write_id=write_id)
        return found[0] if found else None

    def later(self, entry: Entry) -> list[Entry]:
        """Entries made after `entry` that may have changed something (sent, done in
        part, or queued), newest first: its kind says which touched what it touched."""
        return [
            e
            for e in self.entries(entry.where, since=entry.write.made_at)
            if e.seq > entry.seq and e.outcome in ("sent", "partial", "queued")
        ]

    def last_seen(self, where: Where, ids: Iterable[str]) -> dict[str, Flags]:
        """Each id's flags as the service last returned them to a journaled write."""
        wanted, found = set(ids), {}
        for entry in self.entries(where):
            for message_id, flags in entry.detail.get("after", {}).items():
                if message_id in wanted and message_id not in found:
                    found[message_id] = (bool(flags[0]), bool(flags[1]))
            if len(found) == len(wanted):
                break
        return found

    def find(self, prefix: str) -> list[Entry]:
        """The entries whose id starts with `prefix` (ids are shown shortened)."""
        wanted = prefix.strip().lower()
        if not wanted or not all(c in "0123456789abcdef" for c in wanted):
            return []
        return [e for e in self.entries() if e.write.id.startswith(wanted)]


class _Damaged(ValueError):
    """A journal row whose fields are not what inboxdesk writes."""


def _entry(row: tuple[Any, ...]) -> Entry:
    """One journal row as an entry; raises on a row damaged by hand or by a disk."""
    profile, host, environment, at, outcome, queued, body, detail, seq = row
    if not isinstance(body, str) or not isinstance(detail, str):
        raise _Damaged("a field is not text")
    details = json.loads(detail)
    if not isinstance(details, dict):
        raise _Damaged("its detail is not an object")
    after = details.get("after", {})
    if not isinstance(after, dict) or not all(
        isinstance(f, list) and len(f) == 2 for f in after.values()
    ):
        raise _Damaged("its detail's flags are not pairs")
    data = json.loads(body)
    if not isinstance(data, dict):
        raise _Damaged("its body is not an object")
    return Entry(
        Write.from_json(data),
        Where(str(profile), str(host), str(environment)),
        str(outcome),
        aware_time(at),
        bool(queued),
        details,
        int(seq),
    )


def open_store(
    path: Path, retention_days: int = RETENTION_DAYS, most: int = 0
) -> tuple[WriteStore, str | None]:
    """The store at `path`; if it cannot be opened, one in memory and the reason, so that
    a broken data directory costs the queue's persistence and history, not the write."""
    try:
        return WriteStore(path, retention_days, most), None
    except (OSError, sqlite3.Error, JournalError) as exc:
        return WriteStore(None), (
            f"The write queue and history file cannot be used: {exc}. Writes are kept in "
            "memory for this session only."
        )
