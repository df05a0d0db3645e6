"""`inboxdesk serve` refuses bad arguments in one line, before touching anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inboxdesk", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_database_in_a_missing_directory_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such"
    result = serve("--db", str(missing / "local.db"), "--demo", "--port", "0")
    assert result.returncode == 2
    assert f"no directory {missing}" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "no").exists()


def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    result = serve("--db", str(tmp_path / "local.db"), "--port", "70000")
    assert result.returncode == 2
    assert "a port is 0 to 65535, not 70000" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "local.db").exists()
