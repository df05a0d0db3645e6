"""A cancel: a transaction's delayed work cancelled, every subscriber's. The target is
the transactionId, the step's ids the notifications the confirmation named (core/delivery/resend.py
asks). Never queued, never undone: cancelled steps never run again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inboxdesk.text import plural
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import Clients, Notice, Section
from inboxdesk.writes.kinds.send import Final
from inboxdesk.writes.model import Kind, Write


class Cancel(Final):
    kind = Kind.CANCEL
    subject = "transaction"
    final = "This cannot be undone: cancelled steps never run again."

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        cancelled = await clients.client.cancel_trigger(write.target, idempotency_key=write.key)
        return Sent(write, Result(cancelled=cancelled))

    def describe(self, write: Write) -> str:
        touched = plural(len(write.ids), "notification")
        return f"cancel the delayed work of {write.target} ({touched})"

    def notice(self, event: Sent | Partial) -> Notice | None:
        cancelled = bool(event.result.cancelled)
        return cancel_words(cancelled), "information" if cancelled else "warning"

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        cancelled = detail.get("cancelled")
        said = (
            "unknown"
            if not isinstance(cancelled, bool)
            else "yes"
            if cancelled
            else "no: nothing was delayed or merged"
        )
        return Section(
            fields=(
                ("transaction", write.target),
                ("notifications", " ".join(write.steps[0].ids)),
                ("cancelled", said),
            )
        )


def cancel_words(cancelled: bool) -> str:
    return (
        "Cancelled: the delayed steps and the steps after them will not run."
        if cancelled
        else "Nothing was cancelled: no step of the transaction was still delayed or merged."
    )
