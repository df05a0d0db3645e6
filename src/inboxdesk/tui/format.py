"""How values read on screen: relative times, counts, status colours. Pure functions."""

from __future__ import annotations

from datetime import UTC, datetime

# By the status's wire value, so drawing a row needs no model import.
STATUS_STYLES = {"sent": "green", "error": "bold red", "warning": "yellow"}


def parse_time(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def until_text(until: str | None) -> str:
    """A snooze's end as people read it: "Tue 25 Nov 09:00 UTC"."""
    when = parse_time(until)
    if when is None:
        return until or ""
    return when.strftime("%a %d %b %H:%M ") + (when.tzname() or "")


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


def status_style(status: str) -> str:
    return STATUS_STYLES.get(status, "")
