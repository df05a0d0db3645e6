"""What the workers of one test run share: a folder of the run's own, and files in it
built once, by the first worker that asks (test scaffolding, kept out of src/)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder that every worker of this run shares (the run's own under xdist; the
    process's own otherwise, so that no later run finds an older copy)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(path: Path, build: Callable[[], bytes]) -> bytes:
    """The bytes at `path`: built by the first worker of the run that asks, under a file
    lock, and read by the others. Written whole or not at all: a worker that fails while
    writing leaves no half file."""
    with FileLock(f"{path}.lock"):
        if path.exists():
            return path.read_bytes()
        made = build()
        writing = path.with_suffix(".writing")
        writing.write_bytes(made)
        writing.replace(path)
        return made
