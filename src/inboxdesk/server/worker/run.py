"""One pass of the worker over what is due: a trigger fanned out into notifications and
jobs, each job carried through its step as production's worker carries it, with its
execution details in production's words.

A pass runs inside one write transaction. Jobs that can run now run at once, one after
another in their notification's order; a delay or a digest stops its chain at `delayed`
and queues the job for its due time; a provider's later reports are queued for theirs.
Jobs, messages and execution details are written once each, when the pass ends
(`flush`): a job changes status three or four times in a pass, and nothing reads them
back before the transaction commits. What the pass reads and cannot change (workflows,
integrations, preferences) is read once per pass.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.models.ids import new_object_id
from inboxdesk.server.store.base import iso
from inboxdesk.server.store.preferences import GLOBAL, NO_CONTEXT, context_of, stored_choices
from inboxdesk.server.store.schema import MESSAGE_ROW, message_flags
from inboxdesk.server.worker import providers
from inboxdesk.server.worker.chain import Chain
from inboxdesk.server.worker.channels import send
from inboxdesk.server.worker.rules import conditions_pass, schedule_open

CHANNELS = ("in_app", "email", "sms", "chat", "push", "tool")
PREFERENCE_CHANNELS = ("email", "sms", "in_app", "chat", "push", "tool")
WAITS = ("delay", "digest", "throttle")
UNITS = {
    "seconds": 1,
    "minutes": 60,
    "hours": 3600,
    "days": 86400,
    "weeks": 7 * 86400,
    "months": 30 * 86400,
}

# Execution detail texts, as production writes them.
STEP_QUEUED = "Step queued"
CONDITIONS_SKIPPED = "Step was skipped based on steps conditions"
OUTSIDE_SCHEDULE = "The step was skipped as it fell outside the subscriber's schedule"
PREVIOUS_FAILED = "Step was canceled because a previous step failed"


def _units(amount: Any, unit: Any) -> timedelta:
    try:
        count = float(amount)
    except (TypeError, ValueError):
        count = 0.0
    return timedelta(seconds=max(0.0, count) * UNITS.get(str(unit), 60))


def _step_id(workflow_id: str, position: int) -> str:
    """A stable id for a stored step that has none: the same on every trigger."""
    return hashlib.sha256(f"{workflow_id}:{position}".encode()).hexdigest()[:24]


def step_type(step: Mapping[str, Any]) -> str | None:
    """A workflow step's job type: its template's, else a delay or digest by its
    metadata; None for a step the worker cannot run."""
    kind = (step.get("template") or {}).get("type") if isinstance(step, Mapping) else None
    if isinstance(kind, str) and kind:
        return kind
    metadata = step.get("metadata") if isinstance(step, Mapping) else None
    if isinstance(metadata, Mapping):
        return (
            "digest"
            if "digestKey" in metadata
            or metadata.get("type")
            in (
                "backoff",
                "timed",
            )
            else "delay"
        )
    return None


class Pass:
    """The work of one pass, over one open transaction `db` at the clock's `now`."""

    def __init__(
        self,
        db: sqlite3.Connection,
        now: datetime,
        report_delay: timedelta,
        contexts: bool = False,
    ) -> None:
        self.db = db
        # Whether a job's contextKeys pick the preferences and schedule it reads.
        self.contexts = contexts
        self.now = now
        self.stamp = iso(now)
        self.report_delay = report_delay
        self.messages_added = False
        self._details: dict[str, int] = {}
        # Written by `flush`: jobs made in this pass (their last state), jobs changed,
        # messages made, execution details in order.
        self._new_jobs: dict[str, tuple[str, int, dict[str, Any]]] = {}
        self._changed_jobs: dict[str, dict[str, Any]] = {}
        self._new_messages: dict[str, dict[str, Any]] = {}
        self._new_details: list[tuple[str, str, int, str]] = []
        self._read: dict[tuple[str, ...], Any] = {}

    # -- storage -----------------------------------------------------------------------

    def _queue(self, env: str, kind: str, due: datetime, job_id: str | None, body: Any) -> None:
        self.db.execute(
            "INSERT INTO worker_queue (environment_id, kind, job_id, body, due_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (env, kind, job_id, None if body is None else json.dumps(body), iso(due)),
        )

    def _save_job(self, job: dict[str, Any]) -> None:
        job["updatedAt"] = self.stamp
        if job["_id"] not in self._new_jobs:
            self._changed_jobs[str(job["_id"])] = job

    def flush(self) -> None:
        """Write what the pass made and changed, parents before children."""
        db = self.db
        if self._new_jobs:
            db.executemany(
                "INSERT INTO jobs VALUES (?, ?, ?, ?)",
                [(i, n, p, json.dumps(j)) for i, (n, p, j) in self._new_jobs.items()],
            )
        if self._changed_jobs:
            db.executemany(
                "UPDATE jobs SET doc = ? WHERE id = ?",
                [(json.dumps(j), i) for i, j in self._changed_jobs.items()],
            )
        if self._new_messages:
            marks = ", ".join("?" * len(MESSAGE_ROW.split(",")))
            db.executemany(
                f"INSERT INTO messages ({MESSAGE_ROW}) VALUES ({marks})",
                [_message_row(doc) for doc in self._new_messages.values()],
            )
        if self._new_details:
            db.executemany("INSERT INTO execution_details VALUES (?, ?, ?, ?)", self._new_details)
        self._new_jobs.clear()
        self._changed_jobs.clear()
        self._new_messages.clear()
        self._new_details.clear()

    def _status(self, job: dict[str, Any], status: str, error: str | None = None) -> None:
        job["status"] = status
        if error is not None:
            job["error"] = error
        self._save_job(job)

    def detail(
        self,
        job: Mapping[str, Any],
        text: str,
        status: str,
        raw: Any = None,
        source: str = "Internal",
        provider_id: str | None = None,
    ) -> None:
        job_id = str(job["_id"])
        position = self._details.get(job_id)
        if position is None:
            position = self.db.execute(
                "SELECT COUNT(*) FROM execution_details WHERE job_id = ?", (job_id,)
            ).fetchone()[0]
        self._details[job_id] = position + 1
        doc: dict[str, Any] = {
            "_id": new_object_id(self.now.timestamp()),
            "_jobId": job_id,
            "_notificationId": job["_notificationId"],
            "_environmentId": job["_environmentId"],
            "_organizationId": job["_organizationId"],
            "_subscriberId": job["_subscriberId"],
            "transactionId": job["transactionId"],
            "channel": job["type"],
            "createdAt": self.stamp,
            "status": status,
            "detail": text,
            "isRetry": False,
            "isTest": False,
            "source": source,
        }
        provider = provider_id or job.get("providerId")
        if provider:
            doc["providerId"] = provider
        if raw is not None:
            doc["raw"] = raw if isinstance(raw, str) else json.dumps(raw)
        self._new_details.append((doc["_id"], job_id, position, json.dumps(doc)))

    def _subscriber(self, pk: str) -> dict[str, Any]:
        key = ("subscriber", pk)
        if key not in self._read:
            row = self.db.execute("SELECT doc FROM subscribers WHERE id = ?", (pk,)).fetchone()
            self._read[key] = json.loads(row[0]) if row else {}
        doc: dict[str, Any] = self._read[key]
        return doc

    def integrations(self, env: str, channel: str) -> list[dict[str, Any]]:
        """The environment's active integrations of a channel, newest first."""
        key = ("integrations", env, channel)
        if key not in self._read:
            self._read[key] = self._read_integrations(env, channel)
        found: list[dict[str, Any]] = self._read[key]
        return found

    def _read_integrations(self, env: str, channel: str) -> list[dict[str, Any]]:
        out = []
        for row in self.db.execute(
            "SELECT id, is_primary, doc FROM integrations WHERE environment_id = ? AND channel = ?"
            " AND active = 1 AND deleted = 0 ORDER BY position DESC",
            (env, channel),
        ):
            doc = json.loads(row["doc"])
            doc["_id"], doc["primary"] = row["id"], bool(row["is_primary"])
            out.append(doc)
        return out

    def integration(self, env: str, integration_id: Any) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT id, doc FROM integrations WHERE id = ? AND environment_id = ?"
            " AND active = 1 AND deleted = 0",
            (str(integration_id), env),
        ).fetchone()
        if row is None:
            return None
        doc: dict[str, Any] = json.loads(row["doc"])
        doc["_id"] = row["id"]
        return doc

    def load_chain(self, notification_id: str) -> Chain | None:
        row = self.db.execute(
            "SELECT doc FROM notifications WHERE id = ?", (notification_id,)
        ).fetchone()
        if row is None:
            return None
        notification = json.loads(row[0])
        jobs = [
            json.loads(r[0])
            for r in self.db.execute(
                "SELECT doc FROM jobs WHERE notification_id = ? ORDER BY position",
                (notification_id,),
            )
        ]
        flow = self.db.execute(
            "SELECT doc FROM workflows WHERE id = ?", (notification.get("_templateId"),)
        ).fetchone()
        chain = Chain(notification, jobs, json.loads(flow[0]) if flow else {})
        chain.positions = {str(j["_id"]): n for n, j in enumerate(jobs)}
        return chain

    # -- a trigger ---------------------------------------------------------------------

    def trigger(self, env: str, org: str, body: Mapping[str, Any]) -> None:
        """Fan a queued trigger out: one notification per subscriber, its jobs, and the
        first job added. A transactionId the environment has seen drops it whole."""
        transaction_id = str(body["transactionId"])
        if self.db.execute(
            "SELECT 1 FROM notifications WHERE environment_id = ? AND transaction_id = ?",
            (env, transaction_id),
        ).fetchone():
            return
        row = self.db.execute(
            "SELECT id, doc FROM workflows WHERE id = ? AND environment_id = ?",
            (body["_templateId"], env),
        ).fetchone()
        if row is None:
            return
        workflow = self._workflow(str(row["id"]), row["doc"])
        recipients = body["to"] if isinstance(body["to"], list) else [body["to"]]
        seen: set[str] = set()
        for recipient in recipients:
            # Topics are not fanned out by the simulation.
            if isinstance(recipient, Mapping) and recipient.get("type") == "Topic":
                continue
            subscriber_id = str(
                recipient.get("subscriberId") if isinstance(recipient, Mapping) else recipient
            )
            if subscriber_id in seen:
                continue
            seen.add(subscriber_id)
            pk = self._upsert_subscriber(env, org, recipient)
            self._notify(env, org, str(row["id"]), workflow, pk, subscriber_id, recipient, body)

    def _workflow(self, workflow_id: str, doc: str) -> dict[str, Any]:
        key = ("workflow", workflow_id)
        if key not in self._read:
            self._read[key] = json.loads(doc)
        workflow: dict[str, Any] = self._read[key]
        return workflow

    def _upsert_subscriber(self, env: str, org: str, recipient: Any) -> str:
        """The recipient's subscriber, made when unknown; the fields a `to` object gives
        overwrite the stored ones."""
        given = dict(recipient) if isinstance(recipient, Mapping) else {"subscriberId": recipient}
        subscriber_id = str(given["subscriberId"])
        row = self.db.execute(
            "SELECT id, doc FROM subscribers WHERE environment_id = ? AND subscriber_id = ?",
            (env, subscriber_id),
        ).fetchone()
        fields = {
            k: given[k]
            for k in (
                "email",
                "firstName",
                "lastName",
                "phone",
                "avatar",
                "locale",
                "timezone",
                "data",
            )
            if k in given
        }
        if row is not None:
            if not fields:
                return str(row["id"])
            doc = {**json.loads(row["doc"]), **fields, "updatedAt": self.stamp}
            self._read.pop(("subscriber", str(row["id"])), None)
            self.db.execute(
                "UPDATE subscribers SET doc = ? WHERE id = ?", (json.dumps(doc), row["id"])
            )
            return str(row["id"])
        pk = new_object_id(self.now.timestamp())
        doc = {
            "_id": pk,
            "_environmentId": env,
            "_organizationId": org,
            "subscriberId": subscriber_id,
            "channels": [],
            "deleted": False,
            "createdAt": self.stamp,
            "updatedAt": self.stamp,
            **fields,
        }
        self.db.execute(
            "INSERT INTO subscribers VALUES (?, ?, ?, ?, ?)",
            (pk, env, subscriber_id, self.stamp, json.dumps(doc)),
        )
        return pk

    def _notify(
        self,
        env: str,
        org: str,
        workflow_id: str,
        workflow: Mapping[str, Any],
        pk: str,
        subscriber_id: str,
        recipient: Any,
        body: Mapping[str, Any],
    ) -> None:
        steps = [
            s
            for s in workflow.get("steps") or []
            if isinstance(s, Mapping) and s.get("active", True) and step_type(s)
        ]
        kinds = [str(step_type(s)) for s in steps]
        overrides = body.get("overrides") or {}
        severity = overrides.get("severity") or workflow.get("severity") or "none"
        notification_id = new_object_id(self.now.timestamp())
        triggers = workflow.get("triggers") or [{}]
        identifier = str((triggers[0] or {}).get("identifier", ""))
        notification = {
            "_id": notification_id,
            "_environmentId": env,
            "_organizationId": org,
            "_subscriberId": pk,
            "_templateId": workflow_id,
            "transactionId": body["transactionId"],
            "to": dict(recipient)
            if isinstance(recipient, Mapping)
            else {"subscriberId": subscriber_id},
            "payload": body.get("payload") or {},
            "channels": list(dict.fromkeys(kinds)),
            "controls": {},
            "tags": list(workflow.get("tags") or []),
            "severity": severity if severity in ("high", "medium", "low", "none") else "none",
            "critical": bool(workflow.get("critical", False)),
            "contextKeys": list(body.get("contextKeys") or []),
            "topics": [],
            "createdAt": self.stamp,
            "updatedAt": self.stamp,
        }
        self.db.execute(
            "INSERT INTO notifications VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                notification_id,
                env,
                pk,
                workflow_id,
                body["transactionId"],
                self.stamp,
                notification["severity"],
                json.dumps(notification["channels"]),
                json.dumps(sorted(notification["contextKeys"])),
                json.dumps(notification),
            ),
        )
        providers_of: dict[str, str | None] = {}
        jobs = []
        for position, (step, kind) in enumerate(zip(steps, kinds, strict=True)):
            job: dict[str, Any] = {
                "_id": new_object_id(self.now.timestamp()),
                "identifier": identifier,
                "payload": notification["payload"],
                "overrides": overrides,
                "step": {
                    "_id": step.get("_id") or _step_id(workflow_id, position),
                    "_parentId": None,
                    "active": True,
                    "_templateId": step.get("_templateId") or step.get("_id") or workflow_id,
                    "name": step.get("name") or kind,
                    "filters": step.get("filters") or [],
                    "template": step.get("template") or {"type": kind},
                    "shouldStopOnFail": bool(step.get("shouldStopOnFail", False)),
                    "metadata": step.get("metadata"),
                },
                "transactionId": body["transactionId"],
                "_notificationId": notification_id,
                "_environmentId": env,
                "_organizationId": org,
                "subscriberId": subscriber_id,
                "_subscriberId": pk,
                "_templateId": workflow_id,
                "type": kind,
                "status": "pending",
                "contextKeys": notification["contextKeys"],
                "createdAt": self.stamp,
                "updatedAt": self.stamp,
            }
            if kind == "digest":
                job["digest"] = dict(step.get("metadata") or {})
            if kind == "in_app":
                job["providerId"] = "novu"
            elif kind in CHANNELS:
                if kind not in providers_of:
                    # Any active one, as production names it: here the oldest.
                    found = self.integrations(env, kind)
                    providers_of[kind] = str(found[-1]["providerId"]) if found else None
                if providers_of[kind]:
                    job["providerId"] = providers_of[kind]
            jobs.append(job)
            self._new_jobs[job["_id"]] = (notification_id, position, job)
            self._details[job["_id"]] = 0
        if jobs:
            chain = Chain(notification, jobs, dict(workflow))
            chain.positions = {str(j["_id"]): n for n, j in enumerate(jobs)}
            self.add(chain, jobs[0])

    # -- a job's life ------------------------------------------------------------------

    def add(self, chain: Chain, job: dict[str, Any]) -> None:
        """Add a job as production's worker does: `Step queued`, then a delay or digest
        starts its wait (its conditions first), and any other job runs now."""
        self.detail(job, STEP_QUEUED, "Pending")
        kind = job["type"]
        if kind in WAITS:
            subscriber = self._subscriber(str(job["_subscriberId"]))
            if not conditions_pass(job["step"].get("filters"), job["payload"], subscriber):
                self.detail(job, CONDITIONS_SKIPPED, "Success")
                self._status(job, "skipped")
                self.next(chain, job)
                return
            if kind == "delay":
                self._delay(chain, job)
            elif kind == "digest":
                self._digest(chain, job)
            else:
                # Throttling is not simulated: every job passes it.
                self._status(job, "completed")
                self.next(chain, job)
            return
        self._status(job, "queued")
        self.run(chain, job)

    def next(self, chain: Chain, job: Mapping[str, Any]) -> None:
        position = chain.positions[str(job["_id"])] + 1
        if position < len(chain.jobs):
            following = chain.jobs[position]
            if following["status"] == "pending":
                self.add(chain, following)

    def halt(self, chain: Chain, job: Mapping[str, Any]) -> None:
        """A failed step that stops on failure cancels every pending job after it."""
        for later in chain.jobs[chain.positions[str(job["_id"])] + 1 :]:
            if later["status"] == "pending":
                self.detail(later, PREVIOUS_FAILED, "Failed")
                self._status(later, "canceled")

    def _delay(self, chain: Chain, job: dict[str, Any]) -> None:
        metadata = job["step"].get("metadata") or {}
        raw: dict[str, Any]
        if metadata.get("type") == "scheduled":
            path = str(metadata.get("delayPath") or "")
            value = job["payload"]
            for part in path.removeprefix("payload.").split("."):
                value = value.get(part) if isinstance(value, Mapping) else None
            until = None
            try:
                until = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                until = None
            if until is not None and until.tzinfo is None:
                until = until.replace(tzinfo=self.now.tzinfo)
            if until is None or until <= self.now:
                self.detail(job, "Invalid delay configuration", "Failed")
                self._status(job, "failed", "Invalid delay configuration")
                self.halt(chain, job)
                return
            due = until
            raw = {"delay": int((until - self.now).total_seconds() * 1000), "untilDate": iso(until)}
        else:
            wait = _units(metadata.get("amount"), metadata.get("unit"))
            due = self.now + wait
            raw = {"delay": int(wait.total_seconds() * 1000)}
        self.detail(job, "Step delayed", "Pending", raw)
        self._status(job, "delayed")
        self._queue(chain.environment_id, "job", due, str(job["_id"]), None)

    def _digest(self, chain: Chain, job: dict[str, Any]) -> None:
        metadata = job.get("digest") or {}
        key = metadata.get("digestKey")
        value = ""
        if key:
            found: Any = job["payload"]
            for part in str(key).removeprefix("payload.").split("."):
                found = found.get(part) if isinstance(found, Mapping) else None
            value = "" if found is None else json.dumps(found)
        slot = (
            chain.environment_id,
            str(job["_subscriberId"]),
            str(job["_templateId"]),
            str(job["step"]["_id"]),
            value,
        )
        main = self.db.execute(
            "SELECT job_id, notification_id FROM worker_digests WHERE environment_id = ?"
            " AND subscriber_pk = ? AND template_id = ? AND step_id = ? AND digest_value = ?",
            slot,
        ).fetchone()
        if main is not None:
            # A later event in the window: merged, with every job after it.
            self.detail(job, "Digest was merged with other digest", "Success")
            self._status(job, "merged")
            for later in chain.jobs[chain.positions[str(job["_id"])] + 1 :]:
                self._status(later, "merged")
            chain.notification["_digestedNotificationId"] = main["notification_id"]
            chain.notification["updatedAt"] = self.stamp
            self.db.execute(
                "UPDATE notifications SET doc = ? WHERE id = ?",
                (json.dumps(chain.notification), chain.notification["_id"]),
            )
            return
        wait = _units(metadata.get("amount"), metadata.get("unit"))
        self.db.execute(
            "INSERT INTO worker_digests VALUES (?, ?, ?, ?, ?, ?, ?)",
            (*slot, str(job["_id"]), str(job["_notificationId"])),
        )
        self.detail(job, "Step digested", "Pending", {"delay": int(wait.total_seconds() * 1000)})
        self._status(job, "delayed")
        self._queue(chain.environment_id, "job", self.now + wait, str(job["_id"]), None)

    def resume(self, job_id: str) -> None:
        """A delayed job whose time has come: its wait ends and its chain goes on. A job
        canceled meanwhile is dropped without a word."""
        row = self.db.execute("SELECT notification_id FROM jobs WHERE id = ?", (job_id,)).fetchone()
        chain = None if row is None else self.load_chain(str(row[0]))
        if chain is None:
            return
        job = chain.jobs[chain.positions[job_id]]
        if job["status"] != "delayed":
            return
        if job["type"] == "digest":
            events = self._close_digest(job)
            self.detail(job, "Digest triggered events", "Success", events)
        else:
            self.detail(job, "Delay is finished", "Success")
        self._status(job, "completed")
        self.next(chain, job)

    def _close_digest(self, job: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The events a digest gathered: its own and those merged into it."""
        self.db.execute("DELETE FROM worker_digests WHERE job_id = ?", (job["_id"],))
        events = [{"_id": job["_notificationId"], "payload": job["payload"]}]
        for row in self.db.execute(
            "SELECT id, doc FROM notifications WHERE environment_id = ? AND subscriber_pk = ?"
            " AND json_extract(doc, '$._digestedNotificationId') = ? ORDER BY created_at, id",
            (job["_environmentId"], job["_subscriberId"], job["_notificationId"]),
        ):
            events.append({"_id": row["id"], "payload": json.loads(row["doc"]).get("payload")})
        return events

    def run(self, chain: Chain, job: dict[str, Any]) -> None:
        """Run a job now: the schedule, the conditions and preferences, then its step."""
        self._status(job, "running")
        kind = job["type"]
        subscriber = self._subscriber(str(job["_subscriberId"]))
        critical = bool(chain.notification.get("critical"))
        if kind in CHANNELS and kind != "in_app" and not critical:
            schedule, timezone = self._schedule(job), subscriber.get("timezone")
            if not schedule_open(schedule, timezone, self.now):
                self.detail(
                    job, OUTSIDE_SCHEDULE, "Success", {"schedule": schedule, "timezone": timezone}
                )
                self._status(job, "canceled")
                self.next(chain, job)
                return
        if kind not in CHANNELS:
            # Custom and HTTP steps have nothing to send here.
            self._status(job, "completed")
            self.next(chain, job)
            return
        filters = job["step"].get("filters") or []
        passed = conditions_pass(filters, job["payload"], subscriber)
        filtered = self._preference(chain, job, critical)
        if not passed:
            self.detail(
                job,
                CONDITIONS_SKIPPED,
                "Failed",
                {"filter": {"conditions": filters, "passed": False}},
            )
        if filtered is not None:
            self.detail(job, filtered[0], "Success", filtered[1])
        if not passed or filtered is not None:
            self._status(job, "canceled")
            self.next(chain, job)
            return
        result = send(self, chain, job, subscriber)
        if result == "failed":
            self._status(job, "failed", job.get("error") or "")
            if job["step"].get("shouldStopOnFail"):
                self.halt(chain, job)
                return
        else:
            self._status(job, result)
        self.next(chain, job)

    def _context(self, job: Mapping[str, Any]) -> str:
        """The context whose records the job reads: exactly its notification's, with no
        fallback to the no-context ones; none unless contexts are on."""
        return context_of(job.get("contextKeys") or ()) if self.contexts else NO_CONTEXT

    def _schedule(self, job: Mapping[str, Any]) -> Any:
        context = self._context(job)
        key = ("schedule", str(job["_environmentId"]), str(job["_subscriberId"]), context)
        if key not in self._read:
            found = stored_choices(
                self.db, str(job["_environmentId"]), str(job["_subscriberId"]), context, [GLOBAL]
            )
            self._read[key] = found.get(GLOBAL, {}).get("schedule")
        return self._read[key]

    def _records(self, job: Mapping[str, Any]) -> dict[str, Any]:
        """The subscriber's global and workflow preference records for the job."""
        context = self._context(job)
        key = (
            "preferences",
            str(job["_environmentId"]),
            str(job["_subscriberId"]),
            str(job["_templateId"]),
            context,
        )
        if key not in self._read:
            found = stored_choices(
                self.db,
                str(job["_environmentId"]),
                str(job["_subscriberId"]),
                context,
                [GLOBAL, str(job["_templateId"])],
            )
            self._read[key] = {w: record["channels"] for w, record in found.items()}
        rows: dict[str, Any] = self._read[key]
        return rows

    def _preference(
        self, chain: Chain, job: Mapping[str, Any], critical: bool
    ) -> tuple[str, dict[str, Any]] | None:
        """The `Step filtered by …` detail when the merged preference turns the job's
        channel off; its text names the most specific record that exists."""
        workflow = chain.workflow
        settings = workflow.get("preferenceSettings") or {}
        channels = {c: bool(settings.get(c, True)) for c in PREFERENCE_CHANNELS}
        text = "Step filtered by workflow preferences"
        if not critical:
            rows = self._records(job)
            for key, said in ((GLOBAL, "global"), (str(job["_templateId"]), "workflow")):
                if key in rows:
                    text = f"Step filtered by subscriber {said} preferences"
                    channels |= {c: bool(v) for c, v in rows[key].items() if isinstance(v, bool)}
        if channels.get(job["type"], True):
            return None
        return text, {"enabled": True, "channels": channels, "overrides": []}

    # -- what a step leaves behind -----------------------------------------------------

    def message(
        self, job: Mapping[str, Any], chain: Chain, fields: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A message of the job's channel, as production stores one before sending."""
        doc: dict[str, Any] = {
            "_id": new_object_id(self.now.timestamp()),
            "_environmentId": job["_environmentId"],
            "_organizationId": job["_organizationId"],
            "_notificationId": job["_notificationId"],
            "_subscriberId": job["_subscriberId"],
            "_templateId": job["_templateId"],
            "_jobId": job["_id"],
            "templateIdentifier": job["identifier"],
            "transactionId": job["transactionId"],
            "channel": job["type"],
            "createdAt": self.stamp,
            "read": False,
            "seen": False,
            "archived": False,
            "cta": {},
            "status": "sent",
            "payload": job["payload"],
            "contextKeys": job.get("contextKeys") or [],
            **fields,
        }
        self.save_message(doc)
        return doc

    def save_message(self, doc: dict[str, Any], insert: bool = True) -> None:
        """A message made (`insert`) or changed; either is written at `flush`."""
        if doc["_id"] in self._new_messages:
            self._new_messages[doc["_id"]] = doc
            return
        if not insert:
            self.db.execute(
                "UPDATE messages SET doc = ? WHERE id = ?", (json.dumps(doc), doc["_id"])
            )
            return
        self.messages_added = True
        self._new_messages[doc["_id"]] = doc

    def later(self, job: Mapping[str, Any], reports: list[providers.Report]) -> None:
        """A provider's reports, queued to arrive as Webhook details after a while."""
        for n, report in enumerate(reports):
            self._queue(
                str(job["_environmentId"]),
                "report",
                self.now + self.report_delay * (n + 1),
                str(job["_id"]),
                {"text": report.text, "status": report.status, "raw": report.raw},
            )

    def report(self, job_id: str, body: Mapping[str, Any]) -> None:
        row = self.db.execute("SELECT doc FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            return
        job = json.loads(row[0])
        self.detail(job, str(body["text"]), str(body["status"]), body["raw"], source="Webhook")


def _message_row(doc: dict[str, Any]) -> tuple[Any, ...]:
    return (
        doc["_id"],
        doc["_environmentId"],
        doc["_subscriberId"],
        doc["_templateId"],
        doc["channel"],
        doc["transactionId"],
        doc["createdAt"],
        0,
        0,
        None,
        None,
        json.dumps(doc),
        *message_flags(doc),
    )


def due_entries(db: sqlite3.Connection, now: datetime, limit: int) -> Iterator[sqlite3.Row]:
    yield from db.execute(
        "SELECT * FROM worker_queue WHERE due_at <= ? ORDER BY due_at, id LIMIT ?",
        (iso(now), limit),
    ).fetchall()
