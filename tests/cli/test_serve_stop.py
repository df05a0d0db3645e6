"""`serve` stopped by SIGTERM (timeout, systemd, docker) or Ctrl-C leaves its database
whole and private: the log merged into the file, the lock gone, every file mode 0600.

It serves the example fixture (what `serve --demo` seeds, and that it keeps preferences
per context, is tests/cli/test_serve.py's to prove). Both signals are sent to this
process, where the command runs on the main thread and takes the signal over as it does
in its own; Ctrl-C as a terminal gives it (a test run started in the background ignores
SIGINT: tests/command_line.py as_from_a_terminal)."""

from __future__ import annotations

import contextlib
import shutil
import signal
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_serve import serving
from tests.client.faults import loopback_client
from tests.command_line import as_from_a_terminal
from tests.conftest import EXAMPLE


def write_while_served(db: Path, url: str, key: str) -> str:
    """The files private while it serves; a write; the subscriber written to."""
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    headers = {"Authorization": f"ApiKey {key}"}
    with loopback_client(base_url=url, headers=headers) as http:
        subscriber: dict[str, Any] = http.get("/v1/subscribers", params={"limit": 1}).json()[
            "data"
        ][0]
        marked = http.post(
            f"/v1/subscribers/{subscriber['subscriberId']}/messages/mark-all",
            json={"markAs": "read"},
        )
        assert marked.status_code < 300, marked.text
    return str(subscriber["subscriberId"])


def left_whole(db: Path, tmp_path: Path, subscriber: str, err: str) -> None:
    assert "Traceback" not in err
    assert not Path(f"{db}.lock").exists(), "the lock file is removed"
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the log is merged"
    # A copy of the database file alone holds the write.
    copy = tmp_path / "copy.db"
    shutil.copy(db, copy)
    with sqlite3.connect(copy) as read:
        (unread,) = read.execute(
            "SELECT count(*) FROM messages WHERE read = 0 AND channel = 'in_app' AND"
            " subscriber_pk = (SELECT id FROM subscribers WHERE subscriber_id = ?)",
            (subscriber,),
        ).fetchone()
    assert unread == 0


@pytest.mark.parametrize(
    ("stop_with", "exit_code"),
    [(signal.SIGTERM, 0), (signal.SIGINT, 130)],  # 130: as a shell reports Ctrl-C
    ids=["sigterm", "ctrl-c"],
)
def test_a_stop_merges_its_log_and_lets_go_of_its_lock(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    stop_with: signal.Signals,
    exit_code: int,
) -> None:
    db = tmp_path / "local.db"
    written: list[str] = []

    def write(url: str, banner: str) -> None:
        key = (tmp_path / "local-keys" / "staging.key").read_text().strip()
        written.append(write_while_served(db, url, key))

    # Ctrl-C comes from a terminal, to the command's own thread.
    sent_by = as_from_a_terminal() if stop_with == signal.SIGINT else contextlib.nullcontext()
    with sent_by:
        code, _, err = serving(
            capsys, "--db", str(db), "--load", str(EXAMPLE), during=write, stop_with=stop_with
        )
    assert code == exit_code, err
    left_whole(db, tmp_path, written[0], err)
