"""archive, unarchive, snooze and unsnooze on the command line, through the outbox."""

from __future__ import annotations

import io
import json

import pytest

from tests.client.conftest import run
from tests.conftest import Service, jane_message


def archived(env: Service, message_id: str) -> bool:
    doc = env.row("SELECT doc FROM messages WHERE id = ?", message_id)[0]
    return bool(json.loads(doc).get("archived"))


def test_archive_and_unarchive_with_ids_from_stdin(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{jane_message(1)}\n{jane_message(2)}\n"))
    code, out, err = run(capsys, "archive", "jane", "-")
    assert code == 0, err
    assert out.strip() == "Archived 2 notifications."
    assert archived(env, jane_message(1)) and archived(env, jane_message(2))
    code, out, _ = run(capsys, "unarchive", "jane", jane_message(1), "--json")
    body = json.loads(out)
    assert code == 0 and body["data"][0]["archived"] is False and body["notUpdated"] == []
    code, out, _ = run(capsys, "history", "--json")
    assert [e["operation"] for e in json.loads(out)["data"]] == ["inbox", "inbox"]


def test_an_unknown_id_is_a_partial_result(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "archive", "jane", jane_message(3), "65f0000000000000000fffff")
    assert code == 3 and "65f0000000000000000fffff" in err
    assert archived(env, jane_message(3))


def test_snooze_until_a_time_and_back(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "snooze", "jane", jane_message(4), "--until", "2h")
    assert code == 0, err
    doc = json.loads(env.row("SELECT doc FROM messages WHERE id = ?", jane_message(4))[0])
    assert doc["snoozedUntil"]
    code, _, err = run(capsys, "snooze", "jane", jane_message(4), "--until", "30s")
    assert code == 2 and "at least a minute" in err
    code, _, err = run(capsys, "snooze", "jane", jane_message(4), "--until", "whenever")
    assert code == 2 and "Not a time" in err
    assert run(capsys, "unsnooze", "jane", jane_message(4))[0] == 0
    doc = json.loads(env.row("SELECT doc FROM messages WHERE id = ?", jane_message(4))[0])
    assert "snoozedUntil" not in doc


def test_an_archive_is_undone_by_unarchiving(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "archive", "jane", jane_message(6))
    _, out, _ = run(capsys, "history", "--json")
    entry = json.loads(out)["data"][0]
    # Undo asks first, every time: with no terminal to ask, --yes (decision 113).
    code, _, err = run(capsys, "undo", entry["id"])
    assert code == 2 and "pass --yes" in err and archived(env, jane_message(6))
    code, _, err = run(capsys, "undo", entry["id"], "--yes")
    assert code == 0, err
    assert not archived(env, jane_message(6))


def test_none_updated_is_a_failure_some_updated_is_partial(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    ghosts = ("65f0000000000000000ffff1", "65f0000000000000000ffff2")
    for action in ("archive", "unarchive", "unsnooze"):
        code, out, err = run(capsys, action, "jane", *ghosts)
        assert code == 1, (action, err)
        assert "0 notifications" in out and ghosts[0] in err
    code, _, err = run(capsys, "snooze", "jane", *ghosts, "--until", "2h")
    assert code == 1, err
    assert run(capsys, "archive", "jane", jane_message(3), ghosts[0])[0] == 3


def test_snooze_says_when_it_ends_and_refuses_past_a_year(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import timedelta

    from inboxdesk.timeinput import local_now

    end = (local_now() + timedelta(days=30)).replace(second=0, microsecond=0)
    code, out, err = run(capsys, "snooze", "jane", jane_message(5), "--until", end.isoformat())
    assert code == 0, err
    assert out.strip() == f"Snoozed 1 notification until {end:%Y-%m-%d %H:%M %Z}."
    code, _, err = run(capsys, "snooze", "jane", jane_message(5), "--until", "99999d")
    assert code == 2 and "at most 365 days ahead" in err
    assert run(capsys, "snooze", "jane", jane_message(5), "--until", "365d")[0] == 0
