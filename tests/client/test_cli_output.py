"""The command line's output for scripts: one JSON envelope, ids only, and tables that
say what they left out (decisions.md 26)."""

from __future__ import annotations

import io
import json

import pytest

from tests.client.conftest import run
from tests.conftest import STAGING_KEY, Service


def test_every_json_output_is_one_envelope(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ["environments"],
        ["integrations"],
        ["subscribers"],
        ["counts", "jane"],
        ["messages", "jane"],
        ["mark-all", "jane", "seen"],
        ["config", "show"],
    ):
        code, out, err = run(capsys, *argv, "--json")
        assert code == 0, (argv, err)
        body = json.loads(out)
        assert isinstance(body, dict) and "data" in body, argv


def test_the_next_cursor_and_page_are_in_the_json(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "subscribers", "--limit", "1", "--json")
    first = json.loads(out)
    assert code == 0 and len(first["data"]) == 1 and first["next"]
    code, out, _ = run(capsys, "subscribers", "--limit", "1", "--after", first["next"], "--json")
    assert json.loads(out)["data"][0]["subscriberId"] != first["data"][0]["subscriberId"]
    code, out, _ = run(capsys, "messages", "jane", "--limit", "3", "--json")
    assert json.loads(out)["next"] == 1
    code, out, _ = run(capsys, "messages", "jane", "--all", "--json")
    assert json.loads(out)["next"] is None


def test_ids_only_feed_mark_as(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, "messages", "jane", "--unread", "--all", "--ids")
    ids = out.split()
    assert code == 0 and len(ids) == 8 and out == "".join(f"{i}\n" for i in ids)
    assert err == "", "nothing but ids"
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, _, _ = run(capsys, "mark-as", "jane", "read", "-")
    assert code == 0
    code, out, _ = run(capsys, "messages", "jane", "--unread", "--all", "--ids")
    assert out == ""
    for command in (["subscribers"], ["integrations"], ["environments"]):
        code, out, _ = run(capsys, *command, "--ids")
        assert code == 0 and out and all(" " not in line for line in out.splitlines())


def test_a_table_says_what_it_left_out(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "messages", "jane", "--limit", "2")
    assert code == 0 and "more on --page 1, or --all for every one" in err
    code, _, err = run(capsys, "messages", "jane", "--all")
    assert "more on" not in err


def test_subscribers_channel_webhooks_are_masked(
    make_service: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from inboxdesk.server.fixtures import read_fixture
    from tests.conftest import EXAMPLE

    hook = "https://hooks.slack.com/services/T000/B000/SECRETSECRETSECRET"
    fixture = read_fixture(EXAMPLE)
    fixture["environments"][0]["subscribers"][0]["channels"] = [
        {
            "providerId": "slack",
            "_integrationId": "65e000000000000000000007",
            "credentials": {"webhookUrl": hook, "deviceTokens": ["device-token-0123456789"]},
        }
    ]
    service: Service = make_service(fixture)  # type: ignore[operator]
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    code, out, _ = run(capsys, "subscribers", "--json")
    assert code == 0 and "slack" in out
    assert "SECRETSECRET" not in out and "device-token-0123" not in out


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_mark_all_confirms_on_a_terminal_unless_yes(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = env.snapshot()
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, out, err = run(capsys, "mark-all", "jane", "read")
    assert code == 1 and out == "" and "Nothing changed." in err
    assert "Mark every in-app message of jane read (8 are not read now)?" in err
    assert env.snapshot() == before
    monkeypatch.setattr("sys.stdin", Terminal("y\n"))
    code, out, _ = run(capsys, "mark-all", "jane", "read")
    assert code == 0 and out.strip() == "Marked 8 messages read."
    monkeypatch.setattr("sys.stdin", Terminal(""))
    code, out, err = run(capsys, "mark-all", "jane", "unread", "--yes")
    assert code == 0 and "[y/N]" not in err
