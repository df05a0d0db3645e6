"""The local service's SQLite schema: queryable state in columns, the rest as wire JSON."""

from __future__ import annotations

from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS environments (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name TEXT NOT NULL,
    identifier TEXT,
    type TEXT,
    slug TEXT,
    parent_id TEXT
);
-- Keys are looked up by their SHA-256; the key itself is kept because production
-- answers an environment's own keys to its callers (GET /v1/environments).
CREATE TABLE IF NOT EXISTS api_keys (
    key_hash TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    created_at TEXT NOT NULL,
    api_key TEXT,
    user_id TEXT
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
    doc TEXT NOT NULL,
    archived INTEGER NOT NULL DEFAULT 0,
    snoozed_until TEXT
);
-- archived and snoozed_until: the v2 inbox's flags, kept in step with the document's
-- `archived` and `snoozedUntil` (`message_flags`) so that its tabs list from an index.
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
MESSAGE_COLUMNS = "id, subscriber_pk, workflow_id, read, seen, last_read_date, last_seen_date, doc"

# The columns of a message row, in the order an insert gives them.
MESSAGE_ROW = (
    "id, environment_id, subscriber_pk, workflow_id, channel, transaction_id, created_at,"
    " read, seen, last_read_date, last_seen_date, doc, archived, snoozed_until"
)


def message_flags(doc: dict[str, Any]) -> tuple[int, str | None]:
    """The `archived` and `snoozed_until` columns of a message document: what the v2
    inbox shows as `isArchived` and `snoozedUntil` (store/inbox.py `notification`)."""
    until = doc.get("snoozedUntil")
    return int(bool(doc.get("archived"))), None if until is None else str(until)


# The same from the document in SQL, to fill the columns of a database made before them:
# `archived` truthy as Python reads the JSON value.
_ARCHIVED_IN_DOC = """CASE json_type(doc, '$.archived')
    WHEN 'true' THEN 1
    WHEN 'integer' THEN json_extract(doc, '$.archived') != 0
    WHEN 'real' THEN json_extract(doc, '$.archived') != 0
    WHEN 'text' THEN json_extract(doc, '$.archived') != ''
    WHEN 'array' THEN json_array_length(doc, '$.archived') > 0
    WHEN 'object' THEN json_extract(doc, '$.archived') != '{}'
    ELSE 0 END"""

# Columns added since a database could first be made: (table, column, type, and the
# UPDATE that fills it from what the rows already hold, run once, when it is added).
ADDED_COLUMNS: list[tuple[str, str, str, str | None]] = [
    ("environments", "identifier", "TEXT", None),
    ("environments", "type", "TEXT", None),
    ("environments", "slug", "TEXT", None),
    ("environments", "parent_id", "TEXT", None),
    # Databases made before these hold hashes only: their keys are not listed.
    ("api_keys", "api_key", "TEXT", None),
    ("api_keys", "user_id", "TEXT", None),
    (
        "messages",
        "archived",
        "INTEGER NOT NULL DEFAULT 0",
        f"UPDATE messages SET archived = {_ARCHIVED_IN_DOC}",
    ),
    ("preferences", "schedule", "TEXT", None),
    (
        "messages",
        "snoozed_until",
        "TEXT",
        "UPDATE messages SET snoozed_until = CAST(json_extract(doc, '$.snoozedUntil') AS TEXT)",
    ),
]

# Run once the added columns are in place (they index them), on every open.
INDEXES = (
    # The stopgaps these replace indexed the same flags as JSON expressions.
    "DROP INDEX IF EXISTS messages_inbox",
    "DROP INDEX IF EXISTS messages_snoozed",
    # The v2 inbox's tabs but Snoozed and All, newest first: deep offsets walk this index
    # alone, the other flags the tabs filter by being in it too.
    """CREATE INDEX IF NOT EXISTS messages_by_flags
    ON messages(environment_id, subscriber_pk, channel, archived, created_at DESC, id DESC,
                snoozed_until, read, seen)""",
    # The snoozed messages alone, newest first: the Snoozed tab, and the snoozes that
    # every v2 inbox request first ends once their time has passed.
    """CREATE INDEX IF NOT EXISTS messages_by_snooze
    ON messages(environment_id, subscriber_pk, channel, created_at DESC, id DESC,
                snoozed_until, archived, read, seen)
    WHERE snoozed_until IS NOT NULL""",
)
