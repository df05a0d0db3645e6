"""`inboxdesk preferences` and `set-preference` on the real service: did Ada opt out of
order emails, turning it back on, the journal, `inboxdesk undo`, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.client.conftest import run
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture


@pytest.fixture
def prefs_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    service = make_service(preference_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def _order_email(capsys: pytest.CaptureFixture[str]) -> tuple[bool, str]:
    code, out, err = run(
        capsys, "preferences", "ada.lovelace", "--workflow", "Order shipped", "--json"
    )
    assert code == 0, err
    (row,) = json.loads(out)["data"]
    return row["channels"]["email"], row["sources"]["email"]


def test_did_ada_opt_out_of_order_emails_then_on_and_undone(
    prefs_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "preferences", "ada.lovelace")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["WORKFLOW", "IN_APP", "EMAIL", "SMS", "TOOL", "CHANGED"]
    order = next(line for line in lines if line.startswith("Order shipped"))
    assert order.split()[2:5] == ["on", "OFF*", "OFF*"]
    assert any("Security alert (critical, locked)" in line for line in lines)
    assert _order_email(capsys) == (False, "subscriber")

    code, out, err = run(
        capsys,
        "set-preference",
        "ada.lovelace",
        "--channel",
        "email",
        "--on",
        "--workflow",
        "order-shipped",
    )
    assert code == 0, err
    assert (
        "off (the subscriber's choice) → on (the subscriber's choice)" in out
        and "future notifications only" in out
    )
    assert _order_email(capsys) == (True, "subscriber")

    code, out, err = run(capsys, "history", "--json")
    entry = json.loads(out)["data"][0]
    assert entry["operation"] == "preference" and entry["what"] == "email on for Order shipped"
    assert entry["before"] == {"email": [False, True]}
    assert entry["after"] == {"email": [True, True]}

    code, out, err = run(capsys, "undo", entry["id"], "--yes")
    assert code == 0, err
    assert "Done: undo: email off for Order shipped" in out
    assert "no longer follows the workflow's default" in out
    assert _order_email(capsys) == (False, "subscriber")


def test_a_default_becomes_the_subscribers_choice_and_json_is_one_envelope(
    prefs_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys,
        "set-preference",
        "ada.lovelace",
        "--channel",
        "email",
        "--on",
        "--workflow",
        "Weekly digest",
        "--json",
    )
    assert code == 0, err
    body = json.loads(out)
    assert set(body) == {"data"}
    assert body["data"]["what"] == "email on for Weekly digest" and body["data"]["id"]
    assert body["data"]["preference"]["channels"]["email"] is True
    assert body["data"]["preference"]["sources"]["email"] == "subscriber"
    code, out, err = run(capsys, "set-preference", "ada.lovelace", "--channel", "sms", "--on")
    assert code == 0 and "every workflow (global)" in out
    code, out, _ = run(capsys, "preferences", "ada.lovelace", "--json")
    rows = json.loads(out)["data"]
    assert rows[0]["workflow"] is None and rows[0]["channels"]["sms"] is True
    assert [r["critical"] for r in rows] == [False, False, False, True]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--channel", "email", "--on", "--workflow", "nope"], "no workflow 'nope'"),
        (["--channel", "email", "--off", "--workflow", "security-alert"], "is critical"),
        (["--channel", "fax", "--off"], "no channel 'fax'"),
        (["--channel", "email"], "give --on or --off"),
        (["--channel", "email", "--on", "--off"], "give --on or --off"),
        (["--channel", "push", "--on", "--workflow", "order-shipped"], "sends push"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    prefs_env: Service, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    before = prefs_env.store.read().execute("SELECT * FROM preferences").fetchall()
    code, out, err = run(capsys, "set-preference", "ada.lovelace", *argv)
    assert code == 2 and out == ""
    assert words in err and "Nothing changed." in err and len(err.strip().splitlines()) == 1
    after = prefs_env.store.read().execute("SELECT * FROM preferences").fetchall()
    assert [tuple(r) for r in after] == [tuple(r) for r in before]
    code, out, _ = run(capsys, "history", "--json")
    assert json.loads(out)["data"] == []


def test_an_unknown_subscriber_and_workflow_when_reading(
    prefs_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "preferences", "nobody")
    assert code == 1 and "Subscriber 'nobody' was not found" in err
    code, _, err = run(capsys, "preferences", "ada.lovelace", "--workflow", "nope")
    assert code == 2 and "no workflow 'nope'" in err
