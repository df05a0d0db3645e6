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

from inboxdesk.text import plural
from inboxdesk.writes.effects import Flags

# The service keeps an Idempotency-Key this long: an older write may be applied twice.
IDEMPOTENCY_WINDOW_HOURS = 24
# Above this many messages a mark-all is not undone: the ids it changed are not listed.
UNDOABLE_MARK_ALL = 1000


class Kind(StrEnum):
    MARK = "mark"  # mark-as on the listed ids, one request per step
    MARK_ALL = "mark-all"  # every in-app message of the subscriber
    SET_PRIMARY = "set-primary"  # never queued
    # archive, unarchive, snooze or unsnooze: one v2 request per notification (at most 4
    # at a time), reported as one write
    INBOX = "inbox"
    # one channel of one workflow, or globally, on or off for a subscriber (preference.py)
    PREFERENCE = "preference"
    # archive all, or archive all read: one v2 bulk request (every channel, no undo)
    ARCHIVE_ALL = "archive-all"
    # trigger a workflow for a subscriber: the step's action is the workflow, its one id
    # the transactionId made before the first try (never queued, no undo)
    SEND = "send"
    # a subscriber's own data (subscriber.py, credentials.py): its fields, one
    # provider's credentials set, or every entry of a provider removed
    SUBSCRIBER = "subscriber"
    CREDENTIALS = "credentials"
    CREDENTIALS_REMOVED = "credentials-removed"
    # trigger a notification's workflow again for its subscriber: the step's action is the
    # workflow, its ids the new transactionId (made before the first try) and the
    # original's; `payload` and `trigger` carry the rest of the body (never queued, no undo)
    RESEND = "resend"
    # cancel a transaction's delayed work, every subscriber's: the target is the
    # transactionId, the step's ids the notifications the confirmation named (never
    # queued, no undo)
    CANCEL = "cancel"
    # a subscriber's schedule (quiet hours) set whole or turned off (schedule.py)
    SCHEDULE = "schedule"


# The kinds that trigger a workflow: their transactionId is journalled before the first try.
TRIGGERS = frozenset({Kind.SEND, Kind.RESEND})


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


# The kinds that change a subscriber's own data: fields, credentials set, removed.
DATA_KINDS = frozenset(
    {Kind.SUBSCRIBER, Kind.CREDENTIALS, Kind.CREDENTIALS_REMOVED, Kind.SCHEDULE}
)


def never_undone(write: Write) -> str | None:
    """Why a write of this kind can never be undone (what it did cannot be taken back),
    or None."""
    if write.kind in TRIGGERS:
        return "This cannot be undone: a notification sent cannot be taken back."
    if write.kind is Kind.CANCEL:
        return "This cannot be undone: cancelled steps never run again."
    return None


def preference_action(channel: str, on: bool) -> str:
    """A preference step's action: `email:off`."""
    return f"{channel}:{'on' if on else 'off'}"


def preference_parts(write: Write) -> tuple[str, bool, str]:
    """A preference write's channel, value, and workflow identifier ("": global)."""
    step = write.steps[0]
    channel, _, state = step.action.partition(":")
    return channel, state == "on", step.ids[0] if step.ids else ""


def aware_time(text: str) -> datetime:
    """An ISO 8601 time with its offset; one without is not a time inboxdesk wrote."""
    when = datetime.fromisoformat(text)
    if when.tzinfo is None:
        raise ValueError(f"{text!r} has no UTC offset")
    return when


def describe(write: Write) -> str:
    """The write in a few words, for notices and the queue's list (raw: show it safe)."""
    if write.kind is Kind.PREFERENCE:
        channel, on, workflow = preference_parts(write)
        where = write.label or workflow or "every workflow (global)"
        words = f"{channel} {'on' if on else 'off'} for {where}"
        if write.context:
            words += f" in context {', '.join(write.context)}"
        return f"undo: {words}" if write.undoes is not None else words
    if write.kind in DATA_KINDS:
        # Said when it was made (subscriber.py, credentials.py), never with a secret.
        return write.label
    if write.kind is Kind.SET_PRIMARY:
        again = " again" if write.undoes is not None else ""
        return f"make {write.label or write.target} primary{again}"
    if write.kind is Kind.MARK_ALL:
        return f"mark all messages {write.steps[0].action}"
    if write.kind is Kind.SEND:
        return f"send {write.steps[0].action} ({write.steps[0].ids[0]})"
    if write.kind is Kind.RESEND:
        step = write.steps[0]
        return f"resend {step.action} to {write.target} ({step.ids[0]}, again of {step.ids[-1]})"
    if write.kind is Kind.CANCEL:
        touched = plural(len(write.ids), "notification")
        return f"cancel the delayed work of {write.target} ({touched})"
    if write.kind is Kind.ARCHIVE_ALL:
        read = " read" if write.steps[0].action == "read-archive" else ""
        return f"archive all{read} messages"
    count = len(write.ids)
    noun = "message" if count == 1 else "messages"
    if write.undoes is not None:
        return f"undo on {count} {noun}"
    if write.kind is Kind.INBOX:
        until = f" until {write.until}" if write.until else ""
        return f"{write.steps[0].action} {count} {noun}{until}"
    return f"mark {count} {noun} {write.steps[0].action}"
