"""Every command over hostile text from the real service: nothing reaches the terminal as code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests.conftest import Service, ServiceFactory
from tests.hostile import ATTACKS, HOSTILE_KEY, OTHER_SUBSCRIBER, SUBSCRIBER, hostile_fixture

# ESC, every C1 control, BEL, NUL and the right-to-left override: none may be written.
FORBIDDEN = re.compile("[\x00\x07\x1b\x80-\x9f\u202e]")


@pytest.fixture
def hostile(
    make_service: ServiceFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Service:
    service = make_service(fixture=hostile_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", HOSTILE_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    found = FORBIDDEN.search(out + err)
    assert found is None, f"{argv}: {found.group()!r} reached the terminal" if found else ""
    return code, out, err


def test_every_command_writes_no_escape_and_shows_the_text(
    hostile: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "integrations")
    assert code == 0 and ATTACKS["click"] in out, "markup shown literally"
    code, out, _ = run(capsys, "integrations", "--json")
    items = json.loads(out)["data"]
    assert code == 0 and "whsec_" not in out, "the signing key is masked"
    assert any(i["name"] == ATTACKS["click"] for i in items)
    assert any(ATTACKS["cjk_emoji"] in i["name"] for i in items), "JSON keeps the text"
    target = next(i["_id"] for i in items if not i["primary"])
    code, out, _ = run(capsys, "set-primary", "--yes", target)
    assert code == 0 and ATTACKS["click"] in out
    code, out, _ = run(capsys, "set-primary", target, "--json")
    assert code == 0 and json.loads(out)["data"]["primary"] is True

    code, out, _ = run(capsys, "subscribers")
    assert code == 0 and SUBSCRIBER in out and OTHER_SUBSCRIBER in out
    assert "␛]0;pwned-title\\x07" in out, "an escape sequence shown as visible text"
    code, out, _ = run(capsys, "subscribers", "--json")
    assert code == 0 and {s["subscriberId"] for s in json.loads(out)["data"]} >= {SUBSCRIBER}
    code, out, _ = run(capsys, "subscribers", "--name", "first")
    assert code == 0 and SUBSCRIBER in out

    code, out, err = run(capsys, "messages", SUBSCRIBER, "--all")
    assert code == 0 and "[@click=app.quit]" in out and "unread" in err
    code, out, _ = run(capsys, "messages", SUBSCRIBER, "--all", "--json")
    messages = json.loads(out)["data"]
    assert code == 0 and any(ATTACKS["style"] in m.get("body", "") for m in messages)
    assert "\\u202e" in out and "\\u009b" in out, "C1 and bidi escaped in JSON"
    code, out, _ = run(capsys, "counts", SUBSCRIBER)
    assert code == 0
    ids = [m["id"] for m in messages]
    code, out, _ = run(capsys, "mark-as", SUBSCRIBER, "read", *ids)
    # The state before is read first, so those already read are told apart.
    assert code == 0 and out.startswith("Marked ") and "messages read" in out
    code, out, _ = run(capsys, "mark-as", SUBSCRIBER, "unseen", *ids, "--json")
    assert code == 0 and len(json.loads(out)["data"]) == len(ids)
    code, out, _ = run(capsys, "mark-all", SUBSCRIBER, "unread", "--yes")
    assert code == 0
    code, out, _ = run(capsys, "subscribers", "--subscriber-id", OTHER_SUBSCRIBER, "--json")
    assert code == 0 and [s["subscriberId"] for s in json.loads(out)["data"]] == [OTHER_SUBSCRIBER]


def test_errors_echoing_hostile_ids_write_no_escape(
    hostile: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    ghost = "ghost" + ATTACKS["csi_clear"] + ATTACKS["osc_title"] + ATTACKS["bidi"]
    for argv in (
        ["messages", ghost],
        ["counts", ghost],
        ["mark-all", ghost, "read", "--yes"],
        ["mark-as", SUBSCRIBER, "read", "65f0000000000000000fffff", ghost],
        ["set-primary", "--yes", ghost],
    ):
        code, _, err = run(capsys, *argv)
        assert code in (1, 3) and err, argv


def test_a_hostile_subscriber_id_reaches_no_export_as_a_formula_or_an_escape(
    hostile: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import io

    from inboxdesk.writes.report import FORMULA_STARTS
    from tests.hostile import FORMULA_SUBSCRIBER, JOURNAL_ATTACKS

    code, out, _ = run(capsys, "messages", FORMULA_SUBSCRIBER, "--all", "--json")
    ids = [m["id"] for m in json.loads(out)["data"]]
    assert code == 0 and len(ids) == 8
    assert run(capsys, "mark-as", FORMULA_SUBSCRIBER, "read", *ids)[0] == 0
    assert run(capsys, "mark-as", FORMULA_SUBSCRIBER, "unread", ATTACKS["osc_title"])[0] in (1, 3)
    assert run(capsys, "mark-all", FORMULA_SUBSCRIBER, "seen", "--yes")[0] == 0
    code, out, _ = run(capsys, "history", "--export", "csv")
    assert code == 0 and "\r" not in out
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 4 and all(len(r) == len(rows[0]) for r in rows)
    assert all(not cell.startswith(FORMULA_STARTS) for row in rows for cell in row)
    assert {row[rows[0].index("target")] for row in rows[1:]} == {"'\\x0d=3+4"}
    assert set(JOURNAL_ATTACKS) >= {"cr_formula", "osc_title"}


def test_the_subscriber_commands_and_send_write_no_escape_and_no_secret(
    make_service: ServiceFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import io

    fixture = hostile_fixture()
    fixture["environments"][0]["integrations"] += [
        {"name": p, "identifier": p, "providerId": p, "channel": channel}
        for p, channel in (("fcm", "push"), ("slack", "chat"))
    ]
    service = make_service(fixture=fixture)
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", HOSTILE_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    name = ATTACKS["osc_title"] + ATTACKS["csi_clear"] + ATTACKS["bidi"]
    code, out, err = run(capsys, "set-subscriber", SUBSCRIBER, "--first-name", name)
    assert code == 0, err
    code, out, err = run(capsys, "subscriber", SUBSCRIBER)
    assert code == 0 and "pwned-title" in out, err
    code, out, err = run(capsys, "subscriber", SUBSCRIBER, "--json")
    assert code == 0 and json.loads(out)["data"]["firstName"] == name
    token = "device-token-SECRET0123456789abcdef\x1b[2J"
    monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
    code, out, err = run(capsys, "credentials", SUBSCRIBER, "--provider", "fcm", "--add-token", "-")
    assert code == 0, err
    hook = "https://hooks.slack.com/services/T000/B000/SECRETxyz0123456789"
    monkeypatch.setattr("sys.stdin", io.StringIO(hook + "\n"))
    code, out, err = run(
        capsys, "credentials", SUBSCRIBER, "--provider", "slack", "--webhook-url", "-"
    )
    assert code == 0, err
    for argv in (["subscriber", SUBSCRIBER], ["subscriber", SUBSCRIBER, "--json"], ["history"]):
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        assert token not in out + err and "SECRETxyz0123456789" not in out + err, argv
    ghost = "ghost" + ATTACKS["csi_clear"] + ATTACKS["osc_title"] + ATTACKS["bidi"]
    for argv in (
        ["subscriber", ghost],
        ["set-subscriber", ghost, "--first-name", "x"],
        ["send", ghost, SUBSCRIBER, "--yes", "--payload", json.dumps({"t": ghost})],
        ["send", "order-shipped", ghost, "--yes", "--payload", json.dumps({"t": ghost})],
    ):
        code, _, err = run(capsys, *argv)
        assert err, argv
