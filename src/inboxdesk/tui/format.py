"""How values read on screen: relative times, markers, previews. Pure functions."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

from rich.text import Text

from inboxdesk.models import Message, MessageStatus

STATUS_STYLES = {
    MessageStatus.SENT: "green",
    MessageStatus.ERROR: "bold red",
    MessageStatus.WARNING: "yellow",
}


def parse_time(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def relative(stamp: str | None, now: datetime) -> str:
    """`just now`, `5m ago`, `3h ago`, `2d ago`, `5w ago`, or a date for older ones."""
    when = parse_time(stamp)
    if when is None:
        return stamp or ""
    seconds = (now - when).total_seconds()
    future = seconds < 0
    seconds = abs(seconds)
    for limit, size, unit in (
        (60, 1, "s"),
        (3600, 60, "m"),
        (86400, 3600, "h"),
        (86400 * 14, 86400, "d"),
        (86400 * 70, 86400 * 7, "w"),
    ):
        if seconds < limit:
            if unit == "s":
                return "just now"
            amount = int(seconds // size)
            return f"in {amount}{unit}" if future else f"{amount}{unit} ago"
    return when.strftime("%Y-%m-%d")


def state_marker(message: Message, selected: bool) -> Text:
    """Selection tick, unread dot and unseen ring, in a fixed width."""
    text = Text()
    text.append("✔" if selected else " ", style="bold magenta")
    text.append("●" if not message.read else " ", style="bold cyan")
    text.append("◌" if not message.seen else " ", style="yellow")
    return text


def status_text(message: Message) -> Text:
    style = (
        STATUS_STYLES.get(message.status, "") if isinstance(message.status, MessageStatus) else ""
    )
    return Text(str(message.status), style=style)


def heading_text(message: Message, width: int = 48) -> Text:
    """Title (bold while unread) and a dim one-line preview."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(clip(message.heading or "(no title)", width), style="" if message.read else "bold")
    return text


def clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"
