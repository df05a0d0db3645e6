"""Shared fixtures: the real local service on a free loopback port, loaded with data."""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from inboxdesk.private_apis import (
    draw_headless_frames_when_looked_at,
    pilot_waits_for_messages,
    share_parsed_css,
)

# The xdist controller loads this file too but runs no test: what the fixtures serve is
# imported by the fixtures (the service's modules cost the controller 0.9 CPU-s; each
# worker imports them anyway, for its tests).
if TYPE_CHECKING:
    import httpx

    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.store import Store
    from tests.shared_service import SharedService
    from tests.templates import Templates

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "inbox.json"
CONTRACT = ROOT / "tests" / "contract" / "openapi-excerpt.json"
STAGING_KEY = "staging-key-0123456789abcdef"
OTHER_KEY = "other-key-0123456789abcdef"

# Ids in examples/inbox.json.
SENDGRID, MAILGUN, SES, TWILIO, VONAGE = (f"65e0000000000000000{n:05d}" for n in (2, 3, 4, 5, 6))
INBOX, SLACK, FCM = (f"65e0000000000000000{n:05d}" for n in (1, 7, 8))
POSTMARK, OTHER_SMTP = (f"65e0000000000000000{n:05d}" for n in (11, 12))


def jane_message(n: int) -> str:
    return f"65f0000000000000000{n:05d}"


JOE_MESSAGES = [jane_message(100 + n) for n in range(3)]
OTHER_ENV_MESSAGES = [jane_message(300 + n) for n in range(2)]


@dataclass
class Service:
    url: str
    store: Store
    thread: ServiceThread
    db_path: Path

    def http(self, key: str | None = STAGING_KEY) -> httpx.Client:
        import httpx

        from tests.shared_service import KeptConnections

        headers = {"Authorization": f"ApiKey {key}"} if key else {}
        return httpx.Client(
            base_url=self.url, headers=headers, timeout=30, transport=KeptConnections()
        )

    def row(self, sql: str, *params: Any) -> Any:
        return self.store.read().execute(sql, params).fetchone()

    def snapshot(self) -> list[tuple[Any, ...]]:
        """Every stored integration and message row, to prove nothing changed."""
        db = self.store.read()
        rows = db.execute("SELECT * FROM integrations ORDER BY id").fetchall()
        rows += db.execute("SELECT * FROM messages ORDER BY id").fetchall()
        return [tuple(r) for r in rows]


ServiceFactory = Callable[..., Service]

# A fuzzed test of the service draws a share of examples sized to the suite's time
# budget; they differ from run to run, and one that failed is replayed first the next
# time. `pytest --hypothesis-profile=thorough` draws ten times as many of each (the
# profile is registered in pytest_configure, before hypothesis's plugin loads it).
THOROUGH = "thorough"


