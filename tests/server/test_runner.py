"""The test run's shared service: one running server, another store and settings."""

from __future__ import annotations

from pathlib import Path

import httpx

from inboxdesk.server.fixtures import load_fixture, read_fixture
from inboxdesk.server.ratelimit import RateLimit
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store
from tests.client.faults import LOOPBACK_TLS
from tests.conftest import EXAMPLE, STAGING_KEY
from tests.hostile import HOSTILE_KEY, hostile_fixture
from tests.shared_service import SharedService


def loaded(path: Path, fixture: dict[str, object]) -> Store:
    store = Store(path)
    load_fixture(store, fixture)
    return store


def status(url: str, key: str) -> int:
    headers = {"Authorization": f"ApiKey {key}"}
    return httpx.get(
        f"{url}/v1/integrations", headers=headers, timeout=10, verify=LOOPBACK_TLS
    ).status_code


def test_replace_serves_the_new_store_and_settings_on_the_same_port(tmp_path: Path) -> None:
    first = loaded(tmp_path / "first.db", read_fixture(EXAMPLE))
    shared = SharedService(ServerSettings(db_path=first.path), first)
    with shared.thread as thread:
        url = thread.url
        assert status(url, STAGING_KEY) == 200
        assert status(url, HOSTILE_KEY) == 401

        second = loaded(tmp_path / "second.db", hostile_fixture())
        limited = ServerSettings(db_path=second.path, rate_limit=RateLimit(requests=2, window=60))
        shared.replace(limited, second)
        assert thread.url == url and thread.store is second
        assert status(url, STAGING_KEY) == 401
        assert [status(url, HOSTILE_KEY) for _ in range(3)] == [200, 200, 429]


def test_each_store_is_served_and_guarded_by_one_built_app(tmp_path: Path) -> None:
    """The app is built once per settings: each store swapped in is the one answering,
    and a deleted file refuses the requests of its own store only."""
    first = loaded(tmp_path / "first.db", read_fixture(EXAMPLE))
    shared = SharedService(ServerSettings(db_path=first.path), first)
    with shared.thread as thread:
        url = thread.url
        # Settings not served yet: their app is built now, while `second` is swapped in.
        second = loaded(tmp_path / "second.db", hostile_fixture())
        shared.replace(ServerSettings(db_path=second.path, v2_inbox=False), second)
        assert (status(url, HOSTILE_KEY), status(url, STAGING_KEY)) == (200, 401)
        Path(second.path).unlink()
        assert status(url, HOSTILE_KEY) == 503, "the deleted database is refused"

        third = loaded(tmp_path / "third.db", read_fixture(EXAMPLE))
        shared.replace(ServerSettings(db_path=third.path, v2_inbox=False), third)
        assert (status(url, STAGING_KEY), status(url, HOSTILE_KEY)) == (200, 401)
