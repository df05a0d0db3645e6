"""Loading a fixture (JSON) into the store: the demo data set and users' own inbox states.

A fixture names environments; each holds integrations, workflows, subscribers and
messages in wire form. Whatever a store can fill in (ids, owners, timestamps, defaults)
may be left out. Messages point at their subscriber by `subscriberId` and at their
workflow by its `name` in `workflow`; notifications (with their jobs and execution
details) and preferences too (server/activity_fixtures.py); topics and their
subscriptions name theirs the same way (server/topic_fixtures.py). A message whose subscriber
and transactionId are a notification's belongs to it. The README documents the format.
"""

from __future__ import annotations

import functools
import json
import math
import re
import secrets
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from inboxdesk.gc_paused import collector_off
from inboxdesk.models import Channel, Integration, Message, Subscriber, Workflow
from inboxdesk.models.enums import EnvironmentType
from inboxdesk.models.ids import is_object_id, new_object_id
from inboxdesk.server.activity_fixtures import (
    ActivityFixtureError,
    apply_preferences,
    new_ids,
    stage_notifications,
    stage_preferences,
)
from inboxdesk.server.store import Store, utc_now
from inboxdesk.server.store.base import iso
from inboxdesk.server.topic_fixtures import TopicFixtureError, stage_topics
from inboxdesk.text import safe

CHANNELS = tuple(c.value for c in Channel)
ENVIRONMENT_TYPES = tuple(t.value for t in EnvironmentType)


class FixtureError(ValueError):
    """A fixture that cannot be loaded; the message names the item and field."""


@dataclass(frozen=True)
class LoadedEnvironment:
    name: str
    environment_id: str
    api_key: str
    generated_key: bool


