"""What the app says about each write's outcome: one place for every kind of write."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from inboxdesk.models.inbox import InboxAction
from inboxdesk.primary import switch_failed
from inboxdesk.resend import cancel_words
from inboxdesk.snooze import end_text
from inboxdesk.text import clip, plural
from inboxdesk.tui.format import parse_time
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
from inboxdesk.writes.model import DATA_KINDS
from inboxdesk.writes.preference import undo_note


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


# A v2 notification's inbox state: archived, and snoozed until (None: not snoozed).
InboxState = tuple[bool, str | None]

# How a message that an inbox write left as it was is said.
_ALREADY = {
    "archive": "already archived",
    "unarchive": "not archived",
    "snooze": "already snoozed until then",
    "unsnooze": "not snoozed",
}


def _in_target_state(action: str, state: InboxState) -> bool:
    archived, until = state
    return {
        "archive": archived,
        "unarchive": not archived,
        "snooze": until is not None,
        "unsnooze": until is None,
    }.get(action, False)


def inbox_notice(
    event: Sent | Partial, earlier: Mapping[str, InboxState], clock: datetime
) -> tuple[str, str]:
    """What an archive, unarchive, snooze or unsnooze changed, counted from the
    notifications the service returned against the rows' state before (`earlier`; an
    id not there counts as changed). A snooze's end has its year when not `clock`'s."""
    write = event.write
    action = write.steps[0].action
    done, already = InboxAction(action).done, _ALREADY.get(action, f"already {action}")
    changed = same = 0
    for item in event.result.notifications:
        until_now = (item.snoozed_until or "") if item.is_snoozed else None
        now: InboxState = (item.is_archived, until_now)
        was = earlier.get(item.id)
        if action == "snooze" and item.is_snoozed:
            # A new end is a change; the same end again is not.
            changed += was is None or was[1] != now[1]
            same += was is not None and was[1] == now[1]
        elif was is not None and _in_target_state(action, was):
            same += 1
        elif _in_target_state(action, now):
            changed += 1
    ignored = len(event.result.not_updated)
    end = parse_time(write.until) if action == "snooze" else None
    until = f" until {end_text(end, clock)}" if end is not None else ""
    were = f"{same} {'was' if same == 1 else 'were'} {already}" if same else ""
    if changed:
        text = f"{done} {plural(changed, 'message')}{until}." + (f" {were}." if were else "")
    elif len(write.ids) == 1 and same:
        text = f"Nothing changed: the message was {already}."
    else:
        text = f"Nothing changed: {were}." if were else "Nothing changed."
    if ignored:
        text += f" The service ignored {plural(ignored, 'id')} (not this subscriber's, or gone)."
    if isinstance(event, Partial) and event.error is not None:
        text += (
            f" {event.failed} of {plural(event.requests, 'request')} failed: {event.error.message}"
        )
    return text, "warning" if isinstance(event, Partial) else "information"


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
        why = f" ({clip(event.reason, 120)})" if event.reason else ""
        return (
            f"Not applied yet: {what}{why}. Queued{ahead} with Idempotency-Key "
            f"{write.key}; it is sent, with that key, when the service is back.",
            "warning",
        )
    if isinstance(event, Dropped):
        return f"Dropped unsent: {what}.", "information"
    if isinstance(event, Refused):
        return clip(event.reason, 200), "warning"
    if isinstance(event, Failed):
        if write.kind is Kind.SET_PRIMARY:
            said = clip(switch_failed(write, event.error), 300)
            hint = clip(event.error.hint, 200)
            return f"{said}\n{hint}".strip(), "error"
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
    if write.kind is Kind.ARCHIVE_ALL:
        return f"Done: {what} (every channel). The list is read again.", "information"
    if write.kind in (Kind.SEND, Kind.RESEND) and event.result.trigger is not None:
        answer = event.result.trigger
        done = "Resent" if write.kind is Kind.RESEND else "Sent"
        return (
            clip(f"{done}: transactionId {answer.transaction_id}, {answer.words}.", 300),
            "information" if answer.queued else "warning",
        )
    if write.kind is Kind.CANCEL:
        return cancel_words(bool(event.result.cancelled)), (
            "information" if event.result.cancelled else "warning"
        )
    if write.kind is Kind.INBOX and write.undoes is None:
        return None  # the inbox view says it, from its rows' state before (inbox_notice)
    if write.kind in DATA_KINDS:
        # Its words were made masked (writes/subscriber.py, writes/credentials.py).
        restored = (event.result.values or {}).get("integrationName")
        under = f" Restored under the integration {restored}." if restored else ""
        undo = "" if write.undoes else " History (3) undoes it."
        return clip(f"Done: {what}.{under}{undo}", 240), "information"
    if write.kind is Kind.PREFERENCE:
        said = undo_note(write) or "It applies to future notifications only."
        return clip(f"Preference set: {what}. {said}", 200), "information"
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
