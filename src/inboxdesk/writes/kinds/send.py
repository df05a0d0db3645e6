"""A send: a workflow triggered for a subscriber. The step's action is the workflow,
its one id the transactionId made before the first try, journalled before it: never
lost, never queued (a notification's moment passes), never undone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inboxdesk.text import clip
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients, Notice, Section, WriteKind
from inboxdesk.writes.model import Kind, Write


class Final(WriteKind):
    """A write nothing takes back: the undo says why."""

    queued = False
    final = "This cannot be undone."

    def refusal(self, write: Write, answers: Answers) -> str | None:
        return self.final

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        return self.final or "This cannot be undone."

    def messages_changed(self, write: Write) -> int | None:
        return None


class Send(Final):
    kind = Kind.SEND
    journal_first = True
    final = "This cannot be undone: a notification sent cannot be taken back."
    done = "Sent"

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        step = write.steps[0]
        triggered = await clients.client.trigger(
            step.action,
            write.target,
            write.payload,
            step.ids[0],
            idempotency_key=write.key,
            **self.extra(write),
        )
        return Sent(write, Result(trigger=triggered))

    def extra(self, write: Write) -> dict[str, Any]:
        """More of the trigger's body than the workflow, subscriber and payload."""
        return {}

    def describe(self, write: Write) -> str:
        return f"send {write.steps[0].action} ({write.steps[0].ids[0]})"

    def notice(self, event: Sent | Partial) -> Notice | None:
        answer = event.result.trigger
        if answer is None:
            return None
        return (
            clip(f"{self.done}: transactionId {answer.transaction_id}, {answer.words}.", 300),
            "information" if answer.queued else "warning",
        )

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        step = write.steps[0]
        fields = [("workflow", step.action), ("transactionId", step.ids[0])]
        fields += self.origin(write)
        if isinstance(detail.get("triggerStatus"), str):
            fields.append(("trigger status", detail["triggerStatus"]))
        return Section(fields=tuple(fields))

    def origin(self, write: Write) -> list[tuple[str, str]]:
        """Where it was sent from, for History."""
        return []
