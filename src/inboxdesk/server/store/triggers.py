"""Triggers: the worker's queue, what a trigger finds, and cancelling delayed work.

A trigger is answered at once and queued; the worker (server/worker/) fans it out and
carries each job through its step. The queue holds what is due and when: a trigger, a
delayed job's end, a provider's later report. Notifications staged from fixtures never
enter it, so they never change by themselves.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from inboxdesk.server.checkpoints import FeedCheckpoints
from inboxdesk.server.store.base import Caller, Database, iso, read_doc

WORKER_SCHEMA = """
CREATE TABLE IF NOT EXISTS worker_queue (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    environment_id TEXT NOT NULL,
    -- 'trigger' (body: the request), 'job' (a delayed job's end), 'report' (a provider's)
    kind TEXT NOT NULL,
    job_id TEXT,
    body TEXT,
    due_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS worker_queue_due ON worker_queue(due_at, id);
-- The main job of each open digest: later events of the same key merge into it.
CREATE TABLE IF NOT EXISTS worker_digests (
    environment_id TEXT NOT NULL,
    subscriber_pk TEXT NOT NULL,
    template_id TEXT NOT NULL,
    step_id TEXT NOT NULL,
    digest_value TEXT NOT NULL,
    job_id TEXT NOT NULL,
    notification_id TEXT NOT NULL,
    PRIMARY KEY (environment_id, subscriber_pk, template_id, step_id, digest_value)
);
"""

# Job statuses a cancel reaches, and those it reaches after a delay, digest or throttle.
WAITING = ("delayed", "merged")
WAITS = ("delay", "digest", "throttle")


@dataclass(frozen=True)
class FoundWorkflow:
    id: str
    active: bool


def _find_workflow(
    db: sqlite3.Connection, environment_id: str, identifier: str
) -> FoundWorkflow | None:
    for row in db.execute(
        "SELECT id, doc FROM workflows WHERE environment_id = ?", (environment_id,)
    ):
        doc = read_doc(row["doc"])
        if doc.get("deleted"):
            continue
        triggers = doc.get("triggers") or []
        if any(isinstance(t, Mapping) and t.get("identifier") == identifier for t in triggers):
            return FoundWorkflow(str(row["id"]), bool(doc.get("active", True)))
    return None


def _queue(db: sqlite3.Connection, caller: Caller, body: Mapping[str, Any], at: str) -> None:
    db.execute(
        "INSERT INTO worker_queue (environment_id, kind, job_id, body, due_at)"
        " VALUES (?, 'trigger', NULL, ?, ?)",
        (
            caller.environment_id,
            json.dumps({**body, "_organizationId": caller.organization_id}),
            at,
        ),
    )


@dataclass(frozen=True)
class TriggerRequest:
    """A checked trigger body waiting for its workflow to be found and, if it may run,
    to be queued."""

    caller: Caller
    body: Mapping[str, Any]
    at: str


# What decides, once the workflow is known, whether a trigger is queued: its answer's
# `status` ("processed" is queued), or an exception to raise for it.
Verdict = Callable[[Mapping[str, Any], FoundWorkflow | None], str]


class TriggerStore(Database):
    _checkpoints: FeedCheckpoints

    @contextmanager
    def worker_transaction(self) -> Iterator[sqlite3.Connection]:
        """The write transaction of one worker pass: it inserts messages, so no feed
        listing's checkpoints walked before it or while it runs are used after it."""
        with self._checkpoints.writing(inserts=True), self.transaction() as db:
            yield db

    def trigger_workflow(self, caller: Caller, identifier: str) -> FoundWorkflow | None:
        """The environment's workflow whose trigger identifier is `identifier`, active
        or not; None when there is none (or it is deleted)."""
        return _find_workflow(self.read(), caller.environment_id, identifier)

    def queue_trigger(self, caller: Caller, body: Mapping[str, Any], at: str) -> None:
        """Queue an accepted trigger for the worker, due now."""
        with self.transaction() as db:
            _queue(db, caller, body, at)

    def accept_triggers(
        self, requests: Sequence[TriggerRequest], verdict: Verdict
    ) -> list[tuple[FoundWorkflow | None, str | Exception]]:
        """Find each trigger's workflow, and queue those `verdict` lets run, in one
        transaction: many callers' triggers cost one commit. Each request gets its
        workflow and its status, or the exception its verdict raised (nothing queued)."""
        out: list[tuple[FoundWorkflow | None, str | Exception]] = []
        with self.transaction() as db:
            found_by: dict[tuple[str, str], FoundWorkflow | None] = {}
            for request in requests:
                key = (request.caller.environment_id, str(request.body["name"]))
                if key not in found_by:
                    found_by[key] = _find_workflow(db, *key)
                found = found_by[key]
                try:
                    status = verdict(request.body, found)
                except Exception as refused:  # the request's own answer, not the batch's
                    out.append((found, refused))
                    continue
                if status == "processed" and found is not None:
                    queued = {**request.body, "_templateId": found.id}
                    _queue(db, request.caller, queued, request.at)
                out.append((found, status))
        return out

    def cancel_transaction(self, caller: Caller, transaction_id: str, at: str) -> bool:
        """Cancel the transaction's delayed and merged jobs, for every subscriber, and
        the pending jobs after a delay or digest; False when none was waiting. Jobs
        queued or running are left alone, and no execution detail is written."""
        with self.transaction() as db:
            rows = db.execute(
                "SELECT j.id, j.notification_id, j.position, j.doc FROM jobs AS j"
                " JOIN notifications AS n ON n.id = j.notification_id"
                " WHERE n.environment_id = ? AND n.transaction_id = ?"
                " ORDER BY j.notification_id, j.position",
                (caller.environment_id, transaction_id),
            ).fetchall()
            jobs = [(r["id"], r["notification_id"], read_doc(r["doc"])) for r in rows]
            waiting = [j for j in jobs if j[2].get("status") in WAITING]
            if not waiting:
                return False
            chosen = {j[0] for j in waiting}
            if any(j[2].get("type") in WAITS for j in waiting):
                chosen |= {j[0] for j in jobs if j[2].get("status") == "pending"}
            for job_id, _, doc in jobs:
                if job_id in chosen:
                    doc["status"] = "canceled"
                    doc["updatedAt"] = at
                    db.execute("UPDATE jobs SET doc = ? WHERE id = ?", (json.dumps(doc), job_id))
            db.execute(
                f"DELETE FROM worker_digests WHERE job_id IN ({', '.join('?' * len(chosen))})",
                sorted(chosen),
            )
            return True

    def next_due(self) -> str | None:
        """When the worker's earliest queued work is due; None when nothing is queued."""
        row = self.read().execute("SELECT MIN(due_at) FROM worker_queue").fetchone()
        return None if row is None or row[0] is None else str(row[0])


__all__ = ["WORKER_SCHEMA", "FoundWorkflow", "TriggerRequest", "TriggerStore", "Verdict", "iso"]
