"""Notifications, their jobs and each job's execution details: the activity feed.

A notification is stored with its queryable facts in columns (owner, workflow,
transactionId, time, severity, step types, context keys) and the rest as wire JSON; its
jobs and their execution details live in their own tables, in order. The subscriber
and the workflow are joined in when read, so a deleted one is simply absent, as in
production.

A page lists ids from an index in the feed's order (newest first), then reads those
rows alone: a deep page walks index entries only, never documents.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inboxdesk.server.store.base import Caller, Database, NotFound, read_doc

ACTIVITY_SCHEMA = """
CREATE TABLE IF NOT EXISTS notifications (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    -- The subscriber's internal id: kept after the subscriber is deleted.
    subscriber_pk TEXT NOT NULL,
    template_id TEXT,
    transaction_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    severity TEXT NOT NULL,
    -- JSON array of the workflow's step types; context keys as a sorted JSON array.
    channels TEXT NOT NULL,
    context_keys TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS notifications_by_subscriber
    ON notifications(environment_id, subscriber_pk, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS notifications_by_env
    ON notifications(environment_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS notifications_by_transaction
    ON notifications(environment_id, transaction_id);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    notification_id TEXT NOT NULL REFERENCES notifications(id),
    position INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_by_notification ON jobs(notification_id, position);
CREATE TABLE IF NOT EXISTS execution_details (
    id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL REFERENCES jobs(id),
    position INTEGER NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS details_by_job ON execution_details(job_id, position);
"""


@dataclass(frozen=True)
class ActivityQuery:
    """The activity feed's filters, each a list of accepted values (empty: any)."""

    page: int = 0
    limit: int = 10
    subscriber_ids: Sequence[str] = ()
    transaction_ids: Sequence[str] = ()
    channels: Sequence[str] = ()
    templates: Sequence[str] = ()
    emails: Sequence[str] = ()
    severity: Sequence[str] = ()
    # None: any; empty: notifications with no context; else the exact set.
    context_keys: Sequence[str] | None = None
    topic_key: str | None = None
    subscription_id: str | None = None
    # Subscribers whose email holds it (any case) or whose subscriberId is it.
    search: str | None = None
    # `createdAt` bounds, as the service writes times (ISO 8601 UTC with `Z`).
    after: str | None = None
    before: str | None = None


@dataclass
class StagedNotification:
    """One notification as loaded: its document (without jobs), and its jobs, each a
    document (without details) and its details."""

    doc: dict[str, Any]
    jobs: list[tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=list)


@functools.lru_cache(maxsize=1024)
def _json_list(values: tuple[Any, ...]) -> str:
    """A short list as JSON: a fixture's notifications share a few step lists and
    context sets, each encoded once (json.dumps costs more than its small output)."""
    return json.dumps(list(values))


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


class ActivityStore(Database):
    def insert_notifications(self, items: Sequence[StagedNotification]) -> None:
        notifications, jobs, details = [], [], []
        for item in items:
            doc = item.doc
            notifications.append(
                (
                    doc["_id"],
                    doc["_environmentId"],
                    doc["_subscriberId"],
                    doc.get("_templateId"),
                    doc["transactionId"],
                    doc["createdAt"],
                    doc.get("severity") or "none",
                    _json_list(tuple(doc.get("channels") or ())),
                    _json_list(tuple(sorted(doc.get("contextKeys") or ()))),
                    json.dumps(doc),
                )
            )
            for position, (job, job_details) in enumerate(item.jobs):
                jobs.append((job["_id"], doc["_id"], position, json.dumps(job)))
                details += [
                    (d["_id"], job["_id"], n, json.dumps(d)) for n, d in enumerate(job_details)
                ]
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO notifications VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", notifications
            )
            db.executemany("INSERT INTO jobs VALUES (?, ?, ?, ?)", jobs)
            db.executemany("INSERT INTO execution_details VALUES (?, ?, ?, ?)", details)

    def insert_preferences(
        self, rows: Sequence[tuple[str, str, str, dict[str, bool], str, str, str | None]]
    ) -> None:
        """Subscribers' channel choices: (environment, subscriber's _id, workflow's _id
        or "" for all, channels, updatedAt, context as stored or "" for none, schedule
        as JSON or None); a later row for the same slot adds to it."""
        with self.transaction() as db:
            for env, subscriber, workflow, channels, updated, context, schedule in rows:
                table, keys = ("context_preferences", [context]) if context else ("preferences", [])
                narrow = " AND context_keys = ?" if context else ""
                row = db.execute(
                    f"SELECT channels, schedule FROM {table} WHERE environment_id = ? "
                    f"AND subscriber_pk = ? AND workflow_id = ?{narrow}",
                    (env, subscriber, workflow, *keys),
                ).fetchone()
                merged = {**(read_doc(row[0]) if row else {}), **channels}
                kept = schedule if schedule is not None else row[1] if row else None
                db.execute(
                    f"INSERT OR REPLACE INTO {table} (environment_id, subscriber_pk, workflow_id,"
                    f" channels, updated_at, schedule{', context_keys' if context else ''})"
                    f" VALUES (?, ?, ?, ?, ?, ?{', ?' if context else ''})",
                    (env, subscriber, workflow, json.dumps(merged), updated, kept, *keys),
                )

    def list_activity(self, caller: Caller, query: ActivityQuery) -> list[dict[str, Any]] | None:
        """A page of the environment's notifications, newest first, with their jobs;
        None when `subscriberIds` or `emails` name no subscriber of the environment."""
        db = self.read()
        where = ["n.environment_id = ?"]
        params: list[Any] = [caller.environment_id]
        owners = self._owners(db, caller, query)
        if owners is not None:
            if not owners:
                return None
            where.append(f"n.subscriber_pk IN ({_marks(owners)})")
            params += owners
        for column, values in (
            ("n.transaction_id", query.transaction_ids),
            ("n.template_id", query.templates),
        ):
            if values:
                where.append(f"{column} IN ({_marks(values)})")
                params += list(values)
        if query.channels:
            where.append(
                "EXISTS (SELECT 1 FROM json_each(n.channels) AS c "
                f"WHERE c.value IN ({_marks(query.channels)}))"
            )
            params += list(query.channels)
        if query.severity:
            # `none` also matches a notification stored without one (stored as none).
            where.append(f"n.severity IN ({_marks(query.severity)})")
            params += list(query.severity)
        if query.context_keys is not None:
            where.append("n.context_keys = ?")
            params.append(json.dumps(sorted(set(query.context_keys))))
        for path, value in (
            ("$.topicKey", query.topic_key),
            ("$.preferenceEvaluation.subscriptionIdentifier", query.subscription_id),
        ):
            if value is not None:
                where.append(
                    "EXISTS (SELECT 1 FROM json_each(n.doc, '$.topics') AS t"
                    f" WHERE json_extract(t.value, '{path}') = ?)"
                )
                params.append(value)
        if query.after is not None:
            where.append("n.created_at >= ?")
            params.append(query.after)
        if query.before is not None:
            where.append("n.created_at <= ?")
            params.append(query.before)
        ids = [
            row[0]
            for row in db.execute(
                f"SELECT n.id FROM notifications AS n WHERE {' AND '.join(where)} "
                "ORDER BY n.created_at DESC, n.id DESC LIMIT ? OFFSET ?",
                (*params, query.limit, query.page * query.limit),
            )
        ]
        return self._notifications(db, ids)

    def get_activity(self, caller: Caller, notification_id: str) -> dict[str, Any]:
        db = self.read()
        row = db.execute(
            "SELECT id FROM notifications WHERE id = ? AND environment_id = ?",
            (notification_id, caller.environment_id),
        ).fetchone()
        if row is None:
            raise NotFound("Notification not found")
        return self._notifications(db, [row[0]])[0]

    @staticmethod
    def _owners(db: sqlite3.Connection, caller: Caller, query: ActivityQuery) -> list[str] | None:
        """The internal ids of the subscribers `subscriberIds` and `emails` name (both
        given: those both name); None when neither filter is given."""
        found: set[str] | None = None
        if query.subscriber_ids:
            found = {
                row[0]
                for row in db.execute(
                    "SELECT id FROM subscribers WHERE environment_id = ? "
                    f"AND subscriber_id IN ({_marks(query.subscriber_ids)})",
                    (caller.environment_id, *query.subscriber_ids),
                )
            }
        if query.emails:
            by_email = {
                row[0]
                for row in db.execute(
                    "SELECT id FROM subscribers WHERE environment_id = ? "
                    f"AND json_extract(doc, '$.email') IN ({_marks(query.emails)})",
                    (caller.environment_id, *query.emails),
                )
            }
            found = by_email if found is None else found & by_email
        if query.search is not None:
            searched = {
                row[0]
                for row in db.execute(
                    "SELECT id FROM subscribers WHERE environment_id = ? AND (subscriber_id = ?"
                    " OR instr(lower(COALESCE(json_extract(doc, '$.email'), '')), lower(?)) > 0)",
                    (caller.environment_id, query.search, query.search),
                )
            }
            found = searched if found is None else found & searched
        return None if found is None else sorted(found)

    @staticmethod
    def _notifications(db: sqlite3.Connection, ids: list[str]) -> list[dict[str, Any]]:
        """The notifications `ids` in that order, each with its jobs and their details,
        its subscriber and its workflow (left out once deleted)."""
        if not ids:
            return []
        marks = _marks(ids)
        docs = {
            row[0]: read_doc(row[1])
            for row in db.execute(f"SELECT id, doc FROM notifications WHERE id IN ({marks})", ids)
        }
        jobs: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        by_job: dict[str, dict[str, Any]] = {}
        for row in db.execute(
            f"SELECT id, notification_id, doc FROM jobs WHERE notification_id IN ({marks}) "
            "ORDER BY notification_id, position",
            ids,
        ):
            job = read_doc(row[2])
            if job.get("type") == "trigger":
                continue  # production's feed and detail leave trigger jobs out
            if isinstance(job.get("step"), dict):
                job["step"].setdefault("_parentId", None)
            job["executionDetails"] = []
            jobs[row[1]].append(job)
            by_job[row[0]] = job
        if by_job:
            for row in db.execute(
                "SELECT job_id, doc FROM execution_details "
                f"WHERE job_id IN ({_marks(list(by_job))}) ORDER BY job_id, position",
                list(by_job),
            ):
                by_job[row[0]]["executionDetails"].append(read_doc(row[1]))
        subscribers = _joined(
            db, "subscribers", {d["_subscriberId"] for d in docs.values()}, _subscriber
        )
        workflows = _joined(
            db, "workflows", {d.get("_templateId") for d in docs.values()} - {None}, _template
        )
        out = []
        for notification_id in ids:
            doc = docs[notification_id]
            subscriber = subscribers.get(doc["_subscriberId"])
            if subscriber is not None:
                doc["subscriber"] = subscriber
            template = workflows.get(doc.get("_templateId"))
            if template is not None:
                doc["template"] = template
            doc["jobs"] = jobs[notification_id]
            if isinstance(doc.get("topics"), list):
                # Production's feed gives a topic's ids alone; the subscription that let
                # it through rides on the jobs' `Step queued` details.
                doc["topics"] = [
                    {k: t[k] for k in ("_topicId", "topicKey") if k in t}
                    if isinstance(t, dict)
                    else t
                    for t in doc["topics"]
                ]
            out.append(doc)
        return out


def _joined(
    db: sqlite3.Connection, table: str, ids: set[Any], shape: Any
) -> dict[str, dict[str, Any]]:
    """The rows of `table` with these ids that are not deleted, each in `shape`."""
    if not ids:
        return {}
    listed = sorted(ids)
    out = {}
    for row in db.execute(f"SELECT id, doc FROM {table} WHERE id IN ({_marks(listed)})", listed):
        doc = read_doc(row[1])
        if not doc.get("deleted"):
            out[row[0]] = shape(doc)
    return out


def _subscriber(doc: dict[str, Any]) -> dict[str, Any]:
    """A subscriber as the activity feed embeds one: ids, name and addresses only."""
    shown = {"_id": doc["_id"], "subscriberId": doc["subscriberId"]}
    for name in ("email", "firstName", "lastName", "phone"):
        if doc.get(name) is not None:
            shown[name] = doc[name]
    return shown


def _template(doc: dict[str, Any]) -> dict[str, Any]:
    """A workflow as the activity feed embeds one: its id, name and triggers."""
    triggers = [
        {k: t[k] for k in ("type", "identifier", "variables") if k in t}
        for t in doc.get("triggers") or []
        if isinstance(t, dict)
    ]
    shown = {"_id": doc["_id"], "name": doc.get("name", ""), "triggers": triggers}
    if doc.get("origin") is not None:
        shown["origin"] = doc["origin"]
    return shown


PREFERENCES_SCHEMA = """
-- A subscriber's own choice of channels, for every workflow (workflow_id '') or for
-- one; what a canceled job's preference says, kept beside it.
CREATE TABLE IF NOT EXISTS preferences (
    environment_id TEXT NOT NULL REFERENCES environments(id),
    subscriber_pk TEXT NOT NULL,
    workflow_id TEXT NOT NULL,
    channels TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (environment_id, subscriber_pk, workflow_id)
);
-- The same for one context (`context_keys`: its sorted `type:id` keys as JSON), kept
-- apart: production reads a context's records only under its organization's flag.
CREATE TABLE IF NOT EXISTS context_preferences (
    environment_id TEXT NOT NULL REFERENCES environments(id),
    subscriber_pk TEXT NOT NULL,
    context_keys TEXT NOT NULL,
    workflow_id TEXT NOT NULL,
    channels TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    schedule TEXT,
    PRIMARY KEY (environment_id, subscriber_pk, context_keys, workflow_id)
);
"""
