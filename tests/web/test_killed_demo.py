"""A browser demo killed with SIGKILL cleans nothing up: its scratch folder, which holds
the apps' profile with every environment's key, is removed when the next demo starts
(its process is gone); a running demo's folder is left alone.

The killed demo is the browser demo's own start (`demo_service` and the apps' profile
`demo_environment` writes), in a process of its own, killed before it serves the page:
what `demo --web --db PATH` has on disk while it serves.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from inboxdesk.cli.demo_service import demo_service
from tests.conftest import EXAMPLE

KILLED = """
import os, signal, sys
from pathlib import Path
from inboxdesk.cli.demo_service import demo_service
from inboxdesk.cli.web import demo_environment
from inboxdesk.config import Settings
with demo_service(Path(sys.argv[1]), [Path(sys.argv[2])]) as demo:
    demo_environment(Settings(), demo, demo.scratch / "app.toml")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_demo_s_keys_go_when_the_next_demo_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    environment = {**os.environ, "TMPDIR": str(temp)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED, str(tmp_path / "kept.db"), str(EXAMPLE)],
        env=environment,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    (scratch,) = temp.glob("inboxdesk-demo-*")
    assert (scratch / "app.toml").is_file(), "SIGKILL left the apps' profile, with the keys"
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with demo_service(None, [EXAMPLE]) as demo:
        assert not scratch.exists()
        assert list(temp.glob("inboxdesk-demo-*")) == [demo.scratch], "its own is kept"
        assert (demo.scratch / "owner.pid").read_text() == str(os.getpid())
