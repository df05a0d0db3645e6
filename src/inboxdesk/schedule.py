"""A subscriber's schedule (quiet hours), read and written as production keeps it:
`{isEnabled, weeklySchedule: {monday: {isEnabled, hours: [{start, end}]}}}` with times
in 12-hour form (`09:00 AM`). Shown in 24-hour form, minutes kept exactly as stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from inboxdesk.text import safe

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SHORT = {day[:3]: day for day in DAYS}
OFF: dict[str, Any] = {"isEnabled": False}
NEVER_PAUSED = "in-app and critical workflows are never paused"
UTC_NOTE = "in UTC: the subscriber has no timezone set"

_TWELVE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])\s*$")
_TWENTY_FOUR = re.compile(r"^(\d{1,2}):(\d{2})$")


class ScheduleError(ValueError):
    """A schedule asked for in words that cannot be read; the message says why."""


def minutes_of(twelve: str) -> int | None:
    """`09:30 PM` → 1290 minutes after midnight; None: not production's 12-hour form."""
    found = _TWELVE.match(twelve)
    if found is None:
        return None
    hour, minute = int(found[1]), int(found[2])
    if not 1 <= hour <= 12 or minute > 59:
        return None
    hour = hour % 12 + (12 if found[3].upper() == "PM" else 0)
    return hour * 60 + minute


def twelve_of(minutes: int) -> str:
    """1290 → `09:30 PM` (production's form, zero-padded)."""
    hour, minute = divmod(minutes, 60)
    half = "PM" if hour >= 12 else "AM"
    return f"{(hour % 12) or 12:02d}:{minute:02d} {half}"


def clock(twelve: str) -> str:
    """A stored 12-hour time in 24-hour form (`21:30`), or the stored text as it is."""
    minutes = minutes_of(twelve)
    return twelve if minutes is None else f"{minutes // 60:02d}:{minutes % 60:02d}"


def _time(text: str) -> int:
    found = _TWENTY_FOUR.match(text.strip())
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        raise ScheduleError(f"{text!r} is not a time: give HH:MM, 24-hour (09:00, 17:30)")
    return int(found[1]) * 60 + int(found[2])


def days_of(text: str) -> list[str]:
    """`mon-fri`, `sat`, `mon,wed`, `monday` → the weekdays, in week order."""
    chosen: set[str] = set()
    for part in text.split(","):
        first, dash, last = part.strip().lower().partition("-")
        names = [first, last] if dash else [first]
        if not all(n[:3] in SHORT and SHORT[n[:3]].startswith(n) for n in names if n):
            raise ScheduleError(
                f"{text!r} is not a day: give mon … sun, a range (mon-fri) or a list"
            )
        start = DAYS.index(SHORT[names[0][:3]])
        end = DAYS.index(SHORT[names[-1][:3]])
        if end < start:
            raise ScheduleError(f"{text!r}: a range runs from an earlier day to a later one")
        chosen.update(DAYS[start : end + 1])
    return [d for d in DAYS if d in chosen]


def hours_of(text: str) -> dict[str, str]:
    """`09:00-17:30` → production's `{start: "09:00 AM", end: "05:30 PM"}`."""
    start, dash, end = text.partition("-")
    if not dash:
        raise ScheduleError(f"{text!r} is not a range of hours: give 09:00-17:30")
    begin, finish = _time(start), _time(end)
    if begin == finish:
        raise ScheduleError(f"{text!r} opens and closes at once")
    return {"start": twelve_of(begin), "end": twelve_of(finish)}


def build(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The schedule open in the given (days, hours) pairs, each day closed otherwise; a
    day given twice keeps both ranges."""
    if not pairs:
        raise ScheduleError("give --off, or at least one --day with its --hours")
    weekly: dict[str, Any] = {}
    for days, hours in pairs:
        span = hours_of(hours)
        for day in days_of(days):
            weekly.setdefault(day, {"isEnabled": True, "hours": []})["hours"].append(span)
    return {"isEnabled": True, "weeklySchedule": weekly}


def is_on(schedule: Mapping[str, Any] | None) -> bool:
    return bool(schedule) and schedule is not None and schedule.get("isEnabled") is True


def day_words(entry: object) -> str:
    """One day's open hours in words: `09:00-17:30, 19:00-21:00`, or `closed`."""
    if not isinstance(entry, Mapping) or entry.get("isEnabled") is not True:
        return "closed"
    hours = entry.get("hours")
    spans = []
    for span in hours if isinstance(hours, list) else []:
        if isinstance(span, Mapping):
            spans.append(f"{clock(str(span.get('start', '?')))}-{clock(str(span.get('end', '?')))}")
    return safe(", ".join(spans), newlines=False) if spans else "on, no hours listed"


def lines(schedule: Mapping[str, Any] | None, timezone: str | None) -> list[str]:
    """The schedule in words, one line each: off, or each weekday's open hours in the
    subscriber's timezone (UTC, said so, where none is set)."""
    if not is_on(schedule):
        return [f"Quiet hours: off (every hour is open; {NEVER_PAUSED})."]
    assert schedule is not None
    where = safe(timezone, newlines=False) if timezone else UTC_NOTE
    said = [f"Quiet hours: on. Open hours ({where}); {NEVER_PAUSED}:"]
    weekly = schedule.get("weeklySchedule")
    weekly = weekly if isinstance(weekly, Mapping) else {}
    said.extend(f"  {day[:3]}  {day_words(weekly.get(day))}" for day in DAYS)
    return said


def text_of(schedule: Mapping[str, Any] | None) -> str:
    """The schedule as the editor's words, minutes as stored: `mon-fri 09:00-17:30;
    sat 10:15-12:45,19:00-21:00`, or `off`. Days with the same hours run together."""
    if not is_on(schedule):
        return "off"
    assert schedule is not None
    weekly = schedule.get("weeklySchedule")
    weekly = weekly if isinstance(weekly, Mapping) else {}
    per_day: list[str | None] = []
    for day in DAYS:
        entry = weekly.get(day)
        if not isinstance(entry, Mapping) or entry.get("isEnabled") is not True:
            per_day.append(None)
            continue
        hours = entry.get("hours")
        spans = [
            f"{clock(str(s.get('start', '')))}-{clock(str(s.get('end', '')))}"
            for s in (hours if isinstance(hours, list) else [])
            if isinstance(s, Mapping)
        ]
        per_day.append(",".join(spans))
    parts = []
    start = 0
    while start < len(DAYS):
        said = per_day[start]
        end = start
        while end + 1 < len(DAYS) and per_day[end + 1] == said:
            end += 1
        if said is not None:
            days = DAYS[start][:3] + (f"-{DAYS[end][:3]}" if end > start else "")
            parts.append(f"{days} {said}".strip())
        start = end + 1
    return safe("; ".join(parts), newlines=False)


def parse_text(text: str) -> dict[str, Any]:
    """The editor's words (as `text_of` writes them) → the schedule to send."""
    if text.strip().lower() == "off":
        return dict(OFF)
    pairs: list[tuple[str, str]] = []
    for part in text.split(";"):
        if not part.strip():
            continue
        days, _, hours = part.strip().partition(" ")
        if not hours.strip():
            raise ScheduleError(f"{part.strip()!r}: give days then hours (mon-fri 09:00-17:30)")
        pairs.extend((days, span.strip()) for span in hours.split(","))
    return build(pairs)
