"""What the app says about each write's outcome: one place for every kind of write."""

from __future__ import annotations

from inboxdesk.text import clip, plural
from inboxdesk.writes import (
    Dropped,
    Event,
    Failed,
    Kind,
    Partial,
    Queued,
    Refused,
    Sent,
    Write,
    describe,
)


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


def _changed(write: Write, event: Sent | Partial) -> int:
    before = write.before or {}
    return sum(1 for m in event.result.messages if before.get(m.id or "") != (m.read, m.seen))


def notice(event: Event) -> tuple[str, str] | None:
    """(text, severity) for a write's outcome; None where the view says it itself.

    The text is raw (it may hold an integration's name): notify it with markup off,
    through `clip`.
    """
    write = event.write
    what = clip(describe(write), 80)
    if isinstance(event, Queued):
        ahead = f", behind {plural(event.behind, 'other')}" if event.behind else ""
        return (
            f"Not applied yet: {what}. Queued{ahead}; it is sent when the service is back.",
            "warning",
        )
    if isinstance(event, Dropped):
        return f"Dropped unsent: {what}.", "information"
    if isinstance(event, Refused):
        return clip(event.reason, 200), "warning"
    if isinstance(event, Failed):
        return None  # the app's report says what failed and what to do
    if write.kind is Kind.SET_PRIMARY:
        return None  # the integrations view says what changed, from its plan
    if write.kind is Kind.MARK_ALL:
        count = event.result.count or 0
        undo = " z undoes it." if write.before is not None else ""
        action = write.steps[0].action
        what = plural(count, "unread message" if action == "read" else "message")
        return (
            f"Marked all {what} {action}.{undo}",
            "information",
        )
    if write.undoes is not None:
        text = "Undone: the messages are back to their earlier state."
    else:
        text = marked_notice(
            write.steps[0].action,
            len(write.ids),
            _changed(write, event),
            len(event.result.not_updated),
        )
    if isinstance(event, Partial) and event.error is not None:
        text += (
            f" {event.failed} of {plural(event.requests, 'request')} failed: {event.error.message}"
        )
    return text, "warning" if isinstance(event, Partial) else "information"
