"""Times typed by a person: ISO 8601, relative (`90m`, `2h`, `3d`), or
`today 17:00`, `tomorrow 09:00`, `monday 09:00`, in the local time zone."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta

RELATIVE = re.compile(r"^(\d{1,6})\s*(s|m|h|d|w)$")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
CLOCK = re.compile(r"^(\d{1,2})(?::(\d{2}))?$")

HELP = "ISO 8601 (2026-11-24T09:00), 90m, 2h, 3d, today 17:00, tomorrow 09:00, monday 09:00"


class TimeInputError(ValueError):
    pass


def parse_when(text: str, now: datetime, future: bool) -> datetime:
    """The moment `text` names, aware, in `now`'s zone. A relative one counts forwards
    when `future` (snooze until), else backwards (history since)."""
    typed = " ".join(text.strip().lower().split())
    if not typed:
        raise TimeInputError(f"No time given; use {HELP}.")
    found = RELATIVE.match(typed)
    if found:
        seconds = int(found.group(1)) * UNITS[found.group(2)]
        return now + timedelta(seconds=seconds if future else -seconds)
    day, _, clock = typed.partition(" ")
    if day in ("today", "tomorrow", "yesterday", *DAYS):
        return _on_day(day, clock or "00:00", now, future)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise TimeInputError(f"Not a time: {text.strip()[:40]!r}; use {HELP}.") from None
    return moment.replace(tzinfo=now.tzinfo) if moment.tzinfo is None else moment


def _on_day(day: str, clock: str, now: datetime, future: bool) -> datetime:
    found = CLOCK.match(clock)
    hour, minute = (int(found.group(1)), int(found.group(2) or 0)) if found else (-1, -1)
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise TimeInputError(f"Not a time of day: {clock[:20]!r} (use 09:00).")
    offset = {"today": 0, "tomorrow": 1, "yesterday": -1}.get(day)
    if offset is None:
        ahead = (DAYS.index(day) - now.weekday()) % 7
        offset = (ahead or 7) if future else -((now.weekday() - DAYS.index(day)) % 7 or 7)
    date = (now + timedelta(days=offset)).date()
    return datetime.combine(date, time(hour, minute), tzinfo=now.tzinfo)


def local_now() -> datetime:
    return datetime.now().astimezone()
