"""A second service on the same database is refused; the first keeps working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inboxdesk.server.dblock import DatabaseInUse
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store
from tests.conftest import Service, ServiceFactory, jane_message
from tests.shared_service import SharedService

MARK = "/v1/subscribers/jane/messages/mark-as"


def thread_of(store: Store, shared: SharedService) -> ServiceThread:
    """A service thread of its own over `store`, with its lock, served by the run's
    built app (building another costs a tenth of a second and proves nothing here)."""
    settings = ServerSettings(db_path=Path(store.path))
    return ServiceThread(settings, store, app=shared.app_for(settings, store))


# The shared test server does not lock each test's database: a service of its own.
@pytest.mark.own_service
def test_a_second_service_on_the_same_database_is_refused(
    service: Service, shared_thread: SharedService
) -> None:
    second = thread_of(Store(service.db_path), shared_thread)
    with pytest.raises(DatabaseInUse, match="in use by another inboxdesk service") as refused:
        second.start()
    assert "\n" not in str(refused.value)
    assert f"(process {os.getpid()})" in str(refused.value)  # the holder, by its pid
    with service.http() as http:
        response = http.post(MARK, json={"messageId": jane_message(1), "markAs": "read"})
    assert response.status_code == 201


def test_the_database_is_free_again_once_its_service_stops(
    make_service: ServiceFactory, shared_thread: SharedService
) -> None:
    first = make_service()
    first.thread.stop()
    with thread_of(first.store, shared_thread) as again:
        with first.http() as http:
            response = http.get(f"{again.url}/v1/integrations")
        assert response.status_code == 200
    first.thread.start()  # the fixture stops it at the end


def test_services_on_different_databases_run_side_by_side(make_service: ServiceFactory) -> None:
    one, two = make_service(), make_service()
    for service in (one, two):
        with service.http() as http:
            assert http.get("/v1/integrations").status_code == 200


# The shared test server does not lock each test's database: a service of its own.
@pytest.mark.own_service
def test_serve_on_a_database_in_use_says_so_in_one_line(service: Service) -> None:
    before = service.snapshot()
    result = subprocess.run(
        [sys.executable, "-m", "inboxdesk", "serve", "--db", str(service.db_path), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "in use by another inboxdesk service" in result.stderr
    assert f"(process {os.getpid()})" in result.stderr
    assert service.snapshot() == before


# The shared test server does not lock each test's database: a service of its own.
@pytest.mark.own_service
def test_a_symlink_to_a_database_in_use_is_refused_too(service: Service, tmp_path: Path) -> None:
    from inboxdesk.server.dblock import DatabaseLock

    link = tmp_path / "elsewhere.db"
    link.symlink_to(service.db_path)
    with pytest.raises(DatabaseInUse):
        DatabaseLock(link).acquire()


@pytest.mark.own_service
def test_a_clean_stop_leaves_the_data_in_the_database_file_alone(
    make_service: ServiceFactory, tmp_path: Path
) -> None:
    import shutil
    import sqlite3

    service = make_service()
    with service.http() as http:
        response = http.post(MARK, json={"messageId": jane_message(1), "markAs": "unread"})
    assert response.status_code == 201
    service.thread.stop()
    service.store.close()
    copy = tmp_path / "copy.db"
    shutil.copyfile(service.db_path, copy)  # the .db file alone, without its -wal
    with sqlite3.connect(copy) as db:
        row = db.execute("SELECT read FROM messages WHERE id = ?", (jane_message(1),)).fetchone()
        count = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    assert count > 0 and row == (0,)


# The shared test server does not lock each test's database: a service of its own.
@pytest.mark.own_service
def test_a_refused_demo_touches_nothing_of_the_running_service(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a store clears stale idempotency records: a demo refused on a database
    in use must not, or it frees the live service's in-flight keys. Nor does it make
    the demo's data first (0.4 CPU-s of a refusal)."""
    from inboxdesk.cli.demo_service import DemoRefused, demo_service
    from inboxdesk.server import demo

    def never() -> None:
        raise AssertionError("the demo's data made for a refused demo")

    monkeypatch.setattr(demo, "demo_fixture", never)

    with service.store.transaction() as db:
        db.execute(
            "INSERT INTO idempotency (organization_id, key, body_hash, state, created_at) "
            "VALUES ('org', 'in-flight', 'h', 'pending', 0)"
        )
    with pytest.raises(DemoRefused, match="in use"), demo_service(service.db_path):
        pass
    assert service.row("SELECT state FROM idempotency WHERE key = 'in-flight'")[0] == "pending"


def test_a_clean_release_removes_the_lock_file_but_only_its_own(
    tmp_path: Path, shared_thread: SharedService
) -> None:
    from inboxdesk.server.dblock import DatabaseLock

    served = tmp_path / "served.db"
    with thread_of(Store(served), shared_thread):
        assert Path(f"{served}.lock").exists()
    assert not Path(f"{served}.lock").exists()
    # A file left by a holder that died (flock went with it) is no obstacle.
    db = tmp_path / "own.db"
    Path(f"{db}.lock").write_text("12345\n")
    lock = DatabaseLock(db).acquire()
    assert Path(f"{db}.lock").read_text() == f"{os.getpid()}\n"
    # Someone put another file at the path meanwhile: not ours, so it stays.
    (tmp_path / "other").write_text("not ours\n")
    os.replace(tmp_path / "other", Path(f"{db}.lock"))
    lock.release()
    assert Path(f"{db}.lock").read_text() == "not ours\n"
    with DatabaseLock(db):
        assert Path(f"{db}.lock").exists()
    assert not Path(f"{db}.lock").exists()


def test_a_second_lock_in_the_same_process_is_refused_and_leaves_the_holder_s_pid(
    tmp_path: Path,
) -> None:
    from inboxdesk.server.dblock import DatabaseLock

    db = tmp_path / "one.db"
    with DatabaseLock(db) as held:
        assert held.acquire() is held  # the holder asking again: still one lock
        with pytest.raises(DatabaseInUse, match=rf"\(process {os.getpid()}\)"):
            DatabaseLock(db).acquire()
        assert Path(f"{db}.lock").read_text() == f"{os.getpid()}\n"  # not emptied by it
    with DatabaseLock(db):  # free again once released
        pass
