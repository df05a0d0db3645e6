"""A fixture's notifications (each with its jobs, each with its execution details) and
its subscribers' preferences, checked and filled in as production would hold them.

A notification names its subscriber by `subscriberId` and its workflow by `name` in
`workflow` (left out: a workflow since deleted, kept by `_templateId` if given). Ids,
owners, times, `channels` (the jobs' step types), a job's `step` and a detail's flags
may be left out. Statuses, step types and sources must be ones production sends.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.enums import DetailSource, DetailStatus, JobStatus, Severity, StepType
from inboxdesk.models.ids import new_object_id
from inboxdesk.models.preference import OverrideSource
from inboxdesk.models.subscriber import Subscriber
from inboxdesk.models.workflow import Workflow
from inboxdesk.server.store.activity import StagedNotification
from inboxdesk.server.store.preferences import GLOBAL, NO_CONTEXT, channel_value, context_of

# A staged choice: (environment, subscriber's _id, workflow's _id or GLOBAL, channels,
# updatedAt, context as stored: NO_CONTEXT or its sorted keys as JSON, the schedule as
# JSON or None).
StagedChoice = tuple[str, str, str, dict[str, bool], str, str, str | None]

CHANNEL_KEYS = ("email", "sms", "in_app", "chat", "push", "tool")


class ActivityFixtureError(ValueError):
    """A notification or preference of a fixture that cannot be loaded."""


@functools.cache
def _values(allowed: type[StrEnum]) -> frozenset[str]:
    return frozenset(m.value for m in allowed)


def _one_of(value: Any, allowed: type[StrEnum], spot: str) -> None:
    if not isinstance(value, str) or value not in _values(allowed):
        names = ", ".join(m.value for m in allowed)
        raise ActivityFixtureError(f"{spot}: must be one of {names}")


def _objects(doc: Mapping[str, Any], name: str, spot: str) -> list[dict[str, Any]]:
    items = doc.get(name, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ActivityFixtureError(f"{spot}.{name}: expected a list of objects")
    return items


def stage_notifications(
    env: Mapping[str, Any],
    where: str,
    owners: Mapping[str, str],
    subscribers: Mapping[str, Subscriber],
    workflows: Mapping[str, Workflow],
    now: str,
    *,
    checked: bool = True,
) -> list[StagedNotification]:
    """The environment's `notifications`, validated and filled in, ready to store;
    unless `checked`, not read back as a client reads them (fixtures.load_fixture)."""
    staged = []
    for i, raw in enumerate(_objects(env, "notifications", where)):
        spot = f"{where}.notifications[{i}]"
        doc = dict(raw)
        owner = subscribers.get(str(doc.pop("subscriberId", "")))
        if owner is None:
            raise ActivityFixtureError(
                f"{spot}.subscriberId: names no subscriber of this environment"
            )
        named = doc.pop("workflow", None)
        workflow = None
        if named is not None:
            workflow = workflows.get(str(named))
            if workflow is None:
                raise ActivityFixtureError(
                    f"{spot}.workflow: names no workflow of this environment"
                )
            doc["_templateId"] = workflow.id
        created = str(doc.get("createdAt") or now)
        jobs = []
        for j, job_raw in enumerate(_objects(doc, "jobs", spot)):
            job_spot = f"{spot}.jobs[{j}]"
            job = dict(job_raw)
            _one_of(job.get("type"), StepType, f"{job_spot}.type")
            _one_of(job.get("status"), JobStatus, f"{job_spot}.status")
            details = []
            for k, detail_raw in enumerate(_objects(job, "executionDetails", job_spot)):
                detail_spot = f"{job_spot}.executionDetails[{k}]"
                detail = {
                    **new_ids(detail_raw, "_id"),
                    "createdAt": created,
                    "isRetry": False,
                    "isTest": False,
                    "source": "Internal",
                    **detail_raw,
                }
                _one_of(detail.get("status"), DetailStatus, f"{detail_spot}.status")
                _one_of(detail.get("source"), DetailSource, f"{detail_spot}.source")
                if not isinstance(detail.get("detail"), str):
                    raise ActivityFixtureError(f"{detail_spot}.detail: must be a string")
                if detail.get("raw") is not None and not isinstance(detail["raw"], str):
                    raise ActivityFixtureError(f"{detail_spot}.raw: must be a string (JSON text)")
                details.append(detail)
            job.pop("executionDetails", None)
            if "providerId" not in job and _integrated(job, details):
                provider = _provider(env, str(job["type"]))
                if provider is not None:
                    job["providerId"] = provider
            if "_id" not in job:
                job["_id"] = new_object_id()
            if "updatedAt" not in job:
                job["updatedAt"] = details[-1]["createdAt"] if details else created
            if "step" not in job:
                job["step"] = _step(job, workflow)
            jobs.append((job, details))
        doc.pop("jobs", None)
        filled = {
            **new_ids(doc, "_id", "transactionId"),
            "createdAt": created,
            "updatedAt": created,
            "severity": "none",
            "channels": list(
                dict.fromkeys(job["type"] for job, _ in jobs if job["type"] != "trigger")
            ),
            "payload": {},
            "tags": [],
            "critical": False,
            "contextKeys": [],
            "to": {"subscriberId": owner.subscriber_id},
            **doc,
            **owners,
            "_subscriberId": owner.id,
        }
        _one_of(filled["severity"], Severity, f"{spot}.severity")
        if checked:
            _readable(filled, jobs, spot)
        staged.append(StagedNotification(filled, jobs))
    return staged


def _readable(
    filled: Mapping[str, Any], jobs: list[tuple[dict[str, Any], list[dict[str, Any]]]], spot: str
) -> None:
    """Refuse a notification a client cannot read: the stored shape must be one it can."""
    try:
        ActivityNotification.model_validate(
            {**filled, "jobs": [{**j, "executionDetails": d} for j, d in jobs]}
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(item)"
        raise ActivityFixtureError(f"{spot}: {field}: {first['msg']}") from None


def new_ids(doc: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """Each of `names`: `doc`'s own, or a fresh id where it leaves it out, drawn in
    that order (a default drawn for every item, given or not, was a tenth of the
    demo's load). Spread first, it keeps the place a default had in the document."""
    return {name: doc[name] if name in doc else new_object_id() for name in names}


# Said on a channel step that found no active integration: it names no provider.
NO_INTEGRATION = "Subscriber does not have an active integration"


def _integrated(job: Mapping[str, Any], details: list[dict[str, Any]]) -> bool:
    """Whether a job is one production names a provider on when it creates it: a
    channel step that found an active integration."""
    return str(job["type"]) in CHANNEL_KEYS and not any(
        str(d.get("detail", "")).strip() == NO_INTEGRATION for d in details
    )


def _provider(env: Mapping[str, Any], channel: str) -> str | None:
    """The provider production sets on a new job of a channel: Novu's own for in-app,
    else the environment's active integration of that channel (the primary first)."""
    if channel == "in_app":
        return "novu"
    found = [
        i
        for i in env.get("integrations") or []
        if isinstance(i, dict) and i.get("channel") == channel and i.get("active", True)
    ]
    found.sort(key=lambda i: not i.get("primary"))
    return str(found[0]["providerId"]) if found and found[0].get("providerId") else None


def _step(job: Mapping[str, Any], workflow: Workflow | None) -> dict[str, Any]:
    """The step a job ran: the workflow's step of that type where it has one."""
    for step in workflow.steps if workflow is not None else []:
        kind = (step.template or {}).get("type")
        if kind is not None and str(kind) == job["type"]:
            shown: dict[str, Any] = {
                "_id": step.id or new_object_id(),
                "_parentId": None,
                "active": step.active if step.active is not None else True,
                "_templateId": step.template_id or new_object_id(),
                "filters": [f.to_wire() for f in step.filters or []],
            }
            if step.name:
                shown["name"] = step.name
            return shown
    return {
        "_id": new_object_id(),
        "_parentId": None,
        "active": True,
        "_templateId": new_object_id(),
        "name": str(job["type"]).replace("_", "-"),
        "filters": [],
    }


def stage_preferences(
    env: Mapping[str, Any],
    where: str,
    subscribers: Mapping[str, Subscriber],
    workflows: Mapping[str, Workflow],
    now: str,
) -> list[StagedChoice]:
    """The environment's `preferences`: each `{subscriberId, workflow?, channels,
    context?, schedule?}`, a subscriber's channels turned on or off for one workflow
    (named) or for all (none), of one context (its `type:id` keys) or of none; a global
    one may set the schedule (quiet hours) instead of channels, or with them."""
    from inboxdesk.server.preference_routes import schedule_errors

    rows = []
    for i, raw in enumerate(_objects(env, "preferences", where)):
        spot = f"{where}.preferences[{i}]"
        owner = subscribers.get(str(raw.get("subscriberId", "")))
        if owner is None:
            raise ActivityFixtureError(
                f"{spot}.subscriberId: names no subscriber of this environment"
            )
        workflow_id = ""
        if raw.get("workflow") is not None:
            workflow = workflows.get(str(raw["workflow"]))
            if workflow is None:
                raise ActivityFixtureError(
                    f"{spot}.workflow: names no workflow of this environment"
                )
            workflow_id = str(workflow.id)
        schedule = raw.get("schedule")
        if schedule is not None and (workflow_id or schedule_errors(schedule)):
            said = "; ".join(schedule_errors(schedule)) or "global only: give no workflow"
            raise ActivityFixtureError(f"{spot}.schedule: {said}")
        channels = raw.get("channels", {} if schedule is not None else None)
        if (
            not isinstance(channels, dict)
            or not (channels or schedule is not None)
            or not all(k in CHANNEL_KEYS and isinstance(v, bool) for k, v in channels.items())
        ):
            raise ActivityFixtureError(
                f"{spot}.channels: an object of {', '.join(CHANNEL_KEYS)} set to true or false"
            )
        context = raw.get("context") or []
        if not isinstance(context, list) or not all(
            isinstance(k, str) and ":" in k for k in context
        ):
            raise ActivityFixtureError(f"{spot}.context: a list of type:id keys")
        rows.append(
            (
                owner.environment_id,
                str(owner.id),
                workflow_id,
                channels,
                str(raw.get("updatedAt") or now),
                context_of(context),
                None if schedule is None else json.dumps(schedule),
            )
        )
    return rows


# The detail production writes on a step a subscriber's own choice canceled.
BY_WORKFLOW_CHOICE = "Step filtered by subscriber workflow preferences"
BY_GLOBAL_CHOICE = "Step filtered by subscriber global preferences"
PREFERENCE_DETAILS = frozenset(
    {
        BY_WORKFLOW_CHOICE,
        BY_GLOBAL_CHOICE,
        "Step filtered by workflow preferences",
        "Step filtered by user preferences",
    }
)
# A step not yet run: staging settles it as the preference would have.
NOT_RUN = frozenset({"pending", "queued", "delayed"})
# A step stopped for another reason before it reached the subscriber.
STOPPED = frozenset({"canceled", "skipped"})


def _moment(value: str) -> datetime | None:
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def apply_preferences(
    staged: list[StagedNotification],
    preferences: list[StagedChoice],
    workflows: Mapping[str, Workflow],
    where: str,
) -> None:
    """Make each staged notification's channel steps agree with the subscriber's stored
    choices in effect when it was made (a choice counts from its `updatedAt` on; one
    changed later leaves its channels unknown for earlier notifications): a step
    of a channel they turned off, not yet run, becomes the canceled step production
    records; a step that ran anyway, or one canceled by a choice that is not there,
    refuses the fixture, naming the step. Critical workflows ignore the choices. A
    notification whose context has choices of its own is held to those alone, as the
    worker with context preferences on reads them."""
    chosen: dict[tuple[str, str], list[tuple[str, dict[str, bool], datetime | None]]] = {}
    for _, subscriber_pk, workflow_id, channels, updated_at, context, _ in preferences:
        chosen.setdefault((subscriber_pk, context), []).append(
            (workflow_id, channels, _moment(updated_at))
        )
    docs = {key: w.to_wire() for key, w in workflows.items()}
    names = {key: w.name for key, w in workflows.items()}
    for i, notification in enumerate(staged):
        doc = notification.doc
        context = context_of(doc.get("contextKeys") or ())
        owner = str(doc["_subscriberId"])
        choices = chosen.get((owner, context)) or chosen.get((owner, NO_CONTEXT), [])
        if not choices:
            continue
        workflow_id = str(doc.get("_templateId") or "")
        made = _moment(str(doc.get("createdAt") or ""))
        own_global: dict[str, bool] = {}
        own: dict[str, bool] = {}
        # Channels of a choice changed after the notification was made: what they were
        # then is not stored, so either outcome agrees.
        unknown: set[str] = set()
        for chosen_for, channels, updated in choices:
            if chosen_for not in (GLOBAL, workflow_id):
                continue
            if updated is not None and made is not None and updated > made:
                unknown.update(channels)
            elif chosen_for == GLOBAL:
                own_global.update(channels)
            else:
                own.update(channels)
        workflow = docs.get(workflow_id, {})
        for j, (job, details) in enumerate(notification.jobs):
            channel = str(job["type"])
            if channel not in CHANNEL_KEYS or channel in unknown:
                continue
            value, source = channel_value(workflow, channel, own_global, own)
            by_choice = not value and source is OverrideSource.SUBSCRIBER
            expected = BY_WORKFLOW_CHOICE if channel in own else BY_GLOBAL_CHOICE
            said = [
                d["detail"].strip() for d in details if d["detail"].strip() in PREFERENCE_DETAILS
            ]
            spot = f"{where}.notifications[{i}].jobs[{j}]"
            scope = (
                f"for '{names.get(workflow_id, workflow_id)}'"
                if channel in own
                else "for every workflow"
            )
            if said and value:
                raise ActivityFixtureError(
                    f"{spot}: the {channel} step says '{said[-1]}', but the subscriber's "
                    f"stored preferences leave {channel} on for this workflow"
                )
            if not by_choice:
                continue
            if said:
                if said[-1] != expected:
                    raise ActivityFixtureError(
                        f"{spot}: the {channel} step says '{said[-1]}', but the subscriber "
                        f"turned {channel} off {scope}: it would say '{expected}'"
                    )
                continue
            status = str(job.get("status"))
            if status in NOT_RUN and not details:
                job["status"] = "canceled"
                raw = {
                    "enabled": True,
                    "channels": {
                        c: channel_value(workflow, c, own_global, own)[0] for c in CHANNEL_KEYS
                    },
                }
                details.append(
                    {
                        "_id": new_object_id(),
                        "createdAt": doc.get("createdAt"),
                        "isRetry": False,
                        "isTest": False,
                        "source": "Internal",
                        "status": "Success",
                        "detail": expected,
                        "raw": json.dumps(raw),
                    }
                )
                continue
            if status not in STOPPED:
                raise ActivityFixtureError(
                    f"{spot}: a {channel} step {status}, but the subscriber turned {channel} "
                    f"off {scope} before this notification: it would be canceled "
                    f"('{expected}')"
                )
