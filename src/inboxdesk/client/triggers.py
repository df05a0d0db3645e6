"""Triggering a workflow and cancelling a transaction's delayed work, and what each
answer means in words.

A trigger is never sent twice: its transactionId is made by the caller and sent in the
body; each try is a single request (no transport retry), and before trying again the
activity feed is asked whether that transactionId already arrived.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inboxdesk.client.errors import InboxdeskError, ProtocolError, transient
from inboxdesk.client.parse import unwrap
from inboxdesk.client.retry import NO_RETRY
from inboxdesk.client.sender import segment

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender

# Tries of one trigger, each after asking whether the last one arrived.
TRIES = 3

# Every `status` production documents, in words; only `processed` queued anything.
STATUS_WORDS = {
    "processed": "queued: the service's worker sends it next (queued is not yet sent)",
    "trigger_not_active": "nothing was sent: the workflow is not active",
    "no_tenant_found": "nothing was sent: no tenant has the identifier given",
    "invalid_recipients": "nothing was sent: no recipient had a valid subscriberId",
    "error": "nothing was sent: the service reported an error",
    "no_workflow_active_steps_defined": "nothing was sent: the workflow has no active step",
    "no_workflow_steps_defined": "nothing was sent: the workflow has no steps",
}


def new_transaction_id() -> str:
    """`txn_` and 24 hex digits, the form production makes."""
    return f"txn_{secrets.token_hex(12)}"


def status_words(status: str) -> str:
    """What a trigger's `status` means; an unknown one says that nothing is known."""
    return STATUS_WORDS.get(
        status, "the service answered an unknown status: whether anything was sent is unknown"
    )


@dataclass(frozen=True)
class TriggerAnswer:
    acknowledged: bool
    status: str
    transaction_id: str
    # The feed already held the transactionId when a try was about to be repeated.
    found_before_retry: bool = False

    @property
    def queued(self) -> bool:
        return self.status == "processed"

    @property
    def words(self) -> str:
        if self.found_before_retry:
            return "queued: an earlier try had arrived, so it was not sent again"
        return status_words(self.status)


def read_answer(body: Any, transaction_id: str) -> TriggerAnswer:
    """A trigger's answer (wrapped in `data` or not); anything else is a protocol error."""
    inner = body.get("data") if isinstance(body, Mapping) else None
    data = inner if isinstance(inner, Mapping) else body
    if not isinstance(data, Mapping) or not isinstance(data.get("status"), str):
        raise ProtocolError("The service's answer to the trigger has no status.")
    given = data.get("transactionId")
    return TriggerAnswer(
        acknowledged=data.get("acknowledged") is True,
        status=str(data["status"]),
        transaction_id=given if isinstance(given, str) and given else transaction_id,
    )


async def arrived(sender: Sender, transaction_id: str) -> bool:
    """Whether the activity feed holds a notification of this transactionId."""
    body = await sender.json(
        "GET", "/v1/notifications", params=[("transactionId", transaction_id), ("limit", "1")]
    )
    data = body.get("data") if isinstance(body, Mapping) else None
    return isinstance(data, list) and len(data) > 0


async def trigger(
    sender: Sender,
    name: str,
    to: str | Mapping[str, Any],
    payload: Mapping[str, Any] | None,
    transaction_id: str,
    idempotency_key: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> TriggerAnswer:
    """Trigger `name` for `to` with this transactionId: at most TRIES single tries, each
    after the first only when the feed does not yet hold the transaction. `extra`: other
    fields of the body (a resend's `context` and `overrides`)."""
    body: dict[str, Any] = {"name": name, "to": to}
    if payload is not None:
        body["payload"] = dict(payload)
    body.update({k: v for k, v in (extra or {}).items() if k not in body})
    body["transactionId"] = transaction_id
    for attempt in range(TRIES):
        if attempt and await arrived(sender, transaction_id):
            return TriggerAnswer(True, "processed", transaction_id, found_before_retry=True)
        try:
            answer = await sender.json(
                "POST",
                "/v1/events/trigger",
                json_body=body,
                idempotency_key=idempotency_key,
                retry=NO_RETRY,
            )
        except InboxdeskError as exc:
            if not transient(exc) or attempt == TRIES - 1:
                raise
            continue
        return read_answer(answer, transaction_id)
    raise AssertionError("unreachable")  # pragma: no cover


async def cancel(sender: Sender, transaction_id: str, idempotency_key: str | None = None) -> bool:
    """`DELETE /v1/events/trigger/{transactionId}`: True when delayed work was cancelled."""
    body = await sender.json(
        "DELETE",
        f"/v1/events/trigger/{segment(transaction_id)}",
        idempotency_key=idempotency_key,
    )
    value = unwrap(body) if isinstance(body, Mapping) else body
    if not isinstance(value, bool):
        raise ProtocolError("The service's answer to the cancel is not true or false.")
    return value
