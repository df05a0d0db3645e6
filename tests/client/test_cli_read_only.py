"""A read-only run on the command line: every write (undo included) is refused with one
line naming the setting and exit status 2, before anything is sent or journalled;
reading and history still work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.client.conftest import run
from tests.conftest import MAILGUN, Service, jane_message

WRITES = [
    ("mark-as", "jane", "read", jane_message(1)),
    ("mark-all", "jane", "read", "--yes"),
    ("archive", "jane", jane_message(1)),
    ("snooze", "jane", jane_message(1), "--until", "2h"),
    ("set-primary", MAILGUN, "--yes"),
    ("set-preference", "jane", "--channel", "email", "--off"),
    ("undo", "abcd", "--yes"),
]


def unchanged(env: Service) -> tuple[object, ...]:
    return env.row("SELECT read, seen, archived FROM messages WHERE id = ?", jane_message(1))


def journal(capsys: pytest.CaptureFixture[str]) -> list[object]:
    code, out, err = run(capsys, "history", "--json")
    assert code == 0, err
    data = json.loads(out)["data"]
    assert isinstance(data, list)
    return data


@pytest.mark.parametrize("words", WRITES, ids=[w[0] for w in WRITES])
def test_the_flag_refuses_every_write_naming_itself(
    env: Service, capsys: pytest.CaptureFixture[str], words: tuple[str, ...]
) -> None:
    before = unchanged(env)
    code, out, err = run(capsys, *words, "--read-only")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Read-only (--read-only)" in err and "nothing was sent" in err
    assert unchanged(env) == before and journal(capsys) == []


def test_a_profile_that_says_so_refuses_writes_and_still_reads(
    env: Service, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'default_profile = "look"\n[profiles.look]\nbase_url = "{env.url}"\nread_only = true\n'
    )
    code, _, err = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 2 and "Read-only (profiles.look.read_only)" in err
    code, out, err = run(capsys, "messages", "jane", "--json")
    assert code == 0 and json.loads(out)["data"], err
    code, out, _ = run(capsys, "counts", "jane")
    assert code == 0 and "UNREAD" in out
    assert journal(capsys) == []


def test_an_environment_that_says_so_refuses_writes_there_and_still_reads(
    env: Service,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.conftest import STAGING_KEY

    # The profile's keys, not one key from the environment.
    monkeypatch.delenv("NOVU_SECRET_KEY")
    monkeypatch.delenv("INBOXDESK_BASE_URL")

    caller = env.store.authenticate(STAGING_KEY)
    assert caller is not None
    own = env.store.own_environment(caller)
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'default_profile = "look"\n[profiles.look]\nbase_url = "{env.url}"\n'
        f'[profiles.look.environments.{own["_id"]}]\nname = "{own["name"]}"\n'
        f'api_key = "{STAGING_KEY}"\nread_only = true\n'
    )
    before = unchanged(env)
    code, out, err = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 2 and out == ""
    assert f"Read-only (the {own['name']} environment's read_only" in err
    assert "nothing was sent" in err and STAGING_KEY not in err
    assert unchanged(env) == before
    code, out, err = run(capsys, "messages", "jane", "--json")
    assert code == 0 and json.loads(out)["data"], err
