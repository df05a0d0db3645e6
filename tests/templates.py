"""Each fixture is loaded once per test run, into a template database that every worker
shares; a test's store is a copy of it (test scaffolding, kept out of src/).

Loading the demo's fixture takes seconds and a dozen tests start from it; a copy of the
loaded file takes milliseconds and holds the same rows, so each test still owns a fresh
store of its own. The template is closed with its write-ahead log merged, so the copy is
the file alone, copied as bytes (a quarter of the CPU of SQLite's backup, a tenth of its
time), and already at the schema: the store opened on it has nothing to bring up.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import pickle
import shutil
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from inboxdesk.server.demo import demo_fixture
from inboxdesk.server.fixtures import LoadedEnvironment, load_fixture
from inboxdesk.server.runner import checkpoint
from inboxdesk.server.store import Store
from tests.run_shared import built_once, run_folder

# A fixture object's template key, computed once: dumping the demo to hash it cost 0.14
# CPU-s at each use. Kept with the object, so its id is not reused meanwhile; a fixture
# handed to a store is not changed after (demo_at's are shared).
_KEYS: dict[int, tuple[Mapping[str, Any], str]] = {}


class Templates:
    """Templates shared by every worker of the run: the first worker that needs a
    fixture loads it under a file lock, and every use, in any worker, is a copy (the
    demo took each worker two to three CPU-seconds to load)."""

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
        key = self._key(fixture)
        template = self.folder / f"{key}.db"
        if key not in self._loaded:
            self._loaded[key] = _template(template, lambda: fixture)
        _copy(template, db_path)
        return list(self._loaded[key])

    def _key(self, fixture: Mapping[str, Any]) -> str:
        known = _KEYS.get(id(fixture))
        if known is not None and known[0] is fixture:
            return known[1]
        text = json.dumps(fixture, sort_keys=True, default=str)
        key = hashlib.sha256(text.encode()).hexdigest()[:32]
        _KEYS[id(fixture)] = (fixture, key)
        return key


def _template(
    template: Path, fixture: Callable[[], Mapping[str, Any]], checked: bool = True
) -> list[LoadedEnvironment]:
    """What loading `fixture` into `template` returned, loading it there first unless a
    worker of the run already has: under a file lock, its environments saved beside it.
    `checked=False`: seeded as `serve --demo` seeds the demo (load_fixture)."""
    environments = template.with_suffix(".json")
    with FileLock(f"{template}.lock"):
        if not environments.exists():
            loading = Store(template)
            try:
                loaded = load_fixture(loading, fixture(), checked=checked)
            except BaseException:
                loading.close()
                # A fixture that fails to load fails each time, as loading it would.
                for leftover in template.parent.glob(f"{template.name}*"):
                    if leftover.suffix != ".lock":
                        leftover.unlink()
                raise
            loading.close()
            checkpoint(template)
            environments.write_text(json.dumps([dataclasses.asdict(env) for env in loaded]))
    return [LoadedEnvironment(**env) for env in json.loads(environments.read_text())]


def _copy(template: Path, db_path: Path) -> None:
    """The template's rows in a new private file at `db_path`: made first with the mode
    the service gives it (0600), which the copy keeps."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(db_path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
    shutil.copyfile(template, db_path)


# -- the demo: one template for the whole run ------------------------------------------

# The demo's moment in the tests that share its template (a Sunday, as the stories'
# tests have it): one `now`, so one load serves them all.
DEMO_NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


# Where the run's workers share the demo fixtures that `demo_at` built (the run's
# `demos_shared` fixture names it); None: each process builds its own.
_demos_folder: Path | None = None


def share_demos_in(folder: Path) -> None:
    global _demos_folder
    folder.mkdir(parents=True, exist_ok=True)
    _demos_folder = folder


@functools.cache
def demo_at(now: datetime = DEMO_NOW) -> dict[str, Any]:
    """The demo fixture at `now`, built once per run and read by each other worker
    (building it cost each 0.4 CPU-s, reading it 0.13). Shared: a caller that changes
    it works on a copy."""
    fixture = _built_once(now)
    # Named by what made it, not hashed: the demo at one moment is one fixture within a
    # run, whose templates' folder is its own.
    _KEYS[id(fixture)] = (fixture, f"demo-{now.astimezone(UTC):%Y%m%dT%H%M%S.%f}")
    return fixture


def _built_once(now: datetime) -> dict[str, Any]:
    """`demo_fixture(now)`: the first worker of the run that needs it builds it, and
    leaves it pickled beside the demo's templates for the others."""
    if _demos_folder is None:
        return demo_fixture(now)
    built = _demos_folder / f"demo-{now.astimezone(UTC):%Y%m%dT%H%M%S.%f}.pickle"
    fixture: dict[str, Any] = pickle.loads(
        built_once(built, lambda: pickle.dumps(demo_fixture(now), protocol=pickle.HIGHEST_PROTOCOL))
    )
    return fixture


def demo_store(
    tmp_path_factory: pytest.TempPathFactory, db_path: Path, now: datetime | None = None
) -> tuple[Store, list[LoadedEnvironment]]:
    """A fresh store at `db_path` holding the demo at `now`, and its environments' keys;
    by default at the run's present, as `serve --demo` seeds it at its start (times
    relative to the clock, as `--since 24h`, find its stories): one load for the run.

    Loading the demo takes a CPU-second (as `serve --demo` seeds it: unchecked, which
    tests/test_demo_seeding.py proves the same); the first worker that needs it loads it
    into a template under a file lock, and every use, in any worker, is a copy."""
    folder = run_folder(tmp_path_factory) / "demo-templates"
    folder.mkdir(exist_ok=True)
    name = "present" if now is None else f"{now:%Y%m%dT%H%M%S}"
    template = folder / f"demo-{name}.db"
    environments = _template(
        template,
        lambda: demo_fixture(datetime.now(UTC)) if now is None else demo_at(now),
        checked=False,
    )
    _copy(template, db_path)
    return Store(db_path), environments
