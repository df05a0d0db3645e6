"""Each fixture is loaded once per test process, into a template database; a test's
store is a copy of it (test scaffolding, kept out of src/).

Loading the demo's fixture takes seconds and a dozen tests start from it; a copy of the
loaded file takes milliseconds and holds the same rows, so each test still owns a fresh
store of its own. The template is closed with its write-ahead log merged, so the copy is
the file alone, copied as bytes (a quarter of the CPU of SQLite's backup, a tenth of its
time), and already at the schema: the store opened on it has nothing to bring up.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inboxdesk.server.fixtures import LoadedEnvironment, load_fixture
from inboxdesk.server.runner import checkpoint
from inboxdesk.server.store import Store


class Templates:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: dict[str, list[LoadedEnvironment]] = {}

    def store(
        self, fixture: Mapping[str, Any], db_path: Path
    ) -> tuple[Store, list[LoadedEnvironment]]:
        """A fresh store at `db_path` holding `fixture`, and what loading it returned."""
        loaded = self.copy(fixture, db_path)
        return Store(db_path), loaded

    def copy(self, fixture: Mapping[str, Any], db_path: Path) -> list[LoadedEnvironment]:
        """A fresh database at `db_path` holding `fixture`, for a store of any class to
        open; what loading it returned."""
        text = json.dumps(fixture, sort_keys=True, default=str)
        key = hashlib.sha256(text.encode()).hexdigest()[:32]
        template = self.folder / f"{key}.db"
        if key not in self._loaded:
            loading = Store(template)
            try:
                self._loaded[key] = load_fixture(loading, fixture)
            except BaseException:
                loading.close()
                # A fixture that fails to load fails each time, as loading it would.
                for leftover in template.parent.glob(f"{template.name}*"):
                    leftover.unlink()
                raise
            loading.close()
            checkpoint(template)
        db_path.parent.mkdir(parents=True, exist_ok=True)
        # Made first with the mode the service gives it (0600): the copy keeps it.
        with contextlib.suppress(FileExistsError):
            os.close(os.open(db_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        shutil.copyfile(template, db_path)
        return list(self._loaded[key])
