"""`serve` stopped by SIGTERM (timeout, systemd, docker) or Ctrl-C leaves its database
whole and private: the log merged into the file, the lock gone, every file mode 0600.

The process is what is tested here, so it is one; it serves the example fixture (what
`serve --demo` seeds, and that it keeps preferences per context, is
tests/cli/test_serve.py's to prove, in that test's process)."""

from __future__ import annotations

import shutil
import signal
import sqlite3
import stat
from pathlib import Path

import httpx
import pytest

from tests.cli.test_serve import started
from tests.conftest import EXAMPLE


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_service_merges_its_log_and_lets_go_of_its_lock(
    tmp_path: Path, signum: signal.Signals
) -> None:
    db = tmp_path / "local.db"
    service, out = started(
        "--db", str(db), "--load", str(EXAMPLE), "--port", "0", last="save a key"
    )
    url = out.split("local service on ", 1)[1].split()[0]
    key = (tmp_path / "local-keys" / "staging.key").read_text().strip()
    try:
        for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
        headers = {"Authorization": f"ApiKey {key}"}
        with httpx.Client(base_url=url, headers=headers) as http:
            subscriber = http.get("/v1/subscribers", params={"limit": 1}).json()["data"][0]
            marked = http.post(
                f"/v1/subscribers/{subscriber['subscriberId']}/messages/mark-all",
                json={"markAs": "read"},
            )
            assert marked.status_code < 300, marked.text
    finally:
        service.send_signal(signum)
        _, err = service.communicate(timeout=30)
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
            (subscriber["subscriberId"],),
        ).fetchone()
    assert unread == 0
