"""Each fixture is loaded once per test process, into a template database; a test's
store is a copy of it (test scaffolding, kept out of src/).

Loading the demo's fixture takes seconds and a dozen tests start from it; a copy of the
loaded file takes milliseconds and holds the same rows, so each test still owns a fresh
store of its own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inboxdesk.server.fixtures import LoadedEnvironment, load_fixture
from inboxdesk.server.store import Store


class Templates:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: dict[str, list[LoadedEnvironment]] = {}

    def store(
        self, fixture: Mapping[str, Any], db_path: Path
    ) -> tuple[Store, list[LoadedEnvironment]]:
        """A fresh store at `db_path` holding `fixture`, and what loading it returned."""
        text = json.dumps(fixture, sort_keys=True, default=str)
        key = hashlib.sha256(text.encode()).hexdigest()[:32]
        template = self.folder / f"{key}.db"
        if key not in self._loaded:
            try:
                self._loaded[key] = load_fixture(Store(template), fixture)
            except BaseException:
                # A fixture that fails to load fails each time, as loading it would.
                for leftover in template.parent.glob(f"{template.name}*"):
                    leftover.unlink()
                raise
        db_path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(db_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        source = sqlite3.connect(template)
        target = sqlite3.connect(db_path)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        return Store(db_path), list(self._loaded[key])
