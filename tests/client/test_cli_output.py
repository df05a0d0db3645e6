"""The command line's output for scripts: one JSON envelope, ids only, and tables that
say what they left out."""

from __future__ import annotations

import io
import json
import os
import pty
import signal
import sys
import threading
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests.client.conftest import run
from tests.command_line import as_from_a_terminal
from tests.conftest import STAGING_KEY, Service, jane_message


def test_every_json_output_is_one_envelope(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (
        ["environments"],
        ["integrations"],
        ["subscribers"],
        ["counts", "jane"],
        ["messages", "jane"],
        ["mark-all", "jane", "seen", "--yes"],
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


def test_mark_all_asks_on_a_real_terminal(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard input a pseudo-terminal: it asks, and reads the answer typed there
    (typed ahead: the terminal keeps it). What each answer and --yes do on a terminal:
    test_mark_all_confirms_on_a_terminal_unless_yes; a script without a terminal,
    refused without --yes (decision 113): test_cli.py's test_mark_all (all in-process,
    on the same rule, `prompts.go_ahead`)."""
    master, slave = pty.openpty()
    try:
        os.write(master, b"y\n")
        with open(slave, encoding="utf-8", closefd=False) as terminal:
            monkeypatch.setattr("sys.stdin", terminal)
            code, out, err = run(capsys, "mark-all", "jane", "read")
    finally:
        os.close(master)
        os.close(slave)
    assert code == 0, err
    assert "(8 are not read now)? [y/N]" in err
    assert out == "Marked 8 messages read.\n"


def test_ctrl_c_at_a_question_stops_at_once_without_waiting_for_enter(
    env: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked inside the command's event loop, Ctrl-C used to wait for Enter (the
    loop's own SIGINT handler), which it then swallowed. The question is asked on a
    pseudo-terminal nobody types on; Ctrl-C comes to the command's thread once the
    question is on standard error (a real pipe, read on another thread)."""
    master, slave = pty.openpty()
    read, write = os.pipe()
    said: list[str] = []
    ended = threading.Event()
    entered: list[bool] = []

    def watch() -> None:
        with os.fdopen(read, encoding="utf-8") as errors:
            asked = False
            while chunk := errors.read(1):
                said.append(chunk)
                if not asked and "[y/N]" in "".join(said):
                    asked = True
                    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
                    if not ended.wait(30):  # a bound on a hang: Enter, which it waited for
                        entered.append(True)
                        os.write(master, b"\n")

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        with (
            as_from_a_terminal(),
            open(slave, encoding="utf-8", closefd=False) as terminal,
            os.fdopen(write, "w", encoding="utf-8") as errors,
        ):
            monkeypatch.setattr("sys.stdin", terminal)
            saved, sys.stderr = sys.stderr, errors
            try:
                watcher.start()
                code = main(["mark-all", "jane", "read"])
            finally:
                ended.set()
                sys.stderr = saved
        watcher.join(timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert not entered, "Ctrl-C waited for Enter"
    assert code == 130
    assert "".join(said).endswith("\n"), "the shell's prompt starts a line"


def test_mark_all_unread_and_unseen_ask_with_the_number_they_change(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, "messages", "jane", "--all-states", "--all", "--json")
    listed = json.loads(out)["data"]
    seen = sum(1 for m in listed if m["seen"])
    read = sum(1 for m in listed if m["read"])
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, _, err = run(capsys, "mark-all", "jane", "unseen")
    assert code == 1 and f"jane unseen ({seen} are seen now)?" in err
    assert "Production sends no webhook for unseen." in err
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, _, err = run(capsys, "mark-all", "jane", "unread")
    assert code == 1 and f"jane unread ({read} are read now)?" in err


def test_ctrl_c_at_a_hidden_prompt_ends_the_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """getpass echoes ^C where the cursor is; the shell's prompt must start a line."""

    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr("sys.stdin", Terminal(""))
    monkeypatch.setattr("getpass.getpass", interrupted)
    code, _, err = run(capsys, "config", "init", "--region", "us")
    assert code == 130 and err.endswith("\n")


def test_read_and_seen_cells_say_so_rather_than_stay_blank(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "mark-as", "jane", "read", jane_message(1))
    code, out, _ = run(capsys, "messages", "jane", "--all-states", "--limit", "100")
    assert code == 0
    header, *rows = out.splitlines()
    read_at, seen_at = header.index("READ"), header.index("SEEN")
    assert {row[read_at:].split()[0] for row in rows} == {"read", "unread"}
    assert {row[seen_at:].split()[0] for row in rows} <= {"seen", "unseen"}
