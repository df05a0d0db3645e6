"""A browser demo killed with SIGKILL cleans nothing up: its scratch folder, which holds
the apps' profile with every environment's key, is removed when the next demo starts
(its process is gone); a running demo's folder is left alone.

The killed demo is the browser demo's own start (`demo_service` and the apps' profile
`demo_environment` writes), in a process of its own, killed before it serves the page:
what `demo --web --db PATH` has on disk while it serves. The process is a fork of this
one: a fresh interpreter spent a CPU-second on imports this one has made already (0.17
CPU-s for the fork's demo).
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import traceback
from pathlib import Path

import pytest

from inboxdesk.cli.demo_service import demo_service
from inboxdesk.cli.web import demo_environment
from inboxdesk.config import Settings
from tests import waiting
from tests.conftest import EXAMPLE
from tests.shared_service import SharedService


def killed_demo(db: Path) -> int:
    """The wait status of a demo started in a process of its own that kills itself with
    SIGKILL as it would serve."""
    pid = os.fork()
    if pid == 0:  # the child: never back into the test run
        try:
            with demo_service(db, [EXAMPLE]) as demo:
                demo_environment(Settings(), demo, demo.scratch / "app.toml")
                os.kill(os.getpid(), signal.SIGKILL)
        except BaseException:
            traceback.print_exc(file=sys.__stderr__)
        finally:
            os._exit(1)
    ended: list[int] = []

    def reaped() -> bool:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            ended.append(status)
        return bool(done)

    try:
        waiting.wait_for("the killed demo", reaped, 60)
    finally:
        if not ended:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    return ended[0]


def test_a_killed_demo_s_keys_go_when_the_next_demo_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_thread: SharedService
) -> None:
    # The run's service (started by then in a run of the suite): the service's modules
    # imported and its app built once here, the child's demo does neither again.
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # the demos' scratch folders
    status = killed_demo(tmp_path / "kept.db")
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
    (scratch,) = temp.glob("inboxdesk-demo-*")
    assert (scratch / "app.toml").is_file(), "SIGKILL left the apps' profile, with the keys"
    with demo_service(None, [EXAMPLE]) as demo:
        assert not scratch.exists()
        assert list(temp.glob("inboxdesk-demo-*")) == [demo.scratch], "its own is kept"
        assert (demo.scratch / "owner.pid").read_text() == str(os.getpid())