def fuzz_examples(share: int) -> int:
    """`share` examples in an ordinary run, scaled by the profile a run loaded (the
    default one draws 100)."""
    from hypothesis import settings

    return max(1, share * settings.default.max_examples // 100)


OWN_SERVICE = "own_service"
SLOW = "slow"


def _rewritten_modules_read_whole() -> None:
    """pytest reads each rewritten module's cached code (the tests', and those of the
    plugins' packages: hypothesis, anyio) with `marshal.load` on the open file, which
    reads it a few bytes at a time through Python calls: 0.2 CPU-s of a worker's start
    for the 165 test modules alone, against 0.03 for the same bytes read at once. Its
    rewriting module's `marshal` becomes one whose `load` reads the rest of the file
    first; pytest's checks of the cache (magic, flags, mtime, size) are untouched. This
    file is loaded before any test module: all but the plugins' own 35 are read so."""
    import marshal
    from types import SimpleNamespace

    from _pytest.assertion import rewrite

    if getattr(rewrite, "marshal", None) is marshal:
        rewrite.marshal = SimpleNamespace(
            load=lambda file: marshal.loads(file.read()), dumps=marshal.dumps
        )


_rewritten_modules_read_whole()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The collector tuned for a test run, as the app tunes it for its own (tui/app.py).

    Each test builds and drops a whole app and a store: with the default threshold (700)
    the young generations were collected thousands of times outside the app's own regime
    (tui/collector.py), a tenth of the TUI tests' time. An app restores the thresholds
    it found when it ends, so these stay.

    The run's temporary folders go in memory where they can (`in_memory_folder`), before
    pytest makes the first. First of the plugins' hooks: a run that names a hypothesis
    profile finds `thorough` registered (hypothesis is imported here only then; the
    tests import it anyway).
    """
    gc.set_threshold(20_000, 10, 10)
    memory = in_memory_folder()
    if memory is not None:
        os.environ.setdefault(TEMP_ROOT, memory)
    if config.getoption("--hypothesis-profile", None):
        from hypothesis import settings

        settings.register_profile(THOROUGH, max_examples=1000)


# Where pytest makes the run's temporary folders (its documented variable): each test's
# database, its write-ahead log and its files. On a disk, creating, copying and syncing
# them cost the kernel two of the four milliseconds of a store's start; in memory they
# cost a fifth of that.
TEMP_ROOT = "PYTEST_DEBUG_TEMPROOT"
SHARED_MEMORY = "/dev/shm"
# A run holds its templates and its running tests' files, and a failed run's stay: a
# small tmpfs (a container's is 64 MB) is left alone.
ROOM = 4 << 30


def in_memory_folder() -> str | None:
    """The machine's shared memory, when it is a place to write, run and hold a run's
    files (a test runs a script it wrote); else None: the system's temporary folder."""
    try:
        found = os.statvfs(SHARED_MEMORY)
    except OSError:
        return None
    if found.f_flag & (os.ST_RDONLY | os.ST_NOEXEC) or found.f_bavail * found.f_frsize < ROOM:
        return None
    return SHARED_MEMORY if os.access(SHARED_MEMORY, os.W_OK | os.X_OK) else None


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the imports and the collection built (every module, 1,581 items: some 175,000
    tracked objects) lives to the end: frozen, no full pass walks it again. A full pass
    first would cost more than it finds (0.13 CPU-s for a few dozen objects). An app
    unfreezes what it finds frozen as it ends (tui/collector.py): this spares the
    passes until a worker's first app (the server and client tests' full passes took
    a third less)."""
    gc.freeze()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """No collection once the tests are done. An xdist worker that has not ended 5 s
    after it was told to stop sends itself SIGINT (execnet's shutdown); on a loaded
    machine a full collection of the run's heap took that long, so a green run ended
    with a KeyboardInterrupt traceback from inside hypothesis's gc callback. The
    process exits next; its memory goes back to the system whole."""
    gc.disable()
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `slow` first, dealt evenly to the workers.

    `--dist worksteal` hands each worker one contiguous share of this order, and an idle
    worker steals from the end of another's queue: a long test at the end would run
    alone while the other worker waits. So the slow tests open the shares, in turn.
    """
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    slow = [item for item in items if item.get_closest_marker(SLOW) is not None]
    if not slow:
        return
    rest = iter(item for item in items if item.get_closest_marker(SLOW) is None)
    ordered: list[pytest.Item] = []
    left = len(items)
    for n in range(workers):
        share = left // (workers - n)  # as the scheduler splits them
        left -= share
        first = slow[n::workers]
        ordered += first + list(islice(rest, max(0, share - len(first))))
    ordered += list(rest)
    assert sorted(map(id, ordered)) == sorted(map(id, items))
    items[:] = ordered


@pytest.fixture(scope="session", autouse=True)
def frames_when_looked_at() -> None:
    """A headless app draws its screen when a test waits for it (`until`) and as it shuts
    down (a render error of the last state is raised), not at every refresh: the frames
    nobody looked at were a sixth of the app tests' time. (Set by
    the workers, which run the apps, not by the xdist controller.) The apps share the
    CSS parsed once: parsing it anew cost each app's start some 30 ms of its 400.
    Pilot waits for the app's messages to be handled, not for 20 ms slices of an idle
    clock (three a key): those were half of the app tests' time, idle."""
    draw_headless_frames_when_looked_at()
    share_parsed_css()
    pilot_waits_for_messages()


@pytest.fixture(scope="session", autouse=True)
def demos_shared(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The demo fixtures that tests build (`demo_at`) are built once for the run's
    workers, beside the demo's templates."""
    from tests.run_shared import run_folder
    from tests.templates import share_demos_in

    share_demos_in(run_folder(tmp_path_factory) / "demo-templates")


@pytest.fixture(scope="session")
def spare_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("spare")


@pytest.fixture(autouse=True)
def private_data_dir(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, spare_folder: Path
) -> None:
    """No test reads or writes the user's data directory (the outbox's queue lives there)
    or log directory (a crash's log).

    It is `user-data` in the test's tmp_path when the test has one; a test without one
    gets a name of its own in a folder of the run, not made until used (a tmp_path made
    for every test cost a millisecond each)."""
    if "tmp_path" in request.fixturenames:
        folder = request.getfixturevalue("tmp_path") / "user-data"
    else:
        folder = spare_folder / f"user-data-{next(_spare_names)}"
    monkeypatch.setenv("INBOXDESK_DATA_DIR", str(folder))
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(folder.with_name(f"{folder.name}-log")))


_spare_names = count()


@pytest.fixture(scope="session")
def shared_thread(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedService]:
    """The one service thread of the run; each test swaps its own store into it."""
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store
    from tests.shared_service import SharedService

    db_path = tmp_path_factory.mktemp("shared") / "idle.db"
    shared = SharedService(ServerSettings(db_path=db_path), Store(db_path)).start()
    yield shared
    shared.thread.stop()


def give_back(shared: SharedService) -> None:
    """After a test served by the shared thread: a test that stopped it is an error."""
    if not shared.thread.running:
        shared.thread.start()
        pytest.fail(f"a test that stops its service must be marked {OWN_SERVICE}")


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Templates:
    """Each fixture loaded once per run; every service gets a copy of its own."""
    from tests.run_shared import run_folder
    from tests.templates import Templates

    folder = run_folder(tmp_path_factory) / "templates"
    folder.mkdir(exist_ok=True)
    return Templates(folder)


@functools.cache
def example_fixture() -> dict[str, Any]:
    """examples/inbox.json, read once a process: the same object each time, so its
    template's key is hashed once. Shared: nothing changes it."""
    from inboxdesk.server.fixtures import read_fixture

    return read_fixture(EXAMPLE)


@pytest.fixture
def make_service(
    request: pytest.FixtureRequest,
    spare_folder: Path,
    shared_thread: SharedService,
    templates: Templates,
) -> Iterator[ServiceFactory]:
    """A service on the example fixture (or `fixture`), with any ServerSettings overrides.

    Each call gets a fresh store, in a file of its own in the run's spare folder (a
    tmp_path made for each test cost more than most of their requests). The first is
    served by the shared thread, whatever its settings (a thread of its own cost 0.2 s
    of wall time to start and stop), unless the test is marked `own_service` (it stops
    its service); a second service of the same test gets a thread of its own.
    """
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.settings import ServerSettings

    own = request.node.get_closest_marker(OWN_SERVICE) is not None
    started: list[ServiceThread] = []
    stores: list[Store] = []
    shared_used = False

    def make(fixture: dict[str, Any] | None = None, **settings: Any) -> Service:
        nonlocal shared_used
        db_path = spare_folder / f"service-{next(_spare_names)}.db"
        store, _ = templates.store(fixture or example_fixture(), db_path)
        stores.append(store)
        wanted = ServerSettings(db_path=db_path, **settings)
        if own or shared_used:
            # Two services in one test must not share a port.
            app = shared_thread.app_for(wanted, store)
            thread = ServiceThread(wanted, store, app=app).start()
            started.append(thread)
        else:
            thread = shared_thread.replace(wanted, store)
            shared_used = True
        return Service(thread.url, store, thread, db_path)

    yield make
    for thread in started:
        thread.stop()
    for made in stores:
        made.worker.stop()  # a store's worker ends with its test
        # Its files too: a run makes a thousand stores, which filled half a gigabyte (of
        # memory, on a tmpfs). A connection still open keeps reading what it had.
        for suffix in ("", "-wal", "-shm"):
            Path(made.path + suffix).unlink(missing_ok=True)
    if shared_used:
        give_back(shared_thread)


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    return make_service()
