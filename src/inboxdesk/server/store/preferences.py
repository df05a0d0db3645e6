"""Subscribers' preferences: stored choices, and the effective channels they make.

A workflow's channel is, in order (the later wins): the workflow's default
(`preferenceSettings`, on when unset), the subscriber's global choice, the subscriber's
choice for that workflow. Only the channels of a workflow's active steps are listed,
and globally only those some active workflow uses. Critical workflows are listed apart
and never changed.

A subscriber's choices may be bound to a context (`tenant:acme`): those are kept apart,
read and written only for exactly that set of keys, and never mixed with the no-context
ones (production's context preferences; the service serves them behind a setting).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from inboxdesk.models.preference import (
    MAX_PREFERENCE_WORKFLOWS,
    PREFERENCE_CHANNELS,
    Criticality,
    OverrideSource,
)
from inboxdesk.server.store.base import Caller, NotAllowed, NotFound, read_doc, utc_now
from inboxdesk.server.store.subscribers import SubscriberStore

GLOBAL = ""  # the workflow column of a subscriber's global choice
NO_CONTEXT = ""  # the stored form of no context
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


class WorkflowNotFound(NotFound):
    """The `workflowId` of a change names no workflow of the environment."""

    def __init__(self, workflow_id: str) -> None:
        super().__init__("Workflow cannot be found")
        self.workflow_id = workflow_id


class NotBoolean(ValueError):
    """A channel of a change whose value is not true or false."""

    def __init__(self, channel: str, value: Any) -> None:
        super().__init__(f"{channel} must be a boolean value")
        self.channel = channel
        self.value = value


def workflow_slug(name: str, workflow_id: str) -> str:
    """`order-shipped_wf_<the id in base 62>`, as production builds a workflow's slug."""
    words = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
    number = int(workflow_id, 16) if workflow_id else 0
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = BASE62[rest] + digits
    return f"{words or 'workflow'}_wf_{digits or '0'}"


def _identifier(doc: Mapping[str, Any]) -> str:
    triggers = doc.get("triggers") or []
    first = triggers[0] if triggers and isinstance(triggers[0], dict) else {}
    return str(first.get("identifier", ""))


def _step_channels(doc: Mapping[str, Any]) -> list[str]:
    """The preference channels of a workflow's active steps, in the service's order."""
    found = set()
    for step in doc.get("steps") or []:
        kind = (step.get("template") or {}).get("type") if isinstance(step, dict) else None
        if step.get("active", True) and kind in PREFERENCE_CHANNELS:
            found.add(kind)
    return [c for c in PREFERENCE_CHANNELS if c in found]


def channel_value(
    doc: Mapping[str, Any],
    channel: str,
    own_global: Mapping[str, bool | None],
    own: Mapping[str, bool | None],
) -> tuple[bool, OverrideSource]:
    """The one rule: a workflow's channel for a subscriber, and where it comes from.
    The workflow's default, then the subscriber's global choice, then theirs for the
    workflow (a choice stored as `null` is none); a critical workflow keeps its default
    whatever they chose."""
    value = bool((doc.get("preferenceSettings") or {}).get(channel, True))
    source = OverrideSource.TEMPLATE
    if not doc.get("critical", False):
        for chosen in (own_global, own):
            if chosen.get(channel) is not None:
                value, source = bool(chosen[channel]), OverrideSource.SUBSCRIBER
    return value, source


def context_of(keys: Iterable[str]) -> str:
    """A context as stored: its distinct `type:id` keys, sorted, as JSON; NO_CONTEXT for
    none (production matches the exact set, in any order)."""
    unique = sorted({k for k in keys if k})
    return json.dumps(unique) if unique else NO_CONTEXT


