"""What a step checks before it sends: its conditions and the subscriber's schedule.

Both read plain documents (the step's `filters`, the stored schedule) as production's
worker reads them, and answer whether the step may go on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])\s*$")


def _lookup(source: Mapping[str, Any], path: str) -> Any:
    value: Any = source
    for part in path.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _listed(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v).strip() for v in value]
    return [v.strip() for v in str(value).split(",")]


def _child_passes(child: Mapping[str, Any], sources: Mapping[str, Mapping[str, Any]]) -> bool:
    on = str(child.get("on") or "payload")
    source = sources.get(on)
    if source is None:
        # Conditions on what the simulation does not hold (a tenant, a webhook) pass.
        return True
    actual = _lookup(source, str(child.get("field") or ""))
    expected = child.get("value")
    operator = str(child.get("operator") or "EQUAL")
    if operator in ("EQUAL", "NOT_EQUAL"):
        same = actual is not None and str(actual) == str(expected)
        return same if operator == "EQUAL" else not same
    if operator in ("LARGER", "SMALLER", "LARGER_EQUAL", "SMALLER_EQUAL"):
        a, b = _number(actual), _number(expected)
        if a is None or b is None:
            return False
        return {
            "LARGER": a > b,
            "SMALLER": a < b,
            "LARGER_EQUAL": a >= b,
            "SMALLER_EQUAL": a <= b,
        }[operator]
    if operator in ("IN", "ANY_IN", "ALL_IN", "NOT_IN"):
        options = _listed(expected)
        values = _listed(actual) if isinstance(actual, list) else [str(actual)]
        if actual is None:
            return operator == "NOT_IN"
        if operator == "ALL_IN":
            return all(v in options for v in values)
        found = any(v in options for v in values)
        return not found if operator == "NOT_IN" else found
    if operator in ("LIKE", "NOT_LIKE"):
        found = actual is not None and str(expected).lower() in str(actual).lower()
        return found if operator == "LIKE" else not found
    if operator in ("BETWEEN", "NOT_BETWEEN"):
        bounds = [_number(v) for v in _listed(expected)]
        a = _number(actual)
        inside = (
            a is not None
            and len(bounds) == 2
            and None not in bounds
            and bounds[0] is not None
            and bounds[1] is not None
            and bounds[0] <= a <= bounds[1]
        )
        return inside if operator == "BETWEEN" else not inside
    return True


def conditions_pass(
    filters: Any, payload: Mapping[str, Any], subscriber: Mapping[str, Any]
) -> bool:
    """Whether every one of a step's conditions holds (none: they hold)."""
    if not isinstance(filters, list):
        return True
    sources = {"payload": payload, "subscriber": subscriber}
    for item in filters:
        if not isinstance(item, Mapping):
            continue
        children = [c for c in item.get("children") or [] if isinstance(c, Mapping)]
        if not children:
            continue
        results = [_child_passes(c, sources) for c in children]
        passed = any(results) if str(item.get("value", "AND")).upper() == "OR" else all(results)
        if item.get("isNegated"):
            passed = not passed
        if not passed:
            return False
    return True


def _clock(text: Any) -> time | None:
    found = _CLOCK.match(str(text))
    if found is None:
        return None
    hour, minute, half = int(found[1]) % 12, int(found[2]), found[3].upper()
    return time(hour + (12 if half == "PM" else 0), minute)


def schedule_open(schedule: Any, timezone: Any, now: datetime) -> bool:
    """Whether the subscriber's schedule lets a step through now, read in their time
    zone (UTC without one); no schedule, or one turned off, is always open."""
    if not isinstance(schedule, Mapping) or not schedule.get("isEnabled"):
        return True
    try:
        zone = ZoneInfo(str(timezone)) if timezone else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    days = schedule.get("weeklySchedule") or {}
    day = days.get(DAYS[local.weekday()]) if isinstance(days, Mapping) else None
    if not isinstance(day, Mapping) or not day.get("isEnabled"):
        return False
    at = local.time().replace(second=0, microsecond=0)
    for hours in day.get("hours") or []:
        if not isinstance(hours, Mapping):
            continue
        start, end = _clock(hours.get("start")), _clock(hours.get("end"))
        if start is None or end is None:
            continue
        # A range ending before it starts runs overnight.
        if (start <= at < end) if start <= end else (at >= start or at < end):
            return True
    return False
