"""`inboxdesk history` and `inboxdesk undo` on the real service: every write is in the
journal, any entry can be taken back (across sessions), exports defuse formulas."""

from __future__ import annotations

import csv
import io
import json

import pytest

from inboxdesk.writes.report import defused
from tests.client.conftest import run
from tests.conftest import JOE_MESSAGES, MAILGUN, SENDGRID, Service, jane_message


def flags(env: Service, message_id: str) -> tuple[bool, bool]:
    read, seen = env.row("SELECT read, seen FROM messages WHERE id = ?", message_id)
    return bool(read), bool(seen)


def history(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    code, out, err = run(capsys, "history", "--json", *argv)
    assert code == 0, err
    data = json.loads(out)["data"]
    assert isinstance(data, list)
    return data


def test_every_write_is_listed_newest_first_and_filtered(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "mark-as", "jane", "read", jane_message(1))[0] == 0
    assert run(capsys, "mark-as", "joe", "seen", JOE_MESSAGES[0])[0] == 0
    assert run(capsys, "set-primary", MAILGUN, "--yes")[0] == 0
    entries = history(capsys)
    assert [e["operation"] for e in entries] == ["set-primary", "mark", "mark"]
    mark = entries[2]
    assert mark["target"] == "jane" and mark["ids"] == [jane_message(1)]
    assert mark["before"] == {jane_message(1): [False, False]}, "read from the list first"
    assert mark["after"] == {jane_message(1): [True, True]}
    assert mark["outcome"] == "sent" and mark["queued"] is False and mark["idempotencyKey"]
    # Filed under the key's environment, with the status the service answered.
    with env.http() as http:
        own = http.get("/v1/environments/me").json()["data"]["_id"]
    assert {e["environment"] for e in entries} == {own}
    assert mark["status"] == 201 and entries[0]["status"] == 200
    assert entries[0]["before"] == {"primary": [SENDGRID]}
    assert [e["target"] for e in history(capsys, "--subscriber", "joe")] == ["joe"]
    assert [e["operation"] for e in history(capsys, "--operation", "set-primary")] == [
        "set-primary"
    ]
    assert history(capsys, "--since", "1h") == entries
    code, out, _ = run(capsys, "history")
    assert code == 0 and "make Mailgun primary" in out and "mark 1 message read" in out


def test_any_entry_is_undone_as_a_new_write_even_in_another_session(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pipeline of the README: ids from `messages`, marked from standard input.
    code, out, _ = run(capsys, "messages", "jane", "--unread", "--ids", "--limit", "3")
    ids = out.split()
    assert code == 0 and len(ids) == 3
    before = [flags(env, i) for i in ids]
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, _, err = run(capsys, "mark-as", "jane", "read", "-")
    assert code == 0 and "unknown" not in err
    read = history(capsys)[0]
    # The state before was read from the subscriber's list when the mark was made.
    assert read["before"] == {i: list(f) for i, f in zip(ids, before, strict=True)}
    code, _, err = run(capsys, "undo", str(read["id"])[:3])
    assert code == 2 and "at least 4 letters" in err
    # More than one message: asked first (refused without a terminal unless --yes).
    code, _, err = run(capsys, "undo", str(read["id"])[:4])
    assert code == 2 and "changes 3 messages" in err and "--yes" in err
    assert [flags(env, i) for i in ids] == [(True, True)] * 3, "nothing changed"
    # Each command is a session of its own: the undo reads the journal.
    code, out, err = run(capsys, "undo", str(read["id"])[:8], "--yes")
    assert code == 0, err
    assert "undo on 3 messages" in out
    assert [flags(env, i) for i in ids] == before
    assert history(capsys)[0]["undoes"] == read["id"]


def test_a_mark_says_when_the_state_before_is_unknown(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    # Joe's message is not in Jane's list: its state before cannot be read.
    code, _, err = run(capsys, "mark-as", "jane", "read", jane_message(1), JOE_MESSAGES[0])
    assert "State before unknown for 1 message" in err and JOE_MESSAGES[0] in err
    assert code == 3  # Joe's message is not Jane's: not updated
    code, _, err = run(capsys, "undo", str(history(capsys)[0]["id"]), "--yes")
    assert code == 2 and "the state before it is unknown" in err


def test_undo_asks_when_later_writes_touched_the_same_messages(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    for state in ("read", "unread", "unseen"):
        run(capsys, "mark-as", "jane", state, jane_message(7))
    older = history(capsys)[1]  # unread, from (read, seen)
    code, _, err = run(capsys, "undo", str(older["id"]))
    assert code == 2 and "1 later write touched the same messages" in err and "--yes" in err
    assert flags(env, jane_message(7)) == (False, False), "nothing changed"
    assert run(capsys, "undo", str(older["id"]), "--yes")[0] == 0
    assert flags(env, jane_message(7)) == (True, True)


def test_a_primary_switch_is_undone_by_switching_back(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "set-primary", MAILGUN, "--yes")
    switch = history(capsys)[0]
    code, _, err = run(capsys, "undo", str(switch["id"]))
    assert code == 2 and "cannot restore cleared conditions" in err
    code, out, err = run(capsys, "undo", str(switch["id"]), "--yes")
    assert code == 0, err
    assert "make SendGrid primary again in Staging" in out, "the integration and where"
    assert env.row("SELECT is_primary FROM integrations WHERE id = ?", SENDGRID)[0] == 1
    assert env.row("SELECT is_primary FROM integrations WHERE id = ?", MAILGUN)[0] == 0


def test_a_switch_in_another_environment_is_undone_only_when_named(
    org_wide_env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    """On an older deployment, the switch back acts outside the key's environment, so it
    is confirmed as the switch was: a script names the environment."""
    env = org_wide_env
    from tests.conftest import OTHER_SMTP, POSTMARK

    code, _, err = run(capsys, "set-primary", OTHER_SMTP, "--environment", "Other", "--yes")
    assert code == 0, err
    switch = history(capsys)[0]
    with env.http() as http:
        listed = http.get("/v1/environments").json()["data"]
    assert switch["environment"] == next(e["_id"] for e in listed if e["name"] == "Other")
    code, _, err = run(capsys, "undo", str(switch["id"]), "--yes")
    assert code == 2 and "--environment 'Other'" in err
    code, _, err = run(capsys, "undo", str(switch["id"]), "--yes", "--environment", "Staging")
    assert code == 2 and "not in Staging" in err
    assert env.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)[0] == 0
    code, _, err = run(capsys, "undo", str(switch["id"]), "--yes", "--environment", "other")
    assert code == 0, err
    assert env.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)[0] == 1


def test_refusals_and_unknown_ids(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    # Unread is not listed beforehand (one filter cannot select what it changes).
    run(capsys, "mark-all", "jane", "unread", "--yes")
    code, _, err = run(capsys, "undo", str(history(capsys)[0]["id"]))
    assert code == 2 and "cannot be undone: the state before it is unknown" in err
    code, _, err = run(capsys, "undo", "zzzz")
    assert code == 2 and "no write has an id starting 'zzzz'" in err


def test_export_csv_defuses_formulas(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "mark-as", "jane", "read", jane_message(1))
    code, out, _ = run(capsys, "history", "--export", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["operation"] == "mark" and rows[0]["target"] == "jane"
    assert [defused(v) for v in ("=1+1", "+1", "-1", "@x", "ok")] == [
        "'=1+1",
        "'+1",
        "'-1",
        "'@x",
        "ok",
    ]


def test_retention_keeps_the_newest_writes(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in (1, 2, 3):
        run(capsys, "mark-as", "jane", "read", jane_message(n))
    monkeypatch.setenv("INBOXDESK_HISTORY_ENTRIES", "2")
    assert [e["ids"] for e in history(capsys)] == [[jane_message(3)], [jane_message(2)]]


def test_a_journal_of_a_newer_version_is_said_and_the_write_still_made(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    from inboxdesk.paths import writes_path

    run(capsys, "mark-as", "jane", "read", jane_message(1))
    with sqlite3.connect(writes_path()) as db:
        db.execute("UPDATE meta SET value = '99' WHERE name = 'version'")
    code, _, err = run(capsys, "mark-as", "jane", "unread", jane_message(1))
    assert code == 0 and "written by a newer inboxdesk" in err
    assert flags(env, jane_message(1)) == (False, True)
    code, _, err = run(capsys, "history")
    assert code != 0 and "newer inboxdesk" in err and len(err.strip().splitlines()) == 1


def test_mark_all_read_lists_the_unread_first_so_undo_restores_them(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "messages", "jane", "--unread", "--all-states", "--all", "--ids")
    unread = out.split()
    assert code == 0 and unread
    before = {i: flags(env, i) for i in unread}
    code, out, err = run(capsys, "mark-all", "jane", "read", "--yes")
    assert code == 0, err
    entry = history(capsys)[0]
    assert entry["operation"] == "mark-all" and set(entry["before"]) == set(unread)
    assert all(flags(env, i) == (True, True) for i in unread)
    code, out, err = run(capsys, "undo", str(entry["id"]))
    assert code == 2 and f"changes {len(unread)} messages" in err, "asked first"
    code, out, err = run(capsys, "undo", str(entry["id"]), "--yes")
    assert code == 0, err
    assert {i: flags(env, i) for i in unread} == before


def test_a_failed_write_is_refused_at_once(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "mark-as", "jane", "read", jane_message(1))
    code, _, _ = run(capsys, "mark-as", "ghost", "read", jane_message(1))
    assert code == 1
    run(capsys, "mark-as", "jane", "unread", jane_message(1))
    failed = history(capsys)[1]
    assert failed["outcome"] == "failed"
    for extra in ((), ("--yes",)):
        code, out, err = run(capsys, "undo", str(failed["id"]), *extra)
        assert code == 2 and out == ""
        assert "that write failed (the service answered 4" in err and "changed nothing" in err
        assert "later write" not in err


def test_history_names_the_environment_or_shows_its_id_when_refused(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys, "mark-as", "jane", "read", jane_message(1))
    with env.http() as http:
        me = http.get("/v1/environments/me").json()["data"]
    code, out, err = run(capsys, "history")
    assert code == 0, err
    row = out.splitlines()[-1]
    assert me["name"] in row and me["_id"] not in row
    # A key the service refuses: the journal is local, the id stands in for the name.
    monkeypatch.setenv("NOVU_SECRET_KEY", "refused-key-0123456789")
    code, out, err = run(capsys, "history")
    assert code == 0 and err == ""
    assert me["_id"] in out.splitlines()[-1]


def test_history_names_integrations_and_files_a_cli_undo_under_its_environment(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "set-primary", MAILGUN, "--yes")[0] == 0
    assert run(capsys, "mark-all", "jane", "read", "--yes")[0] == 0
    mark_all = history(capsys)[0]
    code, _, err = run(capsys, "undo", str(mark_all["id"]), "--yes")
    assert code == 0, err
    undone = history(capsys)[0]
    assert undone["undoes"] == mark_all["id"]
    assert undone["environment"] and undone["environment"] == mark_all["environment"]
    code, out, _ = run(capsys, "history")
    switch = next(line for line in out.splitlines() if "set-primary" in line)
    assert "Mailgun" in switch and MAILGUN not in switch
    assert all(line.split()[3] != "?" for line in out.splitlines()[1:]), out
