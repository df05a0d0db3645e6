"""A write: one thing the user asked the service to change, as the outbox keeps it.

A write keeps the Idempotency-Key and the body it was first tried with for its whole
life, so that sending it again after an outage applies it once.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from inboxdesk.writes.effects import Flags

# The service keeps an Idempotency-Key this long: an older write may be applied twice.
IDEMPOTENCY_WINDOW_HOURS = 24
# Above this many messages a mark-all is not undone: the ids it changed are not listed.
UNDOABLE_MARK_ALL = 1000


class Kind(StrEnum):
    """Each kind's name, as the queue and the journal store it (never renamed: users'
    queues and journals keep loading). What a kind does lives in its module of
    `writes/kinds/`, registered in `writes/kinds/__init__.py`."""

    MARK = "mark"
    MARK_ALL = "mark-all"
    SET_PRIMARY = "set-primary"
    INBOX = "inbox"  # archive, unarchive, snooze or unsnooze
    PREFERENCE = "preference"
    ARCHIVE_ALL = "archive-all"
    SEND = "send"
    SUBSCRIBER = "subscriber"  # a subscriber's fields
    CREDENTIALS = "credentials"
    CREDENTIALS_REMOVED = "credentials-removed"
    RESEND = "resend"
    CANCEL = "cancel"
    SCHEDULE = "schedule"


@dataclass(frozen=True)
class Step:
    """One request of a write: a mark (read, seen, …) on some ids."""

    action: str
    ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Where:
    """Whom a write is for: queued writes wait for the same profile, host and environment."""

    profile: str
    host: str
    environment: str = ""  # "" while the key's environment is unknown

    @classmethod
    def of(cls, profile: str | None, base_url: str, environment: str | None = None) -> Where:
        """Filed by host and port: the same service under another path or scheme is one."""
        import httpx

        url = httpx.URL(base_url)
        return cls(profile or "", f"{url.host}:{url.port or ''}", environment or "")


def _now() -> datetime:
    return datetime.now(UTC)


def _key() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Write:
    """One write the user made: its steps, what it changed from, and what it undoes."""

    kind: Kind
    target: str  # the subscriberId, or the integration's id
    steps: tuple[Step, ...]
    # The last state inboxdesk had seen of each id; None: unknown.
    before: Mapping[str, Flags] | None = None
    label: str = ""  # what the confirmation named (an integration's name), raw
    undoes: str | None = None  # the id of the write this one undoes
    # Set primary: the (id, name) of each primary it replaced, for "make X primary again".
    previous: tuple[tuple[str, str], ...] = ()
    until: str | None = None  # a snooze's end, ISO 8601
    # The environment it acts in when that may not be the key's own: a set primary
    # switches its integration's environment; None: the key's.
    environment: str | None = None
    payload: Mapping[str, Any] | None = None  # a send's payload
    # A subscriber-data write's own record (what it sets, and the values before it):
    # JSON, kept raw in the 0600 queue and journal only, to send and undo it.
    change: Mapping[str, Any] | None = field(default=None, repr=False)
    # A resend's other fields of the trigger's body (`context`, `overrides`), as sent.
    trigger: Mapping[str, Any] | None = None
    # A preference write's context (sorted `type:id` keys): the records it changes; ().
    context: tuple[str, ...] = ()
    id: str = field(default_factory=_key)
    key: str = field(default_factory=_key)  # the Idempotency-Key, kept for life
    made_at: datetime = field(default_factory=_now)
    tried: bool = False  # sent at least once (it may have reached the service)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id the write touches, each once, in order."""
        return tuple(dict.fromkeys(i for s in self.steps for i in s.ids))

    def step_key(self, number: int) -> str:
        return self.key if number == 0 else f"{self.key}-{number}"

    def stale(self, now: datetime) -> bool:
        """Older than the service's idempotency window: sending it may apply it twice."""
        return (now - self.made_at).total_seconds() > IDEMPOTENCY_WINDOW_HOURS * 3600

    def as_tried(self) -> Write:
        return self if self.tried else replace(self, tried=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "target": self.target,
            "steps": [{"action": s.action, "ids": list(s.ids)} for s in self.steps],
            "before": None
            if self.before is None
            else {i: list(flags) for i, flags in self.before.items()},
            "label": self.label,
            "undoes": self.undoes,
            "previous": [list(p) for p in self.previous],
            "until": self.until,
            "environment": self.environment,
            "payload": None if self.payload is None else dict(self.payload),
            "change": None if self.change is None else dict(self.change),
            "trigger": None if self.trigger is None else dict(self.trigger),
            "context": list(self.context),
            "id": self.id,
            "key": self.key,
            "madeAt": self.made_at.isoformat(),
            "tried": self.tried,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Write:
        before = data.get("before")
        return cls(
            kind=Kind(data["kind"]),
            target=str(data["target"]),
            steps=tuple(
                Step(str(s["action"]), tuple(str(i) for i in s["ids"])) for s in data["steps"]
            ),
            before=None
            if before is None
            else {str(i): (bool(f[0]), bool(f[1])) for i, f in before.items()},
            label=str(data.get("label", "")),
            undoes=data.get("undoes"),
            previous=tuple((str(p[0]), str(p[1])) for p in data.get("previous", [])),
            until=data.get("until"),
            environment=data.get("environment"),
            payload=data.get("payload") if isinstance(data.get("payload"), dict) else None,
            change=data.get("change") if isinstance(data.get("change"), dict) else None,
            trigger=data.get("trigger") if isinstance(data.get("trigger"), dict) else None,
            context=tuple(str(k) for k in data.get("context") or ()),
            id=str(data["id"]),
            key=str(data["key"]),
            made_at=aware_time(data["madeAt"]),
            tried=bool(data.get("tried", False)),
        )


def aware_time(text: str) -> datetime:
    """An ISO 8601 time with its offset; one without is not a time inboxdesk wrote."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        raise ValueError(f"{text!r} has no UTC offset")
    return when