def stored_choices(
    db: sqlite3.Connection,
    environment_id: str,
    subscriber_pk: str,
    context: str = NO_CONTEXT,
    workflow_ids: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A subscriber's stored choices for exactly one context, by workflow id (GLOBAL:
    the global one, with the schedule); `workflow_ids` narrows them."""
    sql = (
        "SELECT workflow_id, channels, schedule, updated_at FROM {} "
        "WHERE environment_id = ? AND subscriber_pk = ?"
    )
    params: list[Any] = [environment_id, subscriber_pk]
    if context:
        sql = sql.format("context_preferences") + " AND context_keys = ?"
        params.append(context)
    else:
        sql = sql.format("preferences")
    if workflow_ids is not None:
        sql += f" AND workflow_id IN ({', '.join('?' for _ in workflow_ids)})"
        params += workflow_ids
    return {
        r["workflow_id"]: {
            "channels": read_doc(r["channels"]),
            "schedule": None if r["schedule"] is None else read_doc(r["schedule"]),
            "updatedAt": r["updated_at"],
        }
        for r in db.execute(sql, params)
    }


def workflow_updated_at(doc: Mapping[str, Any], workflow_id: str) -> str:
    """A workflow's `updatedAt`, always sent: its own, else when it was made (its id's
    time, as an ObjectId holds it)."""
    for key in ("updatedAt", "createdAt"):
        if isinstance(doc.get(key), str) and doc[key]:
            return str(doc[key])
    try:
        made = datetime.fromtimestamp(int(workflow_id[:8], 16), UTC)
    except ValueError:
        made = datetime.fromtimestamp(0, UTC)
    return made.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class PreferenceStore(SubscriberStore):
    # -- reading -----------------------------------------------------------------------

    @staticmethod
    def _workflows(db: sqlite3.Connection, caller: Caller) -> list[tuple[str, dict[str, Any]]]:
        """The environment's active workflows, oldest first, as (id, document)."""
        rows = db.execute(
            "SELECT id, doc FROM workflows WHERE environment_id = ? ORDER BY rowid",
            (caller.environment_id,),
        )
        out = []
        for row in rows:
            doc = read_doc(row["doc"])
            if doc.get("active", True) and not doc.get("deleted", False):
                out.append((str(row["id"]), doc))
        return out

    @staticmethod
    def _choices(
        db: sqlite3.Connection, caller: Caller, subscriber_pk: str, context: str = NO_CONTEXT
    ) -> dict[str, Any]:
        """The subscriber's stored choices by workflow id (GLOBAL: the global one)."""
        return stored_choices(db, caller.environment_id, subscriber_pk, context)

    @staticmethod
    def effective(
        doc: Mapping[str, Any],
        own_global: Mapping[str, bool | None],
        own: Mapping[str, bool | None],
    ) -> tuple[dict[str, bool], list[dict[str, str]]]:
        """A workflow's channels for one subscriber, and where each value comes from."""
        channels: dict[str, bool] = {}
        overrides: list[dict[str, str]] = []
        for channel in _step_channels(doc):
            channels[channel], source = channel_value(doc, channel, own_global, own)
            overrides.append({"channel": channel, "source": source.value})
        return channels, overrides

    def preferences(
        self,
        caller: Caller,
        subscriber_id: str,
        criticality: Criticality = Criticality.NON_CRITICAL,
        not_found: str = "Subscriber with id: {} not found",
        context: str = NO_CONTEXT,
    ) -> dict[str, Any]:
        """The body of `GET /v2/subscribers/{id}/preferences`, for one context (`context_of`):
        its records alone, the workflows' defaults where it has none."""
        criticality = Criticality(criticality)
        db = self.read()
        try:
            pk = str(self._subscriber(db, caller, subscriber_id)["id"])
        except NotFound:
            raise NotFound(not_found.format(subscriber_id)) from None
        workflows = self._workflows(db, caller)
        choices = self._choices(db, caller, pk, context)
        own_global = choices.get(GLOBAL, {}).get("channels", {})
        used = {c for _, doc in workflows for c in _step_channels(doc)}
        global_: dict[str, Any] = {
            "enabled": True,
            # A channel stored as `null` is sent back as it is.
            "channels": {c: own_global.get(c, True) for c in PREFERENCE_CHANNELS if c in used},
        }
        schedule = choices.get(GLOBAL, {}).get("schedule")
        if schedule is not None:
            global_["schedule"] = schedule
        listed = []
        for workflow_id, doc in workflows:
            critical = bool(doc.get("critical", False))
            if criticality is Criticality.NON_CRITICAL and critical:
                continue
            if criticality is Criticality.CRITICAL and not critical:
                continue
            own = choices.get(workflow_id, {})
            channels, overrides = self.effective(doc, own_global, own.get("channels", {}))
            item: dict[str, Any] = {
                "enabled": True,
                "channels": channels,
                "overrides": overrides,
                "workflow": {
                    "slug": workflow_slug(str(doc.get("name", "")), workflow_id),
                    "identifier": _identifier(doc),
                    "name": str(doc.get("name", "")),
                    "updatedAt": workflow_updated_at(doc, workflow_id),
                },
            }
            if own.get("updatedAt"):
                item["updatedAt"] = own["updatedAt"]
            listed.append(item)
        return {"global": global_, "workflows": listed[:MAX_PREFERENCE_WORKFLOWS]}

    # -- changing ----------------------------------------------------------------------

    def _find_workflows(
        self, db: sqlite3.Connection, caller: Caller, wanted: Iterable[str]
    ) -> tuple[dict[str, tuple[str, dict[str, Any]]], list[str]]:
        """Each wanted workflow by its `_id`, trigger identifier or slug; and the ones
        that name none."""
        known: dict[str, tuple[str, dict[str, Any]]] = {}
        for workflow_id, doc in self._workflows(db, caller):
            slug = workflow_slug(str(doc.get("name", "")), workflow_id)
            for name in (workflow_id, _identifier(doc), slug):
                if name:
                    known.setdefault(name, (workflow_id, doc))
        found, missing = {}, []
        for name in wanted:
            hit = known.get(name) or known.get(name.lower())
            if hit is None:
                missing.append(name)
            else:
                found[name] = hit
        return found, missing

    @staticmethod
    def _booleans(channels: Mapping[str, Any]) -> dict[str, bool | None]:
        """The known channels of a change; unknown ones are ignored, `null` kept (it is
        stored so, as production stores it), any other value that is not a boolean
        refused."""
        out: dict[str, bool | None] = {}
        for channel in PREFERENCE_CHANNELS:
            if channel in channels:
                value = channels[channel]
                if value is not None and not isinstance(value, bool):
                    raise NotBoolean(channel, value)
                out[channel] = value
        return out

    @staticmethod
    def _save(
        db: sqlite3.Connection,
        caller: Caller,
        subscriber_pk: str,
        workflow_id: str,
        channels: Mapping[str, bool | None],
        schedule: Mapping[str, Any] | None = None,
        context: str = NO_CONTEXT,
    ) -> None:
        """Merge `channels` (and a schedule) into the stored choice of the context."""
        row = stored_choices(db, caller.environment_id, subscriber_pk, context, [workflow_id])
        old = row.get(workflow_id, {})
        merged = {**old.get("channels", {}), **channels}
        kept = schedule if schedule is not None else old.get("schedule")
        values = (
            caller.environment_id,
            subscriber_pk,
            workflow_id,
            json.dumps(merged),
            utc_now(),
            None if kept is None else json.dumps(kept),
        )
        if context:
            db.execute(
                "INSERT OR REPLACE INTO context_preferences (environment_id, subscriber_pk,"
                " workflow_id, channels, updated_at, schedule, context_keys)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*values, context),
            )
        else:
            db.execute(
                "INSERT OR REPLACE INTO preferences"
                " (environment_id, subscriber_pk, workflow_id, channels, updated_at, schedule)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                values,
            )

    def update_preferences(
        self,
        caller: Caller,
        subscriber_id: str,
        channels: Mapping[str, Any],
        workflow_id: str | None = None,
        schedule: Mapping[str, Any] | None = None,
        context: str = NO_CONTEXT,
    ) -> dict[str, Any]:
        """`PATCH …/preferences`: the subscriber's global choice, or one workflow's, of
        one context; refusals in production's order (workflow, values, subscriber,
        critical). The answer is the listing of that context."""
        with self.transaction() as db:
            target = GLOBAL
            if workflow_id is not None:
                found, missing = self._find_workflows(db, caller, [workflow_id])
                if missing:
                    raise WorkflowNotFound(workflow_id)
                target, doc = found[workflow_id]
            values = self._booleans(channels)
            try:
                pk = str(self._subscriber(db, caller, subscriber_id)["id"])
            except NotFound:
                raise NotFound(f"Subscriber with id: {subscriber_id} is not found") from None
            if workflow_id is not None and doc.get("critical", False):
                raise NotAllowed(f"Critical workflow with id: {target} can not be updated")
            self._save(db, caller, pk, target, values, schedule, context)
        return self.preferences(caller, subscriber_id, context=context)

    def update_preferences_bulk(
        self,
        caller: Caller,
        subscriber_id: str,
        items: Sequence[tuple[str, Mapping[str, Any]]],
        context: str = NO_CONTEXT,
    ) -> list[dict[str, Any]]:
        """`PATCH …/preferences/bulk`: every (workflowId, channels) or none; refusals in
        production's order (subscriber, none given, workflows, critical, values)."""
        with self.transaction() as db:
            try:
                pk = str(self._subscriber(db, caller, subscriber_id)["id"])
            except NotFound:
                raise NotFound(f"Subscriber with id: {subscriber_id} is not found") from None
            if not items:
                raise NotAllowed("No preferences provided for bulk update")
            found, missing = self._find_workflows(db, caller, [w for w, _ in items])
            if missing:
                names = ", ".join(dict.fromkeys(missing))
                raise NotFound(f"Workflows with ids: {names} not found")
            critical = [w for w, _ in items if found[w][1].get("critical", False)]
            if critical:
                names = ", ".join(dict.fromkeys(found[w][0] for w in critical))
                raise NotAllowed(f"Critical workflows with ids: {names} cannot be updated")
            changes = [(found[w][0], self._booleans(c)) for w, c in items]
            for target, channels in changes:
                self._save(db, caller, pk, target, channels, context=context)
            choices = self._choices(db, caller, pk, context)
        own_global = choices.get(GLOBAL, {}).get("channels", {})
        out = []
        for target in dict.fromkeys(t for t, _ in changes):
            doc = next(d for i, d in found.values() if i == target)
            effective, _ = self.effective(doc, own_global, choices[target]["channels"])
            workflow: dict[str, Any] = {
                "id": target,
                "identifier": _identifier(doc),
                "name": str(doc.get("name", "")),
                "critical": False,
                "tags": list(doc.get("tags") or []),
                "severity": str(doc.get("severity") or "none"),
            }
            if doc.get("data") is not None:
                workflow["data"] = doc["data"]
            out.append(
                {"level": "template", "enabled": True, "channels": effective, "workflow": workflow}
            )
        return out

    def delivers(self, caller: Caller, subscriber_pk: str, workflow_id: str, channel: str) -> bool:
        """Whether a step of `channel` of the workflow reaches the subscriber by their
        stored preferences (staging cancels it when not); a critical workflow ignores
        them."""
        db = self.read()
        row = db.execute(
            "SELECT doc FROM workflows WHERE id = ? AND environment_id = ?",
            (workflow_id, caller.environment_id),
        ).fetchone()
        doc: dict[str, Any] = read_doc(row["doc"]) if row else {}
        choices = self._choices(db, caller, subscriber_pk)
        own_global = choices.get(GLOBAL, {}).get("channels", {})
        own = choices.get(workflow_id, {}).get("channels", {})
        return channel_value(doc, channel, own_global, own)[0]
