"""One journal entry in full: ids, before and after, the request's key and outcome."""

from __future__ import annotations

import json

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from inboxdesk.scope import Scope
from inboxdesk.text import plural, safe
from inboxdesk.writes import Kind, describe
from inboxdesk.writes.model import DATA_KINDS, never_undone, preference_parts
from inboxdesk.writes.preference import state_words
from inboxdesk.writes.report import as_json
from inboxdesk.writes.store import Entry

SHOWN_IDS = 20


def flags_text(flags: object) -> str:
    if isinstance(flags, list | tuple) and len(flags) == 2:
        read, seen = flags
        return f"{'read' if read else 'unread'}, {'seen' if seen else 'unseen'}"
    return str(flags)


def state_text(state: object) -> str:
    """A notification's inbox state after an archive or snooze, from the journal."""
    if not isinstance(state, dict):
        return "not returned"
    until = state.get("snoozedUntil")
    archived = "archived" if state.get("archived") else "not archived"
    snoozed = f"snoozed until {until}" if until else "not snoozed"
    return f"{archived}, {snoozed}"


def entry_text(entry: Entry, scope: Scope, undo_key: str) -> Text:
    data = as_json(entry)
    write = entry.write
    text = Text()
    text.append(safe(describe(write)) + "\n", style="bold")
    lines = [
        ("id", write.id),
        ("made", write.made_at.astimezone().isoformat(timespec="seconds")),
        (
            "last outcome",
            f"{entry.outcome} at {entry.at.astimezone().isoformat(timespec='seconds')}",
        ),
        ("was queued", "yes" if entry.queued else "no"),
        ("profile", entry.where.profile or "(none)"),
        ("service", entry.where.host),
        (
            "environment",
            scope.name(entry.where.environment) if entry.where.environment else "unknown",
        ),
        ("operation", write.kind.value),
        ("to", write.label or write.target),
        ("Idempotency-Key", write.key),
    ]
    for name in ("status", "errorId", "error", "count"):
        if data.get(name) is not None:
            lines.append((name, str(data[name])))
    if write.undoes:
        lines.append(("undoes", write.undoes))
    for name, value in lines:
        text.append(f"{name}: ", style="bold")
        text.append(safe(value, newlines=False) + "\n")
    before = data["before"] or {}
    after = data["after"] or {}
    states = entry.detail.get("state")
    if write.kind is Kind.INBOX and isinstance(states, dict) and states:
        action = write.steps[0].action
        text.append(f"\n{plural(len(write.ids), 'message')}, {action} → after:\n", style="bold")
        for message_id in write.ids[:SHOWN_IDS]:
            now = state_text(states.get(message_id))
            text.append(safe(f"  {message_id}: {now}", newlines=False) + "\n")
        if len(write.ids) > SHOWN_IDS:
            text.append(f"  … and {len(write.ids) - SHOWN_IDS} more\n")
    elif write.kind is Kind.PREFERENCE:
        channel, _, workflow = preference_parts(write)
        was = state_words(before.get(channel), workflow)
        now = state_words(after.get(channel), workflow) if channel in after else "not returned"
        text.append(f"\n{safe(channel, newlines=False)}, before → after:\n", style="bold")
        text.append(safe(f"  {was} → {now}", newlines=False) + "\n")
    elif write.kind in DATA_KINDS:
        # Masked by as_json (tokens and webhook URLs): the raw ones stay in the journal.
        text.append("\nbefore → after:\n", style="bold")
        for label, value in (("before", data["before"]), ("after", data["after"])):
            shown = json.dumps(value, ensure_ascii=False)
            text.append(safe(f"  {label}: {shown}", newlines=False) + "\n")
    elif write.kind in (Kind.SEND, Kind.RESEND, Kind.CANCEL):
        text.append("\n")
        for name, value in trigger_lines(entry):
            text.append(f"{name}: ", style="bold")
            text.append(safe(value, newlines=False) + "\n")
    elif write.ids:
        text.append(f"\n{plural(len(write.ids), 'message')}, before → after:\n", style="bold")
        for message_id in write.ids[:SHOWN_IDS]:
            was = flags_text(before.get(message_id)) if message_id in before else "unknown"
            now = flags_text(after.get(message_id)) if message_id in after else "not returned"
            text.append(safe(f"  {message_id}: {was} → {now}", newlines=False) + "\n")
        if len(write.ids) > SHOWN_IDS:
            text.append(f"  … and {len(write.ids) - SHOWN_IDS} more\n")
    if write.previous:
        text.append("\nprimary before: ", style="bold")
        text.append(safe(", ".join(f"{name} ({i})" for i, name in write.previous), newlines=False))
        text.append("\n")
    not_updated = data["notUpdated"] or []
    if not_updated:
        text.append(f"\nnot updated ({len(not_updated)}): ", style="bold")
        text.append(safe(" ".join(map(str, not_updated[:SHOWN_IDS])), newlines=False) + "\n")
    never = never_undone(write)
    text.append(
        f"\n{never}" if never else f"\n{undo_key} undoes this entry (as a new write).",
        style="italic",
    )
    return text


def trigger_lines(entry: Entry) -> list[tuple[str, str]]:
    """A send's, resend's or cancel's own facts: the transaction, what the service said."""
    write, detail = entry.write, entry.detail
    step = write.steps[0]
    if write.kind is Kind.CANCEL:
        cancelled = detail.get("cancelled")
        said = (
            "unknown"
            if not isinstance(cancelled, bool)
            else "yes"
            if cancelled
            else "no: nothing was delayed or merged"
        )
        return [
            ("transaction", write.target),
            ("notifications", " ".join(step.ids)),
            ("cancelled", said),
        ]
    lines = [("workflow", step.action), ("transactionId", step.ids[0])]
    if write.kind is Kind.RESEND:
        lines.append(("resent from", step.ids[-1]))
    if isinstance(detail.get("triggerStatus"), str):
        lines.append(("trigger status", detail["triggerStatus"]))
    return lines


class HistoryDetail(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(id="history-entry")

    def show(self, entry: Entry | None, scope: Scope, undo_key: str) -> None:
        body = self.query_one("#history-entry", Static)
        if entry is None:
            body.update(Text("No write recorded yet.", style="italic"))
            return
        body.update(entry_text(entry, scope, undo_key))
