"""A mark: read, seen, unread or unseen on the listed ids, one mark-as request per step
(an undo may need up to four). Undone by the marks that put each id's flags back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from inboxdesk.client import InboxdeskError
from inboxdesk.client.errors import transient
from inboxdesk.models import MarkAs
from inboxdesk.text import plural
from inboxdesk.writes.effects import Flags, after_mark, restore_steps
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import (
    Answers,
    Clients,
    Notice,
    WriteKind,
    messages,
    partial_words,
    severity,
)
from inboxdesk.writes.model import UNDOABLE_MARK_ALL, Kind, Step, Write

if TYPE_CHECKING:
    from inboxdesk.models import Message

MARKS = frozenset(m.value for m in MarkAs)


class Mark(WriteKind):
    kind = Kind.MARK
    flags_before = True
    undone_by_z = True

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        updated: list[Message] = []
        not_updated: list[str] = []
        for number, step in enumerate(write.steps):
            try:
                answer = await clients.client.mark_as(
                    write.target,
                    list(step.ids),
                    step.action,
                    idempotency_key=write.step_key(number),
                )
            except InboxdeskError as exc:
                if number == 0 or transient(exc):
                    raise  # nothing done yet, or to be resent whole (the keys make it once)
                result = Result(tuple(updated), not_updated=tuple(not_updated))
                return Partial(
                    write,
                    result,
                    failed=len(write.steps) - number,
                    requests=len(write.steps),
                    error=exc,
                )
            updated.extend(answer.updated)
            not_updated.extend(answer.not_updated)
        result = Result(tuple(updated), not_updated=tuple(dict.fromkeys(not_updated)))
        return Partial(write, result) if not_updated else Sent(write, result)

    def refusal(self, write: Write, answers: Answers) -> str | None:
        if write.before is not None:
            return None
        count = answers.count_of(write)
        reason = (
            f"it changed more than {UNDOABLE_MARK_ALL:,} messages"
            if self.whole_inbox and count is not None and count > UNDOABLE_MARK_ALL
            else "the state before it is unknown"
        )
        return f"This cannot be undone: {reason}."

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        assert write.before is not None  # refusal() said so otherwise
        current = self.predicted(write)
        current.update(answers.flags_after(write))
        current.update({i: f for i, f in now.items() if i in write.before})
        steps = restore_steps(write.before, current)
        if not steps:
            return "Nothing to undo: the messages are as they were."
        return Write(
            Kind.MARK,
            write.target,
            tuple(Step(m.value, tuple(ids)) for m, ids in steps),
            before=current,
            undoes=write.id,
        )

    def predicted(self, write: Write) -> dict[str, Flags]:
        """Each id's flags after `write`, from its "before" and the rule of each step."""
        current = dict(write.before or {})
        for step in write.steps:
            if step.action in MARKS:
                # A mark-all names no ids: it marks every one (and its "before" lists them).
                ids = tuple(current) if self.whole_inbox else step.ids
                for message_id in ids:
                    if message_id in current:
                        current[message_id] = after_mark(step.action, current[message_id])
        return current

    def describe(self, write: Write) -> str:
        if write.undoes is not None:
            return f"undo on {messages(write)}"
        return f"mark {messages(write)} {write.steps[0].action}"

    def notice(self, event: Sent | Partial) -> Notice | None:
        write = event.write
        if write.undoes is not None:
            text = "Undone: the messages are back to their earlier state."
        else:
            before = write.before or {}
            changed = sum(
                1 for m in event.result.messages if before.get(m.id or "") != (m.read, m.seen)
            )
            text = marked_notice(
                write.steps[0].action, len(write.ids), changed, len(event.result.not_updated)
            )
        return text + partial_words(event), severity(event)


def marked_notice(action: str, asked: int, changed: int, ignored: int) -> str:
    """What a mark did, counted from the rows that actually changed."""
    if asked == 1:
        text = f"Marked 1 message {action}." if changed else f"Already {action}: nothing changed."
    else:
        unchanged = asked - changed - ignored
        text = f"{changed} of {plural(asked, 'message')} marked {action}"
        text += (
            f"; {unchanged} already {'was' if unchanged == 1 else 'were'}." if unchanged else "."
        )
    if ignored:
        text += f" The service ignored {plural(ignored, 'id')} (not this subscriber's, or gone)."
    return text
