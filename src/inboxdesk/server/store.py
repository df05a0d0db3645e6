"""SQLite storage of the local service: schema, scoping by environment, both operations.

Queryable state (flags, dates, owners) lives in columns; the rest of each resource is
its wire JSON in `doc`. Every read and write is scoped to one environment.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inboxdesk.models import COUNT_CAP, Integration, MarkAs, Message, Subscriber, Workflow
from inboxdesk.models.enums import PRIMARY_CHANNELS, Channel
from inboxdesk.models.ids import new_object_id
from inboxdesk.server.checkpoints import FeedCheckpoints

SCHEMA = """
CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS environments (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_hash TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS integrations (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    channel TEXT NOT NULL,
    is_primary INTEGER NOT NULL,
    active INTEGER NOT NULL,
    deleted INTEGER NOT NULL,
    position INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS integrations_by_env ON integrations(environment_id, channel);
-- The invariant of set primary, held by the database itself.
CREATE UNIQUE INDEX IF NOT EXISTS one_primary_per_channel
    ON integrations(environment_id, channel) WHERE is_primary = 1 AND deleted = 0;
CREATE TABLE IF NOT EXISTS subscribers (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    subscriber_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    doc TEXT NOT NULL,
    UNIQUE (environment_id, subscriber_id)
);
CREATE TABLE IF NOT EXISTS workflows (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    subscriber_pk TEXT NOT NULL REFERENCES subscribers(id),
    workflow_id TEXT REFERENCES workflows(id),
    channel TEXT NOT NULL,
    transaction_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    read INTEGER NOT NULL,
    seen INTEGER NOT NULL,
    last_read_date TEXT,
    last_seen_date TEXT,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_feed
    ON messages(environment_id, subscriber_pk, channel, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS messages_by_env ON messages(environment_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS messages_by_transaction ON messages(environment_id, transaction_id);
CREATE TABLE IF NOT EXISTS idempotency (
    organization_id TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    status INTEGER,
    content_type TEXT,
    body BLOB,
    created_at REAL NOT NULL,
    PRIMARY KEY (organization_id, key)
);
"""

# Columns of `messages` that override the stored document when a message is read.
_MESSAGE_COLUMNS = "id, subscriber_pk, workflow_id, read, seen, last_read_date, last_seen_date, doc"
IDEMPOTENCY_TTL = 24 * 3600.0
# A pending idempotency record older than this belongs to a request that died.
IDEMPOTENCY_ABANDONED = 120.0


# behaviour.md section 2: what each markAs sets, and the state it changes (for mark-all).
MARK_EFFECTS: dict[MarkAs, tuple[str, str]] = {
    MarkAs.READ: ("read = 1, seen = 1, last_read_date = :now, last_seen_date = :now", "read = 0"),
    MarkAs.UNREAD: ("read = 0, seen = 1, last_read_date = :now, last_seen_date = :now", "read = 1"),
    MarkAs.SEEN: ("seen = 1, last_seen_date = :now", "seen = 0"),
    MarkAs.UNSEEN: ("seen = 0, last_seen_date = :now", "seen = 1"),
}


def iso(at: datetime) -> str:
    """ISO 8601 UTC with milliseconds and `Z`, as the service writes every time."""
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def utc_now() -> str:
    return iso(datetime.now(UTC))


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


@dataclass(frozen=True)
class Caller:
    """Who a request acts for: one environment of one organization."""

    environment_id: str
    organization_id: str


@dataclass(frozen=True)
class SubscriberSearch:
    """The query of `GET /v2/subscribers`: filters, page size, cursors and order."""

    email: str | None = None
    name: str | None = None
    phone: str | None = None
    subscriber_id: str | None = None
    limit: int = 10
    after: str | None = None
    before: str | None = None
    order_by: str = "_id"
    descending: bool = True
    include_cursor: bool = False


# What `orderBy` may name, as SQL over the subscribers table.
SUBSCRIBER_ORDER = {
    "_id": "id",
    "createdAt": "created_at",
    "updatedAt": "coalesce(json_extract(doc, '$.updatedAt'), '')",
    "subscriberId": "subscriber_id",
    "email": "coalesce(json_extract(doc, '$.email'), '')",
}
# Production counts matching subscribers up to this many (totalCountCapped past it).
SUBSCRIBER_COUNT_CAP = 50_000


@dataclass(frozen=True)
class Replay:
    status: int
    content_type: str
    body: bytes


class NotFound(Exception):
    """The resource does not exist in the caller's environment."""


class NotAllowed(Exception):
    """A request the service refuses with 400 and this message, as production words it."""


class IdempotencyConflict(Exception):
    """The key is in use by a request still running, or was used for another body."""

    def __init__(self, in_flight: bool) -> None:
        super().__init__("in flight" if in_flight else "different body")
        self.in_flight = in_flight


class Store:
    """One SQLite database; one connection per thread, WAL so readers never block."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._local = threading.local()
        self._writer = threading.Lock()
        self._callers: dict[str, Caller] = {}
        self._checkpoints = FeedCheckpoints()
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._connection().executescript(SCHEMA)
        with self.transaction() as db:
            # Requests that were running when the process died never finish.
            db.execute("DELETE FROM idempotency WHERE state = 'pending'")

    # -- connections -------------------------------------------------------------------

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
        """
        db = self._connection()
        with self._writer:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def read(self) -> sqlite3.Connection:
        return self._connection()

    def close(self) -> None:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # -- tenancy and keys --------------------------------------------------------------

    def create_organization(self, name: str, org_id: str | None = None) -> str:
        org_id = org_id or new_object_id()
        with self.transaction() as db:
            db.execute("INSERT INTO organizations VALUES (?, ?)", (org_id, name))
        return org_id

    def create_environment(self, organization_id: str, name: str, env_id: str | None = None) -> str:
        env_id = env_id or new_object_id()
        with self.transaction() as db:
            db.execute("INSERT INTO environments VALUES (?, ?, ?)", (env_id, organization_id, name))
        return env_id

    def add_api_key(self, environment_id: str, api_key: str) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO api_keys VALUES (?, ?, ?)",
                (hash_key(api_key), environment_id, utc_now()),
            )

    def environments(self) -> list[sqlite3.Row]:
        return self.read().execute("SELECT * FROM environments ORDER BY name").fetchall()

    def authenticate(self, api_key: str) -> Caller | None:
        """The caller a key belongs to, looked up by the key's SHA-256.

        The lookup's time depends on the hash, not on the key, so it tells a caller
        nothing about a stored key. Keys are never revoked by this service, so a found
        key is remembered.
        """
        digest = hash_key(api_key)
        known = self._callers.get(digest)
        if known is not None:
            return known
        row = (
            self.read()
            .execute(
                "SELECT k.key_hash, e.id AS env, e.organization_id AS org FROM api_keys k "
                "JOIN environments e ON e.id = k.environment_id WHERE k.key_hash = ?",
                (digest,),
            )
            .fetchone()
        )
        if row is None:
            return None
        caller = Caller(environment_id=row["env"], organization_id=row["org"])
        self._callers[digest] = caller
        return caller

    def is_empty(self) -> bool:
        return self.read().execute("SELECT 1 FROM organizations LIMIT 1").fetchone() is None

    # -- inserting resources (seeding and fixtures) ------------------------------------

    def insert_integrations(self, items: Sequence[Integration]) -> None:
        with self.transaction() as db:
            start = db.execute("SELECT COUNT(*) FROM integrations").fetchone()[0]
            db.executemany(
                "INSERT INTO integrations VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        item.id,
                        item.environment_id,
                        str(item.channel),
                        int(item.primary),
                        int(item.active),
                        int(item.deleted),
                        start + n,
                        json.dumps(item.to_wire()),
                    )
                    for n, item in enumerate(items)
                ],
            )

    def insert_subscribers(self, items: Sequence[Subscriber]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO subscribers VALUES (?, ?, ?, ?, ?)",
                [
                    (
                        s.id,
                        s.environment_id,
                        s.subscriber_id,
                        s.created_at,
                        json.dumps(s.to_wire()),
                    )
                    for s in items
                ],
            )

    def insert_workflows(self, items: Sequence[Workflow]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO workflows VALUES (?, ?, ?)",
                [(w.id, w.environment_id, json.dumps(w.to_wire())) for w in items],
            )

    def insert_messages(self, items: Sequence[Message]) -> None:
        """Store messages; their subscriber and template are stored once, elsewhere."""
        rows = []
        for m in items:
            doc = m.to_wire()
            for joined in ("subscriber", "template"):
                doc.pop(joined, None)
            # Production's feed items carry the job that sent them and the archive state.
            # The job id follows from the message's, so a fixture loads the same each time.
            job = hashlib.sha256(f"job:{m.id}".encode()).hexdigest()[:24]
            doc.setdefault("_jobId", job)
            doc.setdefault("archived", False)
            rows.append(
                (
                    m.id,
                    m.environment_id,
                    m.subscriber_internal_id,
                    m.template_id,
                    str(m.channel),
                    m.transaction_id,
                    m.created_at,
                    int(m.read),
                    int(m.seen),
                    m.last_read_date,
                    m.last_seen_date,
                    json.dumps(doc),
                )
            )
        with self._checkpoints.writing(inserts=True), self.transaction() as db:
            db.executemany("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    # -- integrations ------------------------------------------------------------------

    @staticmethod
    def _integration(row: sqlite3.Row) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(row["doc"])
        doc["_id"] = row["id"]
        doc["primary"] = bool(row["is_primary"])
        doc["active"] = bool(row["active"])
        doc["deleted"] = bool(row["deleted"])
        return doc

    def list_integrations(self, caller: Caller, active_only: bool = False) -> list[dict[str, Any]]:
        sql = "SELECT * FROM integrations WHERE environment_id = ? AND deleted = 0"
        if active_only:
            sql += " AND active = 1"
        rows = self.read().execute(sql + " ORDER BY position", (caller.environment_id,))
        return [self._integration(row) for row in rows]

    def set_primary(self, caller: Caller, integration_id: str) -> dict[str, Any]:
        """Make one email/sms integration the only primary of its channel, atomically."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT * FROM integrations WHERE id = ? AND environment_id = ? AND deleted = 0",
                (integration_id, caller.environment_id),
            ).fetchone()
            if row is None:
                raise NotFound(f"Integration with id {integration_id} not found")
            if row["channel"] not in PRIMARY_CHANNELS:
                raise NotAllowed(f"Channel {row['channel']} does not support primary")
            if row["is_primary"]:
                return self._integration(row)
            db.execute(
                "UPDATE integrations SET is_primary = 0 "
                "WHERE environment_id = ? AND channel = ? AND is_primary = 1",
                (caller.environment_id, row["channel"]),
            )
            db.execute(
                "UPDATE integrations SET is_primary = 1, active = 1, "
                "doc = json_set(doc, '$.conditions', json('[]')) WHERE id = ?",
                (integration_id,),
            )
            updated = db.execute(
                "SELECT * FROM integrations WHERE id = ?", (integration_id,)
            ).fetchone()
            return self._integration(updated)

    # -- subscribers -------------------------------------------------------------------

    @staticmethod
    def _subscriber(db: sqlite3.Connection, caller: Caller, subscriber_id: str) -> sqlite3.Row:
        """The caller's subscriber by subscriberId, or NotFound."""
        row: sqlite3.Row | None = db.execute(
            "SELECT id, doc FROM subscribers WHERE environment_id = ? AND subscriber_id = ?",
            (caller.environment_id, subscriber_id),
        ).fetchone()
        if row is None:
            raise NotFound(f"Subscriber {subscriber_id} not found")
        return row

    def subscriber_pk(self, caller: Caller, subscriber_id: str) -> str:
        return str(self._subscriber(self.read(), caller, subscriber_id)["id"])

    def get_subscriber(self, caller: Caller, subscriber_id: str) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(
            self._subscriber(self.read(), caller, subscriber_id)["doc"]
        )
        return doc

    def list_subscribers(
        self, caller: Caller, page: int, limit: int
    ) -> tuple[list[dict[str, Any]], bool]:
        rows = (
            self.read()
            .execute(
                "SELECT doc FROM subscribers WHERE environment_id = ? "
                "ORDER BY created_at, id LIMIT ? OFFSET ?",
                (caller.environment_id, limit + 1, page * limit),
            )
            .fetchall()
        )
        return [json.loads(r["doc"]) for r in rows[:limit]], len(rows) > limit

    def search_subscribers(
        self, caller: Caller, search: SubscriberSearch
    ) -> tuple[list[dict[str, Any]], str | None, str | None, int]:
        """One cursor page of `GET /v2/subscribers`: the subscribers, the `next` and
        `previous` cursors (a subscriber's `_id`) and the total, counted up to a cap."""
        db = self.read()
        where = "environment_id = ?"
        params: list[Any] = [caller.environment_id]
        # Each filter given is a case-insensitive part of its field (LIKE's own wildcards
        # escaped); the name is "first last".
        for path, value in (
            ("$.email", search.email),
            ("$.phone", search.phone),
            ("$.subscriberId", search.subscriber_id),
        ):
            if value:
                where += " AND lower(coalesce(json_extract(doc, ?), '')) LIKE ? ESCAPE '\\'"
                params += [path, _contains(value)]
        if search.name:
            where += (
                " AND lower(trim(coalesce(json_extract(doc, '$.firstName'), '') || ' ' || "
                "coalesce(json_extract(doc, '$.lastName'), ''))) LIKE ? ESCAPE '\\'"
            )
            params.append(_contains(search.name))
        key = SUBSCRIBER_ORDER[search.order_by]
        total = db.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM subscribers WHERE {where} LIMIT ?)",
            [*params, SUBSCRIBER_COUNT_CAP + 1],
        ).fetchone()[0]
        descending = search.descending
        backwards = search.before is not None and search.after is None
        cursor = search.after if search.after is not None else search.before
        page_where, page_params = where, list(params)
        if cursor is not None:
            row = db.execute(
                f"SELECT {key} AS k, id FROM subscribers WHERE {where} AND id = ?",
                [*params, cursor],
            ).fetchone()
            if row is None:
                raise NotAllowed(f"Cursor {cursor} does not name a subscriber of this search")
            # After the cursor in the page order, or before it when paging back.
            later = descending != backwards
            sign = "<" if later else ">"
            if search.include_cursor:
                sign += "="
            page_where += f" AND ({key}, id) {sign} (?, ?)"
            page_params += [row["k"], row["id"]]
        walk = "DESC" if descending != backwards else "ASC"
        rows = db.execute(
            f"SELECT id, doc FROM subscribers WHERE {page_where} "
            f"ORDER BY {key} {walk}, id {walk} LIMIT ?",
            [*page_params, search.limit + 1],
        ).fetchall()
        more = len(rows) > search.limit
        rows = rows[: search.limit]
        if backwards:
            rows.reverse()
        docs = [json.loads(r["doc"]) for r in rows]
        if not rows:
            return [], None, None, min(total, SUBSCRIBER_COUNT_CAP)
        first, last = rows[0]["id"], rows[-1]["id"]
        if backwards:
            following, previous = last, (first if more else None)
        else:
            following, previous = (last if more else None), (first if cursor else None)
        return docs, following, previous, int(total)

    def count_notifications(
        self, caller: Caller, subscriber_id: str, filters: Sequence[dict[str, Any]]
    ) -> list[int]:
        """In-app notifications of the subscriber matching each filter, each counted up
        to COUNT_CAP as production's count endpoint does."""
        db = self.read()
        pk = self._subscriber(db, caller, subscriber_id)["id"]
        counts = []
        for wanted in filters:
            where = "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app'"
            params: list[Any] = [caller.environment_id, pk]
            for flag in ("read", "seen"):
                if isinstance(wanted.get(flag), bool):
                    where += f" AND {flag} = ?"
                    params.append(int(wanted[flag]))
            if isinstance(wanted.get("archived"), bool):
                where += " AND coalesce(json_extract(doc, '$.archived'), 0) = ?"
                params.append(int(wanted["archived"]))
            if isinstance(wanted.get("snoozed"), bool):
                where += " AND (json_extract(doc, '$.snoozedUntil') IS NOT NULL) = ?"
                params.append(int(wanted["snoozed"]))
            tags = wanted.get("tags")
            if isinstance(tags, list) and tags:
                marks = ",".join("?" * len(tags))
                where += (
                    " AND EXISTS (SELECT 1 FROM workflows w, json_each(w.doc, '$.tags') t "
                    f"WHERE w.id = messages.workflow_id AND t.value IN ({marks}))"
                )
                params += [str(t) for t in tags]
            row = db.execute(
                f"SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE {where} LIMIT ?)",
                [*params, COUNT_CAP],
            ).fetchone()
            counts.append(int(row[0]))
        return counts

    # -- messages ----------------------------------------------------------------------

    def _messages(
        self, db: sqlite3.Connection, rows: Sequence[sqlite3.Row]
    ) -> list[dict[str, Any]]:
        """Wire messages from rows, with their subscriber and template joined in."""
        subscriber_ids = {r["subscriber_pk"] for r in rows}
        workflow_ids = {r["workflow_id"] for r in rows if r["workflow_id"]}
        subscribers = _docs_by_id(db, "subscribers", subscriber_ids)
        workflows = _docs_by_id(db, "workflows", workflow_ids)
        out = []
        for r in rows:
            doc: dict[str, Any] = json.loads(r["doc"])
            doc["read"] = bool(r["read"])
            doc["seen"] = bool(r["seen"])
            for column, field in (
                ("last_read_date", "lastReadDate"),
                ("last_seen_date", "lastSeenDate"),
            ):
                if r[column] is not None:
                    doc[field] = r[column]
            if r["subscriber_pk"] in subscribers:
                doc["subscriber"] = subscribers[r["subscriber_pk"]]
            if r["workflow_id"] in workflows:
                doc["template"] = workflows[r["workflow_id"]]
            out.append(doc)
        return out

    def mark_as(
        self, caller: Caller, subscriber_id: str, message_ids: Sequence[str], mark_as: MarkAs
    ) -> list[dict[str, Any]]:
        """Apply one markAs to the subscriber's messages among the ids, in one transaction.

        As production does, every requested id that exists in the caller's environment
        comes back: the subscriber's updated, another subscriber's unchanged. Unknown
        ids and other environments' are left out.
        """
        assignments = MARK_EFFECTS[mark_as][0]
        wanted = list(dict.fromkeys(message_ids))
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            pk = self._subscriber(db, caller, subscriber_id)["id"]
            params: dict[str, Any] = {"now": utc_now(), "env": caller.environment_id, "pk": pk}
            params.update({f"id{n}": v for n, v in enumerate(wanted)})
            in_list = ",".join(f":id{n}" for n in range(len(wanted)))
            db.execute(
                # `+` keeps SQLite on the primary key: the env index scans the whole
                # environment (58 ms at 100k messages instead of 2).
                f"UPDATE messages SET {assignments} WHERE +environment_id = :env "
                f"AND +subscriber_pk = :pk AND id IN ({in_list})",
                params,
            )
            rows = db.execute(
                f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE +environment_id = :env "
                f"AND id IN ({in_list})",
                params,
            ).fetchall()
            by_id = {r["id"]: r for r in rows}
            ordered = [by_id[i] for i in wanted if i in by_id]
            return self._messages(db, ordered)

    def mark_all(self, caller: Caller, subscriber_id: str, mark_as: MarkAs) -> int:
        """Apply one markAs to every in-app message of the subscriber; the count changed."""
        assignments, differs = MARK_EFFECTS[mark_as]
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            pk = self._subscriber(db, caller, subscriber_id)["id"]
            cursor = db.execute(
                f"UPDATE messages SET {assignments} WHERE environment_id = :env "
                f"AND subscriber_pk = :pk AND channel = 'in_app' AND {differs}",
                {"now": utc_now(), "env": caller.environment_id, "pk": pk},
            )
            return cursor.rowcount

    def feed(
        self,
        caller: Caller,
        subscriber_id: str,
        page: int,
        limit: int,
        read: bool | None = None,
        seen: bool | None = None,
        payload: Any = None,
    ) -> tuple[list[dict[str, Any]], int, bool]:
        """One page of the subscriber's in-app feed items, newest first, as production
        answers it: the items, `totalCount` and `hasMore`.

        Production counts at most `limit + 1` rows past the page's offset, sets `hasMore`
        from that count and caps `totalCount` at `limit` (0 on an empty page). `payload`
        keeps the items whose payload holds every leaf of it (a partial payload).
        """
        db = self.read()
        row = db.execute(
            "SELECT id FROM subscribers WHERE environment_id = ? AND subscriber_id = ?",
            (caller.environment_id, subscriber_id),
        ).fetchone()
        if row is None:
            raise NotAllowed(
                f"Subscriber not found for this environment with the id: {subscriber_id}. "
                "Make sure to create a subscriber before fetching the feed."
            )
        where = "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app'"
        params: list[Any] = [caller.environment_id, row["id"]]
        if read is not None:
            where += " AND read = ?"
            params.append(int(read))
        if seen is not None:
            where += " AND seen = ?"
            params.append(int(seen))
        if payload is not None:
            clause, values = payload_filter(payload)
            where += f" AND {clause}"
            params += values
        offset, after, anchor = page * limit, "", list[Any]()
        if payload is None:
            # A deep page walks from the checkpoint before it, not from the top.
            listing = (caller.environment_id, row["id"], read, seen)
            after, anchor, offset = self._checkpoints.start(db, listing, where, params, offset)
        # One row past the page says whether there are more (production counts at most
        # limit + 1), so the offset is walked once; and it is walked in the feed index
        # alone, whole rows being read for the page only.
        fetched = db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id IN ("
            f"SELECT id FROM messages WHERE {where}{after} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) "
            "ORDER BY created_at DESC, id DESC",
            [*params, *anchor, limit + 1, offset],
        ).fetchall()
        if not fetched:
            return [], 0, False
        rows = fetched[:limit]
        items = [feed_item(doc) for doc in self._messages(db, rows)]
        return items, min(len(fetched), limit), len(fetched) > limit

    def unseen_count(self, caller: Caller, subscriber_id: str, seen: bool, limit: int) -> int:
        pk = self.subscriber_pk(caller, subscriber_id)
        row = (
            self.read()
            .execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE environment_id = ? "
                "AND subscriber_pk = ? AND channel = 'in_app' AND seen = ? LIMIT ?)",
                (caller.environment_id, pk, int(seen), limit),
            )
            .fetchone()
        )
        return int(row[0])

    def list_messages(
        self,
        caller: Caller,
        page: int,
        limit: int,
        channel: Channel | None = None,
        subscriber_id: str | None = None,
        transaction_ids: Sequence[str] = (),
    ) -> tuple[list[dict[str, Any]], int]:
        where = "environment_id = ?"
        params: list[Any] = [caller.environment_id]
        if channel is not None:
            where += " AND channel = ?"
            params.append(str(channel))
        if subscriber_id is not None:
            try:
                pk = self.subscriber_pk(caller, subscriber_id)
            except NotFound:
                return [], 0
            where += " AND subscriber_pk = ?"
            params.append(pk)
        if transaction_ids:
            where += f" AND transaction_id IN ({','.join('?' * len(transaction_ids))})"
            params.extend(transaction_ids)
        db = self.read()
        total = db.execute(f"SELECT COUNT(*) FROM messages WHERE {where}", params).fetchone()[0]
        rows = db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE {where} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [*params, limit, page * limit],
        ).fetchall()
        return self._messages(db, rows), int(total)

    # -- idempotency -------------------------------------------------------------------

    def idempotency_begin(self, organization_id: str, key: str, body_hash: str) -> Replay | None:
        """Claim a key for a new request, or the stored response to replay.

        Raises IdempotencyConflict when the key is running or was used for another body.
        """
        now = datetime.now(UTC).timestamp()
        with self.transaction() as db:
            row = db.execute(
                "SELECT * FROM idempotency WHERE organization_id = ? AND key = ?",
                (organization_id, key),
            ).fetchone()
            if row is not None:
                age = now - row["created_at"]
                expired = age > IDEMPOTENCY_TTL or (
                    row["state"] == "pending" and age > IDEMPOTENCY_ABANDONED
                )
                if not expired:
                    if row["body_hash"] != body_hash:
                        raise IdempotencyConflict(in_flight=False)
                    if row["state"] == "pending":
                        raise IdempotencyConflict(in_flight=True)
                    return Replay(row["status"], row["content_type"], bytes(row["body"]))
                db.execute(
                    "DELETE FROM idempotency WHERE organization_id = ? AND key = ?",
                    (organization_id, key),
                )
            db.execute(
                "INSERT INTO idempotency (organization_id, key, body_hash, state, created_at) "
                "VALUES (?, ?, ?, 'pending', ?)",
                (organization_id, key, body_hash, now),
            )
        return None

    def idempotency_finish(
        self, organization_id: str, key: str, status: int, content_type: str, body: bytes
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE idempotency SET state = 'done', status = ?, content_type = ?, body = ? "
                "WHERE organization_id = ? AND key = ?",
                (status, content_type, body, organization_id, key),
            )

    def idempotency_abandon(self, organization_id: str, key: str) -> None:
        with self.transaction() as db:
            db.execute(
                "DELETE FROM idempotency WHERE organization_id = ? AND key = ? "
                "AND state = 'pending'",
                (organization_id, key),
            )


