"""An inbox write: archive, unarchive, snooze or unsnooze, one v2 request per
notification (at most INBOX_IN_FLIGHT at a time), reported as one write. Undone by
the inverse action; a snooze's undo is refused, the end of an earlier snooze unknown."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from inboxdesk.client import InboxdeskError
from inboxdesk.client.errors import transient
from inboxdesk.models.inbox import InboxAction, InboxNotification
from inboxdesk.text import plural
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import (
    SHOWN_IDS,
    Answers,
    Clients,
    Notice,
    Section,
    WriteKind,
    messages,
    more,
    partial_words,
    severity,
)
from inboxdesk.writes.model import Kind, Step, Write

INBOX_IN_FLIGHT = 4  # per-notification requests of one write at a time


class Inbox(WriteKind):
    kind = Kind.INBOX
    flags_before = True
    undone_by_z = True

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        """One PATCH per notification, each with its own key derived from the write's; a
        write with none done and the service away raises, to be queued whole (the keys
        make a resend apply once)."""
        step = write.steps[0]
        until = datetime.fromisoformat(write.until) if write.until else None
        gate = asyncio.Semaphore(INBOX_IN_FLIGHT)

        async def one(number: int, notification_id: str) -> InboxNotification:
            async with gate:
                return await clients.client.notification_action(
                    write.target, notification_id, step.action, until, write.step_key(number + 1)
                )

        answers = await asyncio.gather(
            *(one(n, i) for n, i in enumerate(step.ids)), return_exceptions=True
        )
        done = [a for a in answers if isinstance(a, InboxNotification)]
        failures = [a for a in answers if isinstance(a, BaseException)]
        away = [f for f in failures if isinstance(f, InboxdeskError) and transient(f)]
        if away:
            raise away[0]
        for failure in failures:
            if not isinstance(failure, InboxdeskError):
                raise failure  # a bug: reported as one
        result = Result(
            notifications=tuple(done),
            not_updated=tuple(
                i
                for i, a in zip(step.ids, answers, strict=True)
                if not isinstance(a, InboxNotification)
            ),
        )
        if not failures:
            return Sent(write, result)
        first = failures[0]
        assert isinstance(first, InboxdeskError)
        return Partial(write, result, failed=len(failures), requests=len(step.ids), error=first)

    def refusal(self, write: Write, answers: Answers) -> str | None:
        if InboxAction(write.steps[0].action).inverse is None:
            return "This cannot be undone: the end of the earlier snooze is not known."
        return None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        step = write.steps[0]
        inverse = InboxAction(step.action).inverse
        assert inverse is not None  # refusal() said so otherwise
        back = Step(inverse.value, step.ids)
        return Write(Kind.INBOX, write.target, (back,), undoes=write.id)

    def describe(self, write: Write) -> str:
        if write.undoes is not None:
            return f"undo on {messages(write)}"
        until = f" until {write.until}" if write.until else ""
        return f"{write.steps[0].action} {messages(write)}{until}"

    def notice(self, event: Sent | Partial) -> Notice | None:
        if event.write.undoes is None:
            return None  # the inbox view says it, from its rows' state before
        text = "Undone: the messages are back to their earlier state."
        return text + partial_words(event), severity(event)

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        states = detail.get("state")
        if not isinstance(states, dict) or not states:
            return super().section(write, before, after, detail)
        lines = [f"{i}: {state_text(states.get(i))}" for i in write.ids[:SHOWN_IDS]]
        heading = f"{plural(len(write.ids), 'message')}, {write.steps[0].action} → after:"
        return Section(heading, (*lines, *more(write.ids)))


def state_text(state: object) -> str:
    """A notification's inbox state after an archive or snooze, from the journal."""
    if not isinstance(state, dict):
        return "not returned"
    until = state.get("snoozedUntil")
    archived = "archived" if state.get("archived") else "not archived"
    snoozed = f"snoozed until {until}" if until else "not snoozed"
    return f"{archived}, {snoozed}"
