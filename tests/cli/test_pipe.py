"""The command line piped into a reader that stops early (`| head -1`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ServiceFactory
from tests.hostile import HOSTILE_KEY, SUBSCRIBER, hostile_fixture


def test_a_closed_pipe_ends_quietly(make_service: ServiceFactory, tmp_path: Path) -> None:
    # A 1 MB payload: far more than a pipe buffers, so the writer meets the closed pipe.
    service = make_service(fixture=hostile_fixture())
    config = str(tmp_path / "config.toml")
    env = {**os.environ, "NOVU_SECRET_KEY": HOSTILE_KEY, "INBOXDESK_CONFIG": config}
    writer = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "inboxdesk",
            "messages",
            SUBSCRIBER,
            "--json",
            "--limit",
            "100",
            "--base-url",
            service.url,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert writer.stdout is not None
    first = writer.stdout.readline()
    writer.stdout.close()  # what `head -1` does after its line
    _, err = writer.communicate(timeout=60)
    assert first.strip()
    assert b"Traceback" not in err and b"BrokenPipeError" not in err
    assert writer.returncode == 141, "as the README says: a closed pipe is 128 + SIGPIPE"