def _docs_by_id(db: sqlite3.Connection, table: str, ids: set[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = db.execute(f"SELECT id, doc FROM {table} WHERE id IN ({marks})", list(ids))
    return {r["id"]: json.loads(r["doc"]) for r in rows}


# The fields production's feed embeds of a message's subscriber and of its workflow.
FEED_SUBSCRIBER_FIELDS = ("_id", "firstName", "lastName", "avatar", "subscriberId")
FEED_TEMPLATE_FIELDS = ("_id", "tags")


def feed_item(message: dict[str, Any]) -> dict[str, Any]:
    """A full wire Message as production's feed sends it (NotificationFeedItemDto)."""
    item = dict(message)
    for joined, fields in (
        ("subscriber", FEED_SUBSCRIBER_FIELDS),
        ("template", FEED_TEMPLATE_FIELDS),
    ):
        if isinstance(item.get(joined), dict):
            item[joined] = {k: item[joined][k] for k in fields if k in item[joined]}
    content = item.get("content")
    if isinstance(content, list):
        # An in-app message's content is a string in production; blocks become their text.
        item["content"] = "\n".join(
            str(b.get("content", "")) for b in content if isinstance(b, dict)
        )
    elif content is None:
        item["content"] = ""
    # Rows stored before the job id was filled in: the message id stands in for it.
    item.setdefault("_jobId", item.get("_id"))
    item.setdefault("archived", False)
    return item


def payload_filter(payload: Any) -> tuple[str, list[Any]]:
    """SQL for production's payload filter: each leaf of `payload`, addressed by its
    dotted path as MongoDB does, equals the message payload's value at that path."""
    clauses: list[str] = []
    params: list[Any] = []
    for path, value in _leaves(("payload",), payload):
        if any('"' in part for part in path):
            clauses.append("0")  # SQLite's JSON paths cannot name such a key: no match
            continue
        where = "$" + "".join(f'."{part}"' for part in path)
        if value is None:
            clauses.append("json_extract(doc, ?) IS NULL")
            params.append(where)
        elif isinstance(value, bool):
            clauses.append("json_type(doc, ?) = ?")
            params += [where, "true" if value else "false"]
        elif isinstance(value, int | float):
            clauses.append(
                "(json_type(doc, ?) IN ('integer', 'real') AND json_extract(doc, ?) = ?)"
            )
            params += [where, where, value]
        elif isinstance(value, str):
            clauses.append("(json_type(doc, ?) = 'text' AND json_extract(doc, ?) = ?)")
            params += [where, where, value]
        else:
            clauses.append("doc -> ? = json(?)")
            params += [where, json.dumps(value)]
    return " AND ".join(clauses) or "1", params


def _leaves(path: tuple[str, ...], value: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(path, value) of every non-object value under `value`; dotted keys are paths."""
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from _leaves((*path, *str(key).split(".")), inner)
    else:
        yield path, value


def _contains(text: str) -> str:
    """A LIKE pattern for `text` anywhere, lower-cased, its wildcards taken literally."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"
