"""A subscriber-fields write: some of a subscriber's fields (email, phone, names, locale,
timezone, data) set or cleared with one `PATCH /v2/subscribers/{id}`.

Kept in a Write as: `target` the subscriberId, `change` `{"set": {field: value},
"before": {field: value before}}` (None clears), `label` what it does in words. An undo
writes the values before back (a field that was empty is cleared).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from inboxdesk.models.subscriber_edit import FIELDS, PLAIN_STRINGS
from inboxdesk.text import safe
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients
from inboxdesk.writes.kinds.data import SubscriberData
from inboxdesk.writes.model import Kind, Write

if TYPE_CHECKING:
    from inboxdesk.models import Subscriber


def values_of(subscriber: Subscriber) -> dict[str, Any]:
    """The subscriber's changeable fields, by wire name."""
    wire = subscriber.model_dump(by_alias=True)
    return {name: wire.get(name) for name in FIELDS}


def _shown(name: str, value: Any) -> str:
    if value is None:
        return "(none)"
    if name == "data":
        return "(an object)"
    return repr(safe(str(value), newlines=False))


def words(subscriber_id: str, fields: Mapping[str, Any], before: Mapping[str, Any]) -> str:
    """`phone of ada: '+1555…' → '+1415…'`, one clause per field, raw."""
    parts = []
    for name, value in fields.items():
        was = f"{_shown(name, before.get(name))} → " if name in before else ""
        parts.append(f"{name} {was}{_shown(name, value)}")
    return f"{subscriber_id}: {', '.join(parts)}"


def subscriber_write(
    subscriber_id: str,
    fields: Mapping[str, Any],
    before: Mapping[str, Any] | None,
    undoes: str | None = None,
) -> Write:
    """The write that sets `fields` (None clears one); `before`: their values now,
    as last read (None: unknown, and the write cannot be undone)."""
    change: dict[str, Any] = {"set": dict(fields)}
    if before is not None:
        change["before"] = {name: before.get(name) for name in fields}
    said = words(subscriber_id, fields, change.get("before", {}))
    return Write(
        Kind.SUBSCRIBER,
        subscriber_id,
        (),
        label=f"undo: {said}" if undoes else said,
        undoes=undoes,
        change=change,
    )


def changed(current: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """Only the fields whose value differs from `current`: the rest are not sent."""
    return {k: v for k, v in fields.items() if current.get(k) != v}


class SubscriberFields(SubscriberData):
    """Some of a subscriber's fields set or cleared."""

    kind = Kind.SUBSCRIBER

    async def perform(self, write: Write, clients: Clients) -> Sent:
        assert write.change is not None
        subscriber = await clients.client.update_subscriber(
            write.target, write.change["set"], idempotency_key=write.key
        )
        values = values_of(subscriber)
        after = {name: values.get(name) for name in write.change["set"]}
        return Sent(write, Result(values={"fields": after}))

    def refusal(self, write: Write, answers: Answers) -> str | None:
        if write.change is None or "before" not in write.change:
            return "This cannot be undone: the fields' values before it are unknown."
        return None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        """The write that puts each field back, from the values the service answered."""
        assert write.change is not None
        back: dict[str, Any] = {}
        for name, was in write.change["before"].items():
            # "" is refused on email, locale and timezone: such a field is cleared instead.
            back[name] = None if was == "" and name not in PLAIN_STRINGS else was
        current = answers.values_after(write).get("fields", write.change["set"])
        return subscriber_write(write.target, back, current, undoes=write.id)

    def public(self, write: Write, values: Mapping[str, Any] | None) -> tuple[Any, Any]:
        """The before and after History shows (no secret lives in these fields)."""
        change = write.change or {}
        return change.get("before"), (values or {}).get("fields", change.get("set"))
