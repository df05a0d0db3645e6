"""`inboxdesk preferences` shows the schedule (quiet hours) and `set-schedule` changes
it, on the real service: off, on in the subscriber's timezone (UTC said where none),
undone whole and back to none, bad input, and read-only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.client.conftest import run
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture


@pytest.fixture
def sched_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    fixture = preference_fixture()
    fixture["environments"][0]["subscribers"][0]["timezone"] = "Europe/London"
    service = make_service(fixture)
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def _undo_id(out: str) -> str:
    return out.rsplit("inboxdesk undo ", 1)[1].split()[0]


def _schedule_lines(capsys: pytest.CaptureFixture[str], who: str) -> list[str]:
    code, out, err = run(capsys, "preferences", who)
    assert code == 0, err
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Quiet hours")) :]


def test_ada_s_quiet_hours_set_shown_undone(
    sched_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _schedule_lines(capsys, "ada.lovelace")[0].startswith("Quiet hours: off")
    code, out, err = run(
        capsys,
        "set-schedule",
        "ada.lovelace",
        "--day",
        "mon-fri",
        "--hours",
        "09:00-17:30",
        "--day",
        "sat",
        "--hours",
        "10:15-12:45",
    )
    assert code == 0, err
    assert "quiet hours off → mon 09:00-17:30" in out
    lines = _schedule_lines(capsys, "ada.lovelace")
    assert "Europe/London" in lines[0] and "never paused" in lines[0]
    assert lines[1].split() == ["mon", "09:00-17:30"]
    assert lines[6].split() == ["sat", "10:15-12:45"]  # minutes kept
    assert lines[7].split() == ["sun", "closed"]
    # Stored in production's 12-hour strings.
    code, out, err = run(capsys, "set-schedule", "ada.lovelace", "--off", "--json")
    assert code == 0, err
    assert json.loads(out)["data"]["schedule"] == {"isEnabled": False}
    code, out, err = run(capsys, "undo", json.loads(out)["data"]["id"], "--yes")
    assert code == 0, err
    lines = _schedule_lines(capsys, "ada.lovelace")
    assert lines[6].split() == ["sat", "10:15-12:45"]
    # Undo of the first: there was none before, so the schedule is off again.
    code, out, err = run(capsys, "history", "--json")
    assert code == 0, err
    first = next(e for e in reversed(json.loads(out)["data"]) if e["operation"] == "schedule")
    assert first["before"] is None
    assert first["after"]["weeklySchedule"]["saturday"]["hours"] == [
        {"start": "10:15 AM", "end": "12:45 PM"}
    ]
    code, out, err = run(capsys, "undo", first["id"], "--yes")
    assert code == 0, err
    assert _schedule_lines(capsys, "ada.lovelace")[0].startswith("Quiet hours: off")


def test_utc_note_bad_input_and_read_only(
    sched_env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(
        capsys, "set-schedule", "grace.hopper", "--day", "mon", "--hours", "9:00-17:00"
    )
    assert code == 0, err
    assert (
        "in UTC: the subscriber has no timezone set" in _schedule_lines(capsys, "grace.hopper")[0]
    )
    for args, words in (
        (["--day", "mon-fri"], "each --day one --hours"),
        (["--day", "fri-mon", "--hours", "09:00-17:00"], "earlier day to a later one"),
        (["--day", "funday", "--hours", "09:00-17:00"], "is not a day"),
        (["--day", "mon", "--hours", "9am-5pm"], "is not a time"),
        (["--off", "--day", "mon", "--hours", "09:00-17:00"], "--off alone"),
        ([], "give --off"),
    ):
        code, _, err = run(capsys, "set-schedule", "grace.hopper", *args)
        assert code == 2 and words in err and "Nothing changed" in err, (args, err)
    monkeypatch.setenv("INBOXDESK_READ_ONLY", "1")
    code, _, err = run(capsys, "set-schedule", "grace.hopper", "--off")
    assert code == 2 and "Read-only" in err
    monkeypatch.delenv("INBOXDESK_READ_ONLY")
    lines = _schedule_lines(capsys, "grace.hopper")
    assert lines[1].split() == ["mon", "09:00-17:00"]
