"""What the app says about each write's outcome: one place for every kind of write."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from inboxdesk.core.inbox.snooze import end_text
from inboxdesk.models.inbox import InboxAction
from inboxdesk.text import clip, plural
from inboxdesk.tui.format import parse_time
from inboxdesk.writes import Dropped, Event, Failed, Partial, Queued, Refused, Sent
from inboxdesk.writes.kinds import kind_of
from inboxdesk.writes.kinds.base import partial_words

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
    text += partial_words(event)
    return text, "warning" if isinstance(event, Partial) else "information"


def notice(event: Event) -> tuple[str, str] | None:
    """(text, severity) for a write's outcome; None where the view says it itself.

    What a write did is its kind's to say (`writes/kinds/`); the text is raw (it may
    hold an integration's name): notify it with markup off, through `clip`.
    """
    write = event.write
    kind = kind_of(write)
    if isinstance(event, Queued):
        ahead = f", behind {plural(event.behind, 'other')}" if event.behind else ""
        why = f" ({clip(event.reason, 120)})" if event.reason else ""
        return (
            f"Not applied yet: {kind.what(write)}{why}. Queued{ahead} with Idempotency-Key "
            f"{write.key}; it is sent, with that key, when the service is back.",
            "warning",
        )
    if isinstance(event, Dropped):
        return f"Dropped unsent: {kind.what(write)}.", "information"
    if isinstance(event, Refused):
        return clip(event.reason, 200), "warning"
    if isinstance(event, Failed):
        return kind.failure_notice(event)  # None: the app's report says what to do
    return kind.notice(event)
