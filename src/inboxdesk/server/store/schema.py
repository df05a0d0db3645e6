"""The local service's SQLite schema: queryable state in columns, the rest as wire JSON."""

from __future__ import annotations

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
-- The v2 inbox's listing by its two JSON flags, newest first: deep offsets of the
-- Inbox tab walk this index instead of reading each message's JSON.
CREATE INDEX IF NOT EXISTS messages_inbox
    ON messages(environment_id, subscriber_pk, channel,
                coalesce(json_extract(doc, '$.archived'), 0),
                (json_extract(doc, '$.snoozedUntil') IS NOT NULL),
                created_at DESC, id DESC);
-- The snoozed messages alone: every v2 inbox request first ends the snoozes whose time
-- has passed, which otherwise reads the JSON of each of the subscriber's messages.
CREATE INDEX IF NOT EXISTS messages_snoozed
    ON messages(subscriber_pk, json_extract(doc, '$.snoozedUntil'))
    WHERE json_extract(doc, '$.snoozedUntil') IS NOT NULL;
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

# Columns added since a database could first be made: (table, column, type).
ADDED_COLUMNS = [
    ("environments", "identifier", "TEXT"),
    ("environments", "type", "TEXT"),
    ("environments", "slug", "TEXT"),
    ("environments", "parent_id", "TEXT"),
]
