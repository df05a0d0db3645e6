"""A service whose store counts how often each write really ran."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.cli import main
from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.models import MarkAs
from inboxdesk.server.fixtures import read_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Caller, Store
from tests.client.faults import FaultTransport
from tests.conftest import EXAMPLE, OWN_SERVICE, STAGING_KEY, Service, ServiceFactory, give_back
from tests.shared_service import SharedService
from tests.templates import Templates


class CountingStore(Store):
    """The real store, counting the operations it applies."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.applied: Counter[str] = Counter()

    def mark_as(
        self, caller: Caller, subscriber_id: str, message_ids: Sequence[str], mark_as: MarkAs
    ) -> list[dict[str, Any]]:
        result = super().mark_as(caller, subscriber_id, message_ids, mark_as)
        self.applied["mark_as"] += 1
        return result

    def set_primary(
        self, caller: Caller, integration_id: str, org_wide: bool = False
    ) -> dict[str, Any]:
        result = super().set_primary(caller, integration_id, org_wide)
        self.applied["set_primary"] += 1
        return result


class Counted:
    """A counting store, served by `shared` (swapped in) or by a thread of its own; a
    thread of its own serves the app `shared` built for these settings (building one
    cost a quarter of a CPU-second)."""

    def __init__(
        self,
        tmp_path: Path,
        templates: Templates,
        shared: SharedService,
        own: bool = False,
        **settings: Any,
    ) -> None:
        self.db = tmp_path / "counted.db"
        templates.copy(read_fixture(EXAMPLE), self.db)
        self.store = CountingStore(self.db)
        wanted = ServerSettings(db_path=self.db, **settings)
        self.own = own
        if own:
            app = shared.app_for(wanted, self.store)
            self.thread = ServiceThread(wanted, self.store, app=app).start()
        else:
            self.thread = shared.replace(wanted, self.store)
        self.url = self.thread.url

    def client(
        self,
        key: str = STAGING_KEY,
        transport: FaultTransport | None = None,
        timeout: float = 10.0,
        retry: RetryPolicy | None = None,
    ) -> InboxClient:
        retry = retry or RetryPolicy(base=0.01, cap=0.05, deadline=10)
        return InboxClient(self.url, key, ClientOptions(timeout=timeout, retry=retry), transport)


@pytest.fixture
def counted(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    shared_thread: SharedService,
    templates: Templates,
) -> Iterator[Counted]:
    own = request.node.get_closest_marker(OWN_SERVICE) is not None
    service = Counted(tmp_path, templates, shared_thread, own)
    yield service
    if service.own:
        service.thread.stop()
    else:
        give_back(shared_thread)


@pytest.fixture
def make_counted(
    tmp_path: Path, templates: Templates, shared_thread: SharedService
) -> Iterator[Any]:
    """Counted services with ServerSettings of their own, each on its own thread."""
    made: list[Counted] = []

    def make(**settings: Any) -> Counted:
        folder = tmp_path / str(len(made))
        folder.mkdir()
        service = Counted(folder, templates, shared_thread, own=True, **settings)
        made.append(service)
        return service

    yield make
    for service in made:
        service.thread.stop()


def point_at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, service: Service) -> Service:
    """The command line pointed at `service` with the Staging key, no profile."""
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, service: Service) -> Service:
    """The command line pointed at the test's service with the Staging key, no profile."""
    return point_at(monkeypatch, tmp_path, service)


@pytest.fixture
def org_wide_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    """The same, on a service that lists and switches every environment's integrations
    for a key, as deployments older than May 2026 do."""
    return point_at(monkeypatch, tmp_path, make_service(org_wide_integrations=True))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """One command through `main`, in-process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
