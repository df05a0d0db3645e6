"""`inboxdesk archive-all`: the v2 bulk archive, asked first with the number and what it
does differently, journalled, and not undoable."""

from __future__ import annotations

import io
import json

import pytest

from tests.client.conftest import run
from tests.client.test_cli import Terminal
from tests.conftest import JOE_MESSAGES, Service

EMAIL = "65f000000000000000000200"  # jane's one email message


def jane(env: Service, where: str) -> int:
    subscriber = env.row(
        "SELECT id FROM subscribers WHERE json_extract(doc, '$.subscriberId') = 'jane'"
    )[0]
    return int(
        env.row(f"SELECT COUNT(*) FROM messages WHERE subscriber_pk = ? AND ({where})", subscriber)[
            0
        ]
    )


def test_it_asks_with_the_number_and_the_differences_then_archives_every_channel(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    in_app = jane(env, "channel = 'in_app' AND archived = 0")
    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    code, out, err = run(capsys, "archive-all", "jane")
    assert code == 1 and out == "" and "Nothing changed." in err
    assert f"Archive all {in_app} in-app messages of jane" in err
    assert "every channel" in err and "first 100" in err and "new archive date" in err
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    # No terminal, no --yes: refused with exit 2 (was 1), in one line naming --yes.
    code, out, err = run(capsys, "archive-all", "jane")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert f"Archive all {in_app} in-app messages of jane" in line and "pass --yes" in line
    assert jane(env, "archived = 1") == 0
    code, out, err = run(capsys, "archive-all", "jane", "--yes", "--json")
    assert code == 0, err
    assert json.loads(out)["data"] == {"operation": "archive", "archived": in_app}
    assert jane(env, "archived = 0") == 0, "the email message too"
    assert env.row("SELECT archived FROM messages WHERE id = ?", JOE_MESSAGES[0])[0] == 0
    code, out, _ = run(capsys, "history", "--json")
    entry = json.loads(out)["data"][0]
    assert entry["operation"] == "archive-all" and entry["target"] == "jane"
    code, _, err = run(capsys, "undo", entry["id"], "--yes")
    assert code == 2 and "no unarchive-all" in err


def test_read_takes_only_the_read_messages(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    read = jane(env, "read = 1")
    unread = jane(env, "read = 0")
    code, out, err = run(capsys, "archive-all", "jane", "--read", "--yes")
    assert code == 0 and "archive all read messages of jane" in out, err
    assert jane(env, "archived = 1") == read and jane(env, "archived = 0") == unread


def test_refused_when_read_only(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "archive-all", "jane", "--yes", "--read-only")
    assert code == 2 and "Read-only" in err and jane(env, "archived = 1") == 0


class Interrupted:
    """A terminal where the user presses Ctrl-C at the question."""

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_the_first_ctrl_c_at_a_question_stops_the_command(
    env: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", Interrupted())
    for words in (("archive-all", "jane"), ("mark-all", "jane", "read")):
        code, _, _ = run(capsys, *words)
        assert code == 130, words
    assert jane(env, "archived = 1 OR read = 1") == jane(env, "read = 1")
