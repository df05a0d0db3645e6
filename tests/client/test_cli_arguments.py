"""Arguments taken as given: an id argument is one id, and a snooze a minute ahead is
still a minute ahead when the service reads it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.client.conftest import run
from tests.conftest import Service, jane_message


def flags(env: Service, message_id: str) -> tuple[int, int]:
    read, seen = env.row("SELECT read, seen FROM messages WHERE id = ?", message_id)
    return read, seen


def test_one_id_argument_is_never_split_at_whitespace(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = jane_message(1), jane_message(5)
    before = flags(env, first), flags(env, second)
    code, out, err = run(capsys, "mark-as", "jane", "read", f"{first} {second}", "--json")
    assert code != 0 or json.loads(out)["notUpdated"] == [f"{first} {second}"], err
    assert (flags(env, first), flags(env, second)) == before, "neither id was marked"
    code, _, err = run(capsys, "mark-as", "jane", "read", f"{first}, {second}")
    assert code == 0, err
    assert flags(env, first) == flags(env, second) == (1, 1), "commas part ids"


def test_a_snooze_a_minute_ahead_arrives_a_minute_ahead(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = datetime.now(UTC)
    code, out, err = run(capsys, "snooze", "jane", jane_message(1), "--until", "1m", "--json")
    assert code == 0, err
    assert "a minute and a half ahead" in err
    until = datetime.fromisoformat(json.loads(out)["data"][0]["snoozedUntil"])
    assert until - asked >= timedelta(seconds=89)
    code, _, err = run(capsys, "snooze", "jane", jane_message(2), "--until", "30s")
    assert code == 2 and "at least a minute ahead" in err
