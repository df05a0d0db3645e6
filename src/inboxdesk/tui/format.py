"""How values read on screen: relative times, markers, previews. Pure functions."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

from rich.text import Text

from inboxdesk.models import MessageStatus
from inboxdesk.text import clip

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


@cache
def _marker(selected: bool, read: bool, seen: bool) -> Text:
    text = Text()
    text.append("✔" if selected else " ", style="bold magenta")
    text.append("●" if not read else " ", style="bold cyan")
    text.append("◌" if not seen else " ", style="yellow")
    return text


def state_marker(selected: bool, read: bool, seen: bool) -> Text:
    """Selection tick, unread dot and unseen ring, in a fixed width.

    The eight possible markers are shared: a 10,000-row table holds eight objects.
    """
    return _marker(selected, read, seen)


@cache
def _status(status: str) -> Text:
    known = status in {s.value for s in MessageStatus}
    return Text(status, style=STATUS_STYLES[MessageStatus(status)] if known else "")


def status_text(status: str) -> Text:
    return _status(status)


def heading_text(heading: str, read: bool, width: int = 48) -> Text | str:
    """The title, bold while unread; a plain str, the lighter cell, once read."""
    title = clip(heading or "(no title)", width)
    if read:
        return title
    return Text(title, style="bold", no_wrap=True, overflow="ellipsis")