def read_fixture(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise FixtureError(f"{path}: nested too deep to read") from None
    except FileNotFoundError:
        raise FixtureError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise FixtureError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FixtureError(f"{path}: expected a JSON object with an 'environments' list")
    return data


M = TypeVar("M", Integration, Subscriber, Workflow, Message)


def _validate(model: type[M], doc: Mapping[str, Any], where: str) -> M:
    try:
        return model.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(item)"
        raise FixtureError(f"{where}: {field}: {first['msg']}") from None


# Set by the loader whatever the fixture says: not checked.
_OWNED = frozenset({"_environmentId", "_organizationId", "_subscriberId"})
# Times the service compares as text (snoozes, cursors) and the client reads as ISO 8601.
_TIMES = (
    "createdAt",
    "updatedAt",
    "snoozedUntil",
    "readAt",
    "firstSeenAt",
    "archivedAt",
    "lastReadDate",
    "lastSeenDate",
)


def _service_form(doc: dict[str, Any], spot: str) -> dict[str, Any]:
    """`doc` with the ids and times the service would later refuse or misorder refused
    here: every `_id` and `_…Id` a MongoDB id (stored lower-case, as the service
    reads them), every time ISO 8601 with its offset (stored as the service writes
    times, in UTC)."""
    doc = dict(doc)
    for name, value in doc.items():
        checked = name.startswith("_") and (name == "_id" or name.endswith("Id"))
        if checked and name not in _OWNED and value is not None:
            doc[name] = _object_id(value, f"{spot}.{name}")
    for name in _TIMES:
        if doc.get(name) is not None:
            doc[name] = _time(doc[name], f"{spot}.{name}")
    if isinstance(doc.get("deliveredAt"), list):
        doc["deliveredAt"] = [_time(v, f"{spot}.deliveredAt") for v in doc["deliveredAt"]]
    return doc


# A time already as the service writes it (UTC, milliseconds, `Z`) is kept as it is,
# once it reads as a real time: formatting each again was a tenth of a checked load of
# the demo (a user's fixture, the tests' checked template).
_SERVICE_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _time(value: Any, spot: str) -> str:
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise FixtureError(
            f"{spot}: must be an ISO 8601 time with its offset, such as 2026-11-20T10:00:00Z"
        )
    if _SERVICE_TIME.fullmatch(value):
        return str(value)
    try:
        return iso(when)
    except OverflowError:  # in UTC it falls before year 1 or after 9999
        raise FixtureError(f"{spot}: {value} is outside the years 1 to 9999 in UTC") from None


def _object_id(value: Any, spot: str) -> str:
    if not isinstance(value, str) or not is_object_id(value.lower()):
        raise FixtureError(f"{spot}: must be a MongoDB id (24 hex digits)")
    return value.lower()


def _items(
    env: Mapping[str, Any], name: str, where: str, checked: bool = True
) -> list[dict[str, Any]]:
    items = env.get(name, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise FixtureError(f"{where}.{name}: expected a list of objects")
    if not checked:
        return items
    return [_service_form(item, f"{where}.{name}[{i}]") for i, item in enumerate(items)]


@functools.cache
def _message_fields() -> tuple[str, ...]:
    return tuple(field.alias or name for name, field in Message.model_fields.items())


def _in_wire_order(doc: dict[str, Any]) -> dict[str, Any]:
    """A message's document as `Message.to_wire()` orders it: its fields in the
    model's order, then the rest as given. Only the top level is ordered: a nested
    object is stored as given, so the demo builds its nested objects in the model's
    order (tests/test_demo_seeding.py fails otherwise)."""
    fields = _message_fields()
    ordered = {name: doc[name] for name in fields if name in doc}
    ordered.update((name, value) for name, value in doc.items() if name not in ordered)
    return ordered


def _storable(value: Any, where: str = "fixture") -> None:
    """Refuse what the store could keep but never serve: a lone surrogate (no UTF-8
    answer can carry it) or a NaN or infinite number (no JSON answer can)."""
    try:
        # The whole at once, in C: what JSON writes as UTF-8 holds neither. Only a value
        # that fails is walked, to name the place (the walk took a second of the demo's
        # load).
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError):
        pass
    else:
        return
    # A value's place is kept as its path and spelt only for an error: spelling every
    # place of the demo's 300,000 values was most of this walk's time.
    stack: list[tuple[Any, _Path]] = [(value, (None, where))]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not _utf8(str(key)):
                    raise FixtureError(f"{_spelt(path)} (a key): {_SURROGATE}")
                stack.append((inner, (path, key)))
        elif isinstance(item, list):
            stack.extend((inner, (path, n)) for n, inner in enumerate(item))
        elif isinstance(item, str):
            if not _utf8(item):
                raise FixtureError(f"{_spelt(path)}: {_SURROGATE}")
        elif isinstance(item, float) and not math.isfinite(item):
            raise FixtureError(f"{_spelt(path)}: {item} is not a JSON number")


# A place in a fixture: its parent's place and its key or index (the root's is its name).
_Path = tuple["_Path | None", Any]
_SURROGATE = "holds a lone surrogate, which is not UTF-8 text"


def _spelt(path: _Path) -> str:
    parts: list[str] = []
    at: _Path | None = path
    while at is not None:
        parent, step = at
        if parent is None:
            parts.append(str(step))
        elif isinstance(step, int):
            parts.append(f"[{step}]")
        else:
            parts.append(f".{safe(step, newlines=False)}")
        at = parent
    return "".join(reversed(parts))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def load_fixture(
    store: Store,
    fixture: Mapping[str, Any],
    organization: str | None = None,
    *,
    checked: bool = True,
) -> list[LoadedEnvironment]:
    """Validate the whole fixture first, then store it; returns each environment's key.

    `checked=False` is for a fixture this program makes (the demo): its values are not
    walked for what JSON cannot carry, its messages' ids and times are stored as given
    (integrations, workflows and subscribers still take the service's form), and its
    messages and notifications are not read back through the models, which was half of
    the demo's load at every start. tests/test_demo_seeding.py proves that the demo
    stores the rows a checked load of it stores.
    """
    # The demo builds some 100,000 rows' worth of objects and no cycle: a pass of the
    # collector over them was a tenth of its load.
    with collector_off():
        return _load(store, fixture, organization, checked)


def _load(
    store: Store, fixture: Mapping[str, Any], organization: str | None, checked: bool
) -> list[LoadedEnvironment]:
    if checked:
        _storable(fixture)
    envs = fixture.get("environments")
    if not isinstance(envs, list) or not envs:
        raise FixtureError("fixture: 'environments' must be a non-empty list")
    org_id = _object_id(
        fixture.get("_organizationId") or new_object_id(), "fixture._organizationId"
    )
    now = utc_now()
    staged = []
    for n, env in enumerate(envs):
        where = f"environments[{n}]"
        if not isinstance(env, dict) or not isinstance(env.get("name"), str):
            raise FixtureError(f"{where}: an object with a 'name' is required")
        env_id = _object_id(env.get("_id") or new_object_id(), f"{where}._id")
        if env.get("_parentId") is not None:
            _object_id(env["_parentId"], f"{where}._parentId")
        owners = {"_environmentId": env_id, "_organizationId": org_id}
        key = env.get("apiKey")
        if key is not None and (not isinstance(key, str) or len(key) < 16):
            raise FixtureError(f"{where}.apiKey: must be a string of at least 16 characters")

        for name in ("identifier", "type", "slug", "_parentId"):
            if env.get(name) is not None and not isinstance(env[name], str):
                raise FixtureError(f"{where}.{name}: must be a string")
        if env.get("type") not in (None, *ENVIRONMENT_TYPES):
            raise FixtureError(f"{where}.type: must be one of {', '.join(ENVIRONMENT_TYPES)}")
        for i, doc in enumerate(_items(env, "integrations", where)):
            # The store keys primaries by channel: every integration here needs a known
            # one, but agent-kind integrations, which production gives none.
            if doc.get("kind") == "agent" and doc.get("channel") is None:
                continue
            if doc.get("channel") not in CHANNELS:
                raise FixtureError(
                    f"{where}.integrations[{i}].channel: must be one of {', '.join(CHANNELS)}"
                )
        integrations = [
            _validate(
                Integration,
                {
                    **new_ids(doc, "_id"),
                    "active": True,
                    "deleted": False,
                    "primary": False,
                    "credentials": {},
                    **doc,
                    **owners,
                },
                f"{where}.integrations[{i}]",
            )
            for i, doc in enumerate(_items(env, "integrations", where))
        ]
        workflows = [
            _validate(
                Workflow,
                {
                    "_id": ids["_id"],
                    "description": "",
                    "active": True,
                    "draft": False,
                    "preferenceSettings": {},
                    "critical": False,
                    "tags": [],
                    "steps": [],
                    "triggers": [],
                    "_creatorId": ids["_creatorId"],
                    "_notificationGroupId": ids["_notificationGroupId"],
                    "deleted": False,
                    "deletedAt": "",
                    "deletedBy": "",
                    **doc,
                    **owners,
                },
                f"{where}.workflows[{i}]",
            )
            for i, doc in enumerate(_items(env, "workflows", where))
            for ids in [new_ids(doc, "_id", "_creatorId", "_notificationGroupId")]
        ]
        subscribers = [
            _validate(
                Subscriber,
                {
                    **new_ids(doc, "_id"),
                    "deleted": False,
                    "createdAt": now,
                    "updatedAt": now,
                    **doc,
                    **owners,
                },
                f"{where}.subscribers[{i}]",
            )
            for i, doc in enumerate(_items(env, "subscribers", where))
        ]
        by_subscriber_id = {s.subscriber_id: s for s in subscribers}
        by_workflow = {w.name: w for w in workflows}
        try:
            notifications = stage_notifications(
                env, where, owners, by_subscriber_id, by_workflow, now, checked=checked
            )
            preferences = stage_preferences(env, where, by_subscriber_id, by_workflow, now)
            by_id = {str(w.id): w for w in workflows}
            apply_preferences(notifications, preferences, by_id, where)
            topics = stage_topics(env, where, by_subscriber_id, by_workflow, now)
        except (ActivityFixtureError, TopicFixtureError) as exc:
            raise FixtureError(str(exc)) from None
        # An in-app message belongs to the notification of its subscriber and transaction.
        belongs = {
            (n.doc["_subscriberId"], n.doc["transactionId"]): n.doc["_id"] for n in notifications
        }
        messages = []
        for i, raw in enumerate(_items(env, "messages", where, checked)):
            doc = dict(raw)
            spot = f"{where}.messages[{i}]"
            owner = by_subscriber_id.get(str(doc.pop("subscriberId", "")))
            if owner is None:
                raise FixtureError(f"{spot}.subscriberId: names no subscriber of this environment")
            # Production's messages (and feed items) always carry their workflow's id.
            workflow = by_workflow.get(str(doc.pop("workflow", "")))
            if workflow is None:
                raise FixtureError(f"{spot}.workflow: names no workflow of this environment")
            doc.setdefault("_templateId", workflow.id)
            if "templateIdentifier" not in doc:
                doc["templateIdentifier"] = _slug(workflow.name)
            parent = belongs.get((owner.id, doc.get("transactionId")))
            if parent is not None:
                doc["_notificationId"] = parent
            if "transactionId" not in doc:
                doc["transactionId"] = secrets.token_hex(8)
            defaults = {
                **new_ids(doc, "_id", "_notificationId"),
                "createdAt": now,
                "channel": "in_app",
                "read": False,
                "seen": False,
                "cta": {},
                "status": "sent",
            }
            full = {**defaults, **doc, **owners, "_subscriberId": owner.id}
            messages.append(
                _validate(Message, full, spot).to_wire() if checked else _in_wire_order(full)
            )
        staged.append(
            (
                env,
                env_id,
                key,
                integrations,
                workflows,
                subscribers,
                messages,
                (notifications, preferences, topics),
            )
        )

    primaries: set[tuple[str, str]] = set()
    for env, env_id, _, integrations, *_ in staged:
        for item in integrations:
            if item.primary:
                slot = (env_id, str(item.channel))
                if slot in primaries:
                    raise FixtureError(
                        f"{env['name']}: more than one primary {item.channel} integration"
                    )
                primaries.add(slot)

    try:
        # One transaction: a fixture is stored whole, or nothing of it is.
        with store.transaction():
            return _store(store, fixture, organization, org_id, staged)
    except sqlite3.IntegrityError:
        raise FixtureError(
            "fixture: an id or API key of it is already in this database: nothing of it was "
            "loaded. Load it into a new --db, or give it other ids and keys."
        ) from None


def _store(
    store: Store,
    fixture: Mapping[str, Any],
    organization: str | None,
    org_id: str,
    staged: list[Any],
) -> list[LoadedEnvironment]:
    store.create_organization(
        organization or str(fixture.get("organization", "Demo organization")), org_id
    )
    loaded = []
    for env, env_id, key, integrations, workflows, subscribers, messages, activity in staged:
        store.create_environment(
            org_id,
            env["name"],
            env_id,
            identifier=env.get("identifier") or secrets.token_hex(6),
            type=env.get("type"),
            slug=env.get("slug") or _slug(env["name"]),
            parent_id=env.get("_parentId"),
        )
        api_key = key or secrets.token_hex(16)
        store.add_api_key(env_id, api_key)
        store.insert_integrations(integrations)
        store.insert_workflows(workflows)
        store.insert_subscribers(subscribers)
        store.insert_message_docs(messages)
        store.insert_notifications(activity[0])
        store.insert_preferences(activity[1])
        store.insert_topics(env_id, activity[2])
        loaded.append(LoadedEnvironment(env["name"], env_id, api_key, key is None))
    return loaded


@functools.lru_cache(maxsize=256)
def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
