"""Sending a notification again, as the dashboard's Resend does, and cancelling a
transaction's delayed work: one rule for the app and the command line alike.

A resend triggers the original workflow (its trigger identifier) for the same
subscriber with the original payload plus `__resent_transaction_id` and `__resent_at`,
the context rebuilt from `contextKeys` and the first job's `overrides`. Tenant, actor
and topic routing are not repeated, and `__source` goes only where the original had it.
Unlike the dashboard, the transactionId is made here, so the write is never sent twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from inboxdesk.client.triggers import new_transaction_id
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import plural
from inboxdesk.writes import Kind, Step, Write

RESENT_TRANSACTION = "__resent_transaction_id"
RESENT_AT = "__resent_at"
# Job statuses a cancel stops: work still waiting in a delay or a digest.
CANCELLABLE = frozenset({"delayed", "merged"})

# How a confirmation names each channel a notification goes out on.
CHANNEL_WORDS = {
    "in_app": "the in-app message",
    "email": "the email",
    "sms": "the SMS",
    "chat": "the chat message",
    "push": "the push notification",
    "tool": "the tool step",
}


@dataclass(frozen=True)
class Resend:
    """What a resend of one notification sends, and what its confirmation says."""

    workflow: str  # the trigger identifier
    subscriber_id: str
    original: str  # the original's transactionId
    payload: dict[str, Any]
    # The body's other fields: `context` and `overrides`, each only when it has any.
    extra: dict[str, Any]
    channels: tuple[str, ...]
    name: str  # who gets it, in words (their first name, else their subscriberId)
    critical: bool = False
    notes: tuple[str, ...] = field(default=())

    def write(self, transaction_id: str | None = None) -> Write:
        """The write of this resend, with its new transactionId (made now unless given)."""
        made = transaction_id or new_transaction_id()
        return Write(
            Kind.RESEND,
            self.subscriber_id,
            (Step(self.workflow, (made, self.original)),),
            payload=self.payload,
            trigger=self.extra or None,
        )

    @property
    def question(self) -> str:
        """The confirmation: every channel sent again, and what may differ. Raw: show it
        safe."""
        lines = [
            f"Resend {self.workflow} to {self.subscriber_id}? {self.name} gets "
            f"{channel_list(self.channels)} again, if the workflow is unchanged; "
            "preferences apply again.",
        ]
        if self.critical:
            lines.append(
                "The workflow is critical: it goes out whatever the subscriber's preferences say."
            )
        lines += self.notes
        lines.append("It cannot be taken back.")
        return "\n".join(lines)


def channel_list(channels: Sequence[str]) -> str:
    """`the in-app message and the email`; `nothing` for none."""
    named = [CHANNEL_WORDS.get(c, f"the {c} step") for c in dict.fromkeys(channels)]
    if not named:
        return "no channel (the workflow had no channel step)"
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + " and " + named[-1]


def context_of(keys: Sequence[str] | None) -> dict[str, str]:
    """`{type: id}` from `type:id` keys, split at the first colon; a key without a type
    or an id is skipped."""
    found: dict[str, str] = {}
    for key in keys or ():
        kind, _, ident = str(key).partition(":")
        if kind and ident:
            found[kind] = ident
    return found


def plan(notification: ActivityNotification, now: datetime) -> Resend | str:
    """The resend of `notification` at `now`, or why there can be none (raw words)."""
    template = notification.template
    if template is None:
        return "It cannot be resent: its workflow was deleted."
    if not template.identifier:
        return "It cannot be resent: its workflow has no trigger identifier."
    who = notification.subscriber
    if who is None or not who.subscriber_id:
        return "It cannot be resent: its subscriber was deleted."
    original = notification.payload
    payload: dict[str, Any] = {}
    if original is not None:
        at = now.astimezone(UTC).isoformat(timespec="milliseconds")
        payload = {
            **original,
            RESENT_TRANSACTION: notification.transaction_id,
            RESENT_AT: at.replace("+00:00", "Z"),  # as JavaScript's toISOString()
        }
    extra: dict[str, Any] = {}
    context = context_of(notification.context_keys)
    if context:
        extra["context"] = context
    first = notification.jobs[0] if notification.jobs else None
    if first is not None and first.overrides:
        extra["overrides"] = dict(first.overrides)
    channels = tuple(str(j.type) for j in notification.delivery_jobs) or tuple(
        str(c) for c in notification.channels
    )
    notes = ["Tenant, actor and topic routing are not repeated."]
    if original and "attachments" in original:
        notes.append("It had attachments: their content is not kept, so the service may refuse it.")
    return Resend(
        workflow=template.identifier,
        subscriber_id=who.subscriber_id,
        original=notification.transaction_id,
        payload=payload,
        extra=extra,
        channels=channels,
        name=who.first_name or who.subscriber_id,
        critical=bool(notification.critical),
        notes=tuple(notes),
    )


def cancellable(notifications: Sequence[ActivityNotification]) -> bool:
    """Whether a cancel would stop anything: a job still delayed or merged."""
    return any(str(j.status) in CANCELLABLE for n in notifications for j in n.jobs)


def cancel_question(transaction_id: str, notifications: Sequence[ActivityNotification]) -> str:
    """The confirmation of a cancel: every notification of the transaction it touches,
    every subscriber's. Raw: show it safe."""
    lines = [
        f"Cancel the delayed work of transaction {transaction_id}? It reaches "
        f"{plural(len(notifications), 'notification')}, every subscriber's:"
    ]
    for n in notifications:
        who = n.subscriber.subscriber_id if n.subscriber else "(deleted subscriber)"
        waiting = sum(1 for j in n.jobs if str(j.status) in CANCELLABLE)
        lines.append(
            f"  {n.id}  {n.workflow_name} to {who}: {plural(waiting, 'step')} delayed or merged"
        )
    lines.append("Only delayed or merged steps and the steps after them stop; it cannot be undone.")
    return "\n".join(lines)


def cancel_write(transaction_id: str, notifications: Sequence[ActivityNotification]) -> Write:
    """The write of a cancel, naming the notifications its confirmation named."""
    return Write(Kind.CANCEL, transaction_id, (Step("cancel", tuple(n.id for n in notifications)),))
