"""The schedule (quiet hours) in words and from the command line's words: production's
12-hour strings, minutes kept, and the timeline's next open window for "extended"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inboxdesk.delivery import Cause, job_causes
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.schedule import ScheduleError, build, clock, days_of, lines


def test_words_to_production_strings_and_back() -> None:
    built = build([("mon-wed,fri", "09:05-17:30"), ("fri", "19:00-21:59")])
    weekly = built["weeklySchedule"]
    assert built["isEnabled"] is True and list(weekly) == [
        "monday",
        "tuesday",
        "wednesday",
        "friday",
    ]
    assert weekly["friday"]["hours"] == [
        {"start": "09:05 AM", "end": "05:30 PM"},
        {"start": "07:00 PM", "end": "09:59 PM"},
    ]
    assert clock("12:00 AM") == "00:00" and clock("12:30 PM") == "12:30"
    # A stored range is shown as stored, never rounded; one not in 12-hour form as it is.
    assert clock("9:07 AM") == "09:07" and clock("25:00") == "25:00"
    assert days_of("Saturday") == ["saturday"]
    for bad in ("sun-mon", "x", "mo-"):
        with pytest.raises(ScheduleError):
            days_of(bad)


def test_lines_say_off_on_and_the_timezone() -> None:
    assert lines(None, "Europe/London")[0].startswith("Quiet hours: off")
    assert lines({"isEnabled": False, "weeklySchedule": {}}, None)[0].startswith("Quiet hours: off")
    said = lines(
        {
            "isEnabled": True,
            "weeklySchedule": {
                "monday": {"isEnabled": True, "hours": [{"start": "08:00 AM", "end": "\x1b[31m"}]}
            },
        },
        None,
    )
    assert "UTC" in said[0] and "in-app and critical workflows are never paused" in said[0]
    assert "\x1b" not in said[1] and said[2].split() == ["tue", "closed"]


def _extended(raw: Any) -> str:
    body = {
        "_id": "65f1000000000000000000a1",
        "transactionId": "t",
        "createdAt": "2026-11-28T15:00:00.000Z",
        "channels": ["digest"],
        "jobs": [
            {
                "type": "digest",
                "status": "delayed",
                "executionDetails": [
                    {
                        "detail": "Step was extended to the next available time in the "
                        "subscriber schedule",
                        "raw": raw,
                    }
                ],
            }
        ],
    }
    ((_, found),) = job_causes(ActivityNotification.model_validate(body))
    assert found.cause is Cause.SCHEDULED and not found.failed
    return found.words


def test_extended_names_the_next_open_window() -> None:
    raw = json.dumps(
        {
            "delayMs": 3600000,
            "nextAvailableTime": "2026-11-30T09:00:00.000Z",
            "timezone": "Europe/London",
            "scheduleExtensionsCount": 1,
            "maxScheduleExtensions": 3,
        }
    )
    assert _extended(raw).endswith(
        "it will arrive then (next open window: 2026-11-30T09:00:00.000Z, Europe/London)"
    )
    assert _extended(None).endswith("it will arrive then")
    assert _extended("not json").endswith("it will arrive then")


def test_editor_words_round_trip_minutes_kept() -> None:
    from inboxdesk.schedule import parse_text, text_of

    stored = build([("mon-fri", "09:05-17:30"), ("sat", "10:15-12:45"), ("sat", "19:00-21:00")])
    said = text_of(stored)
    assert said == "mon-fri 09:05-17:30; sat 10:15-12:45,19:00-21:00"
    assert parse_text(said) == stored
    assert parse_text(" OFF ") == {"isEnabled": False} and text_of(None) == "off"
    with pytest.raises(ScheduleError):
        parse_text("mon")
