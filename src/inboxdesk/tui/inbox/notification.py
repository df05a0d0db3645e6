"""The detail pane's parts for a v2 inbox notification (InboxNotificationDto): read,
seen, archived and snoozed, when it was first seen, archived or snoozed until, and the
rest of what production sends, every wire value as plain, safe text."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.text import Text

from inboxdesk.models.inbox import InboxNotification
from inboxdesk.tui.format import until_text
from inboxdesk.tui.widgets.fields import add, add_when, grid, heading, json_block, plain


def notification_state(item: InboxNotification) -> Text:
    """The line a write changes: read, seen, archived or snoozed, never wrapped."""
    state = Text(no_wrap=True, overflow="ellipsis")
    state.append("read" if item.is_read else "unread", style="" if item.is_read else "bold cyan")
    state.append(" · ")
    state.append("seen" if item.is_seen else "unseen", style="" if item.is_seen else "yellow")
    if item.is_archived:
        state.append(" · archived", style="magenta")
    if item.is_snoozed:
        state.append(" · snoozed", style="blue")
        if item.snoozed_until:
            state.append_text(plain(f" until {until_text(item.snoozed_until)}", style="blue"))
    channel = getattr(item, "channelType", None) or "in_app"
    state.append_text(plain(f" · {channel}"))
    return state


def notification_title(item: InboxNotification) -> Text:
    workflow = getattr(item, "workflow", None)
    name = workflow.get("name") if isinstance(workflow, dict) else None
    first = item.body.strip().splitlines()[0] if item.body.strip() else ""
    return plain(item.subject or name or first or "(no subject)", style="bold")


def render_notification(item: InboxNotification, now: datetime) -> RenderableType:
    """Everything below the title and state line."""
    parts: list[RenderableType] = [heading("Content"), plain(item.body)]
    rows = grid()

    def when(label: str, stamp: str | None) -> None:
        add_when(rows, label, stamp, now)

    when("created", item.created_at)
    for stamp in item.delivered_at or []:
        when("delivered", stamp)
    when("first seen", item.first_seen_at)
    when("read at", item.read_at)
    when("archived at", item.archived_at if item.is_archived else None)
    when("snoozed until", item.snoozed_until if item.is_snoozed else None)
    to = item.to
    for label, value in (
        ("message id", item.id),
        ("transaction", item.transaction_id),
        ("severity", item.severity),
        ("subscriberId", to.subscriber_id if to else None),
    ):
        if value:
            add(rows, label, value)
    if item.tags:
        add(rows, "tags", ", ".join(item.tags))
    parts += [heading("Details"), rows]
    for label in ("redirect", "primaryAction", "secondaryAction", "workflow"):
        value = getattr(item, label, None)
        if value:
            parts += [heading(label[0].upper() + label[1:]), json_block(value)]
    if item.data:
        parts += [heading("Data"), json_block(item.data)]
    return Group(*parts)
