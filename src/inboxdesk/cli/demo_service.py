"""The demo's local service: a free loopback port, the demo data, a temporary database.

Used by `inboxdesk demo` in a terminal and in a browser (cli/web.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inboxdesk.server.fixtures import LoadedEnvironment


class DemoRefused(Exception):
    """Why a demo cannot start, in one line."""


SCRATCH_PREFIX = "inboxdesk-demo-"
# In each scratch folder: the process id of the demo it belongs to.
OWNER = "owner.pid"

# The demo's own profile: in memory (or, for the browser's apps, a scratch file),
# never the config file's, never the default; its writes are journalled under it.
DEMO_PROFILE = "demo"


@dataclass(frozen=True)
class DemoService:
    url: str
    key: str  # the first environment's of the first fixture: the one the app opens
    db_path: Path
    scratch: Path  # a temporary directory that goes with the demo
    # Every environment of the demo (or of the fixtures), with its key and its type.
    environments: tuple[tuple[LoadedEnvironment, str | None], ...] = field(default=())
    # The subscriber the app opens on unless told: Ada, who has every delivery story, in
    # the demo data; the first subscriber of `--load`'s fixtures.
    subscriber: str | None = None


@contextmanager
def demo_service(db: Path | None, load: Sequence[Path] = ()) -> Iterator[DemoService]:
    """The local service on a free loopback port with the demo data (or the `load`
    fixtures), in a temporary database unless `db` is given; all of it goes on exit.
    Raises DemoRefused for a database that holds data or a bad fixture."""
    from inboxdesk.server.dblock import DatabaseInUse, DatabaseLock
    from inboxdesk.server.demo import demo_fixture
    from inboxdesk.server.demo.delivery import ADA
    from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store

    try:
        fixtures = [read_fixture(path) for path in load]
    except FixtureError as exc:
        raise DemoRefused(str(exc)) from None
    sweep_stale_scratch(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=SCRATCH_PREFIX) as scratch:
        (Path(scratch) / OWNER).write_text(str(os.getpid()))
        db_path = db or Path(scratch) / "demo.db"
        # Opening a store tidies the database (stale idempotency records): a database in
        # use by a running service must not be touched at all, so its lock comes first.
        guard = DatabaseLock(db_path)
        try:
            guard.acquire()
        except DatabaseInUse as exc:
            raise DemoRefused(str(exc)) from None
        try:
            store = Store(db_path)
        finally:
            guard.release()  # the service thread takes its own lock when it starts
        try:
            if not store.is_empty():
                raise DemoRefused(
                    f"{db_path} already holds data and its keys are stored hashed; "
                    "use a new --db path for a demo."
                )
            # Built once the database is known to be free and empty: a refused demo
            # answers without the 0.4 CPU-s of making the demo's data.
            fixtures = fixtures or [demo_fixture()]
            try:
                # The demo is this program's own: its shape is proven by the tests.
                loaded = [load_fixture(store, fixture, checked=bool(load)) for fixture in fixtures]
            except FixtureError as exc:
                raise DemoRefused(str(exc)) from None
            every = tuple(
                (env, doc.get("type"))
                for fixture, environments in zip(fixtures, loaded, strict=True)
                for env, doc in zip(environments, fixture["environments"], strict=True)
            )
            # The demo keeps preferences per context, as an organization with
            # production's flag on does: its stories show a context-bound opt-out.
            settings = ServerSettings(db_path=db_path, context_preferences=True)
            with ServiceThread(settings, store) as service:
                yield DemoService(
                    service.url,
                    loaded[0][0].api_key,
                    db_path,
                    Path(scratch),
                    every,
                    None if load else ADA,
                )
        finally:
            store.close()


def sweep_stale_scratch(where: Path) -> list[Path]:
    """Remove the scratch folders of demos whose process no longer runs (one killed
    with SIGKILL cleans nothing up, and its folder holds the demo's keys); returns them.
    Only this user's folders that name their demo's process are touched."""
    removed = []
    for folder in where.glob(f"{SCRATCH_PREFIX}*"):
        try:
            if folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            pid = int((folder / OWNER).read_text().strip())
        except (OSError, ValueError):
            continue
        if pid == os.getpid() or _running(pid):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True
