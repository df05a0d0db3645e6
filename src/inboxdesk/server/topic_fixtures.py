"""A fixture's topics and the subscriptions to them, checked and filled in.

An environment's `topics` is a list of `{key, name?, subscriptions?}`; each subscription
is `{subscriberId, identifier?, contextKeys?, preferences?}`, and each of its records
`{workflow (a name), enabled?, condition? (JSON Logic)}`. Ids and times may be left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from inboxdesk.models.ids import is_object_id, new_object_id
from inboxdesk.models.subscriber import Subscriber
from inboxdesk.models.workflow import Workflow
from inboxdesk.server.store.base import iso
from inboxdesk.server.store.topics import StagedTopic


class TopicFixtureError(ValueError):
    """A topic or subscription of a fixture that cannot be loaded."""


def _objects(doc: Mapping[str, Any], name: str, spot: str) -> list[dict[str, Any]]:
    items = doc.get(name, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise TopicFixtureError(f"{spot}.{name}: expected a list of objects")
    return items


def _id(doc: Mapping[str, Any], spot: str) -> str:
    value = doc.get("_id")
    if value is None:
        return new_object_id()
    if not isinstance(value, str) or not is_object_id(value.lower()):
        raise TopicFixtureError(f"{spot}._id: must be a MongoDB id (24 hex digits)")
    return value.lower()


def _time(doc: Mapping[str, Any], name: str, spot: str, now: str) -> str:
    value = doc.get(name)
    if value is None:
        return now
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise TopicFixtureError(f"{spot}.{name}: must be an ISO 8601 time with its offset")
    try:
        return iso(when)
    except OverflowError:
        raise TopicFixtureError(f"{spot}.{name}: outside the years 1 to 9999 in UTC") from None


def stage_topics(
    env: Mapping[str, Any],
    where: str,
    subscribers: Mapping[str, Subscriber],
    workflows: Mapping[str, Workflow],
    now: str,
) -> list[StagedTopic]:
    """The environment's `topics`, validated and filled in, ready to store."""
    staged = []
    seen: set[str] = set()
    for i, raw in enumerate(_objects(env, "topics", where)):
        spot = f"{where}.topics[{i}]"
        key = raw.get("key")
        if not isinstance(key, str) or not key:
            raise TopicFixtureError(f"{spot}.key: a non-empty string is required")
        if key in seen:
            raise TopicFixtureError(f"{spot}.key: topic '{key}' is listed twice")
        seen.add(key)
        if raw.get("name") is not None and not isinstance(raw["name"], str):
            raise TopicFixtureError(f"{spot}.name: must be a string")
        created = _time(raw, "createdAt", spot, now)
        topic = {
            "_id": _id(raw, spot),
            "key": key,
            "createdAt": created,
            "updatedAt": _time(raw, "updatedAt", spot, created),
        }
        if raw.get("name") is not None:
            topic["name"] = raw["name"]
        subscriptions = [
            _subscription(s, f"{spot}.subscriptions[{n}]", key, subscribers, workflows, created)
            for n, s in enumerate(_objects(raw, "subscriptions", spot))
        ]
        staged.append(StagedTopic(topic, subscriptions))
    return staged


def _subscription(
    raw: Mapping[str, Any],
    spot: str,
    topic_key: str,
    subscribers: Mapping[str, Subscriber],
    workflows: Mapping[str, Workflow],
    now: str,
) -> dict[str, Any]:
    owner = subscribers.get(str(raw.get("subscriberId", "")))
    if owner is None:
        raise TopicFixtureError(f"{spot}.subscriberId: names no subscriber of this environment")
    identifier = raw.get("identifier")
    if identifier is not None and not isinstance(identifier, str):
        raise TopicFixtureError(f"{spot}.identifier: must be a string")
    keys = raw.get("contextKeys")
    if keys is not None and (
        not isinstance(keys, list)
        or not all(isinstance(k, str) and ":" in k.strip(":") for k in keys)
    ):
        raise TopicFixtureError(f"{spot}.contextKeys: a list of 'type:id' strings")
    records = []
    for n, record in enumerate(_objects(raw, "preferences", spot)):
        record_spot = f"{spot}.preferences[{n}]"
        workflow = workflows.get(str(record.get("workflow", "")))
        if workflow is None:
            raise TopicFixtureError(
                f"{record_spot}.workflow: names no workflow of this environment"
            )
        if record.get("enabled") is not None and not isinstance(record["enabled"], bool):
            raise TopicFixtureError(f"{record_spot}.enabled: must be true or false")
        condition = record.get("condition")
        if condition is not None and not isinstance(condition, dict):
            raise TopicFixtureError(f"{record_spot}.condition: must be a JSON Logic object")
        kept: dict[str, Any] = {"_templateId": str(workflow.id)}
        if record.get("enabled") is not None:
            kept["enabled"] = record["enabled"]
        if condition is not None:
            kept["condition"] = condition
        records.append(kept)
    doc: dict[str, Any] = {
        "_id": _id(raw, spot),
        "topicKey": topic_key,
        "subscriberId": owner.subscriber_id,
        "_subscriberId": str(owner.id),
        "createdAt": _time(raw, "createdAt", spot, now),
        "preferences": records,
    }
    if identifier is not None:
        doc["identifier"] = identifier
    if keys is not None:
        doc["contextKeys"] = sorted(keys)
    return doc
