"""The journal under attack: hostile text in its exports, damaged rows, a closed pipe."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import re
import sqlite3
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from inboxdesk.cli import main
from inboxdesk.paths import writes_path
from inboxdesk.writes import Kind, Step, Where, Write, WriteStore
from inboxdesk.writes.report import FORMULA_STARTS
from tests.client.conftest import run
from tests.conftest import Service, jane_message
from tests.hostile import ATTACKS, JOURNAL_ATTACKS

# Any control character but LF (which a quoted field may hold), and every C1 one.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]")


BROKEN = [
    "not-json",
    "lacks-keys",
    "bad-date",
    "naive-date",
    "list-detail",
    "blob-detail",
    "odd-after",
]


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Where:
    """The command line pointed at a service nobody runs: the journal is local."""
    url = "http://127.0.0.1:9"
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    monkeypatch.setenv("NOVU_SECRET_KEY", "staging-key-0123456789abcdef")
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return Where.of(None, url)


def hostile_entries(where: Where, count: int = 1) -> None:
    store = WriteStore(writes_path())
    for n in range(count):
        for name, attack in JOURNAL_ATTACKS.items():
            write = Write(Kind.MARK, attack, (Step("read", (attack, f"{name}-{n}")),))
            detail = {"error": attack, "errorId": attack, "status": 500, "notUpdated": [attack]}
            store.record(where, write, "failed", detail)
    store.close()


def test_every_export_cell_is_safe_text_and_no_formula(
    offline: Where, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile_entries(offline)
    code, out, err = run(capsys, "history", "--export", "csv")
    assert code == 0, err
    assert CONTROL.search(out) is None, "no control or escape character in any cell"
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 1 + len(JOURNAL_ATTACKS), "no field split a row"
    assert all(len(row) == len(rows[0]) for row in rows)
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS), f"{cell[:20]!r} would run"
    targets = {row[rows[0].index("target")] for row in rows[1:]}
    assert "'\\x0d=3+4" in targets and "'    =HYPERLINK(1)" in targets
    assert "␛]0;pwned-title\\x07" in targets, "an escape shown as visible text"
    code, out, _ = run(capsys, "history", "--export", "json")
    assert code == 0 and CONTROL.search(out) is None
    assert {e["target"] for e in json.loads(out)["data"]} >= {ATTACKS["osc_title"]}


def damage(path: Path, host: str = "127.0.0.1:9") -> None:
    """One row for each way a row can be damaged (its id names it), and a format number
    that is not a number."""
    good = Write(Kind.MARK, "jane", (Step("read", ("m1",)),)).to_json()
    now = datetime.now(UTC).isoformat()
    broken = {  # in the order of BROKEN
        "not-json": ("{not json", "{}"),
        "lacks-keys": (json.dumps({"kind": "mark"}), "{}"),
        "bad-date": (json.dumps({**good, "madeAt": "last tuesday"}), "{}"),
        "naive-date": (json.dumps({**good, "madeAt": "2026-11-20T10:00:00"}), "{}"),
        "list-detail": (json.dumps(good), "[1, 2]"),
        "blob-detail": (json.dumps(good), b"\x00\xff"),
        "odd-after": (json.dumps(good), json.dumps({"after": {"m1": "yes"}})),
    }
    db = sqlite3.connect(path)
    for name, (body, detail) in broken.items():
        db.execute(
            "INSERT INTO journal (id, profile, host, environment, kind, target, made_at, at,"
            " outcome, body, detail) VALUES (?, '', ?, '', 'mark', 'jane', ?, ?, 'sent', ?, ?)",
            (name, host, now, now, body, detail),
        )
    db.execute("UPDATE meta SET value = 'three' WHERE name = 'version'")
    db.commit()
    db.close()


def test_a_damaged_row_costs_that_row_alone(
    offline: Where, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile_entries(offline)
    damage(writes_path())
    for n, argv in enumerate((["history"], ["history", "--export", "csv"], ["history", "--json"])):
        code, out, err = run(capsys, *argv)
        assert code == 0, f"{argv}: {err}"
        assert "=3+4" in out, f"{argv}: the good rows are listed"
        lines = [line for line in err.splitlines() if "skipped" in line]
        # The format number is read as this format's, and written so, the first time.
        assert len(lines) == (8 if n == 0 else 7), f"{argv}: one line for each: {err}"
        assert all(f"journal entry {name}" in err for name in BROKEN), argv
        assert ("format number 'three'" in err) == (n == 0)


def test_mark_as_makes_its_write_past_a_damaged_journal(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    WriteStore(writes_path()).close()
    damage(writes_path(), Where.of(None, env.url).host)
    code, out, err = run(capsys, "mark-as", "jane", "read", jane_message(1))
    assert code == 0, err
    assert "Marked 1 message read" in out and "skipped" in err
    read, seen = env.row("SELECT read, seen FROM messages WHERE id = ?", jane_message(1))
    assert (read, seen) == (1, 1)


def test_a_closed_pipe_after_an_export_exits_141(
    offline: Where, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run in this process, its standard output a real pipe whose reader stops after the
    first line, as `| head -1` does (that the interpreter then exits quietly, with no
    final flush to the closed pipe, tests/cli/test_pipe.py proves of a process)."""
    read, write = os.pipe()
    fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)  # a page: the least a pipe holds
    hostile_entries(offline, count=20)  # far more than the pipe and the writer buffer
    first: list[bytes] = []

    def head() -> None:
        with os.fdopen(read, "rb") as reader:
            first.append(reader.readline())  # then its end closes, as head's does

    reader = threading.Thread(target=head, daemon=True)
    reader.start()
    saved = sys.stdout
    with os.fdopen(write, "w", encoding="utf-8") as writer:
        sys.stdout = writer
        try:
            code = main(["history", "--export", "csv"])
        finally:
            sys.stdout = saved
    reader.join(timeout=60)
    err = capsys.readouterr().err
    assert first[0].startswith(b"id,") and "Traceback" not in err
    assert code == 141
