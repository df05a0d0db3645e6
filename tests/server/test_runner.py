"""The test run's shared service: one running server, another store and settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inboxdesk.server.fixtures import read_fixture
from inboxdesk.server.ratelimit import RateLimit
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store
from tests.client.faults import loopback_client
from tests.conftest import EXAMPLE, STAGING_KEY
from tests.hostile import HOSTILE_KEY, hostile_fixture
from tests.shared_service import SharedService
from tests.templates import Templates


def status(url: str, key: str) -> int:
    headers = {"Authorization": f"ApiKey {key}"}
    with loopback_client(url, headers=headers, timeout=10) as http:
        return http.get("/v1/integrations").status_code


def test_replace_serves_each_store_and_settings_on_the_same_port_by_one_built_app(
    tmp_path: Path, templates: Templates
) -> None:
    """Each store swapped in is the one answering, under its settings, on the same port;
    the app is built once per settings, and a deleted file refuses the requests of its
    own store only. (One walk: a shared service of its own costs a built app.)"""

    def loaded(name: str, fixture: dict[str, Any]) -> Store:
        return templates.store(fixture, tmp_path / name)[0]

    first = loaded("first.db", read_fixture(EXAMPLE))
    shared = SharedService(ServerSettings(db_path=first.path), first)
    with shared.thread as thread:
        url = thread.url
        assert status(url, STAGING_KEY) == 200
        assert status(url, HOSTILE_KEY) == 401

        second = loaded("second.db", hostile_fixture())
        limited = ServerSettings(db_path=second.path, rate_limit=RateLimit(requests=2, window=60))
        shared.replace(limited, second)
        assert thread.url == url and thread.store is second
        assert status(url, STAGING_KEY) == 401
        assert [status(url, HOSTILE_KEY) for _ in range(3)] == [200, 200, 429]

        # Settings not served yet: their app is built now, while `third` is swapped in.
        third = loaded("third.db", hostile_fixture())
        shared.replace(ServerSettings(db_path=third.path, v2_inbox=False), third)
        assert (status(url, HOSTILE_KEY), status(url, STAGING_KEY)) == (200, 401)
        Path(third.path).unlink()
        assert status(url, HOSTILE_KEY) == 503, "the deleted database is refused"

        fourth = loaded("fourth.db", read_fixture(EXAMPLE))
        shared.replace(ServerSettings(db_path=fourth.path, v2_inbox=False), fourth)
        assert (status(url, STAGING_KEY), status(url, HOSTILE_KEY)) == (200, 401)
