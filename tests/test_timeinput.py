"""Times a person types."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from inboxdesk.timeinput import TimeInputError, parse_when

PARIS = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 24, 15, 30, tzinfo=PARIS)  # a Tuesday


@pytest.mark.parametrize(
    ("typed", "future", "expected"),
    [
        ("90m", True, NOW + timedelta(minutes=90)),
        ("2h", False, NOW - timedelta(hours=2)),
        ("3d", False, NOW - timedelta(days=3)),
        ("tomorrow 09:00", True, datetime(2026, 11, 25, 9, tzinfo=PARIS)),
        ("Today 17:00", True, datetime(2026, 11, 24, 17, tzinfo=PARIS)),
        ("monday 09:00", True, datetime(2026, 11, 30, 9, tzinfo=PARIS)),
        ("monday 09:00", False, datetime(2026, 11, 23, 9, tzinfo=PARIS)),
        ("tuesday 8", True, datetime(2026, 12, 1, 8, tzinfo=PARIS)),
        ("2026-11-20T08:00", False, datetime(2026, 11, 20, 8, tzinfo=PARIS)),
        ("2026-11-20T08:00+00:00", False, datetime(2026, 11, 20, 8, tzinfo=UTC)),
    ],
)
def test_each_form(typed: str, future: bool, expected: datetime) -> None:
    assert parse_when(typed, NOW, future) == expected


@pytest.mark.parametrize("typed", ["", "soon", "tomorrow 25:00", "monday 9:75", "5x", "1e9h"])
def test_a_bad_time_is_one_clear_error(typed: str) -> None:
    with pytest.raises(TimeInputError, match="time"):
        parse_when(typed, NOW, True)
