"""Keys and read-only follow the environment a command acts in:

- a key given in NOVU_SECRET_KEY is read-only where the profile marks its environment so;
- `--environment` picks an exact name first, and two environments it names in another
  case are said, not the first taken;
- `undo` of a write made in another environment does not go with this one's key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_keys_per_environment import OTHER, SENTINEL, STAGING, home, run
from tests.conftest import STAGING_KEY, Service, jane_message

__all__ = ["home"]


def write_profile(path: Path, url: str, other_name: str = "Other", read_only: bool = False) -> None:
    path.write_text(
        f'default_profile = "work"\n[profiles.work]\nbase_url = "{url}"\n'
        f'[profiles.work.environments.{STAGING}]\nname = "Staging"\napi_key = "{STAGING_KEY}"\n'
        f'[profiles.work.environments.{OTHER}]\nname = "{other_name}"\n'
        f'api_key = "{SENTINEL}"\nread_only = {"true" if read_only else "false"}\n'
    )
    path.chmod(0o600)


def other_message(capsys: pytest.CaptureFixture[str]) -> tuple[str, bool]:
    code, out, err = run(capsys, "messages", "jane", "--json", "--environment", "Other")
    assert code == 0, err
    first = json.loads(out)["data"][0]
    return str(first["id"]), bool(first["read"])


def test_a_key_in_the_environment_variable_is_read_only_where_its_environment_is(
    home: Path,
    service: Service,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write_profile(home, service.url, read_only=True)
    monkeypatch.setenv("NOVU_SECRET_KEY", SENTINEL)
    code, out, err = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 2 and out == ""
    assert "Read-only (the Other environment's read_only)" in err and "nothing was sent" in err
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)  # Staging is writable
    code, _, err = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 0, err


def test_environment_names_an_exact_match_and_says_when_several_match(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    write_profile(home, service.url, other_name="staging")
    code, out, err = run(capsys, "counts", "jane", "--json", "--environment", "staging")
    assert code == 0, err
    code, staging, err = run(capsys, "counts", "jane", "--json", "--environment", "Staging")
    assert code == 0 and staging != out, "each its own environment's counts"
    code, out, err = run(capsys, "mark-as", "jane", "read", "x", "--environment", "STAGING")
    assert code == 2 and out == ""
    assert "names 2 environments" in err and STAGING in err and OTHER in err


def test_undo_of_another_environment_s_write_does_not_go_with_this_key(
    home: Path, service: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    write_profile(home, service.url)
    message, was_read = other_message(capsys)
    action = "unread" if was_read else "read"
    code, _, err = run(capsys, "mark-as", "jane", action, message, "--environment", "Other")
    assert code == 0, err
    code, out, _ = run(capsys, "history", "--json")
    entry = json.loads(out)["data"][0]
    code, out, err = run(capsys, "undo", entry["id"], "--yes")  # Staging's key
    assert code == 2 and "that write was made in Other" in err and "--environment" in err
    assert other_message(capsys) == (message, not was_read), "nothing was sent"
    code, _, err = run(capsys, "undo", entry["id"], "--yes", "--environment", "Other")
    assert code == 0, err
    assert other_message(capsys) == (message, was_read)
