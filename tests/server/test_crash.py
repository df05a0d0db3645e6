"""A service killed mid-write (SIGKILL) restarts on a consistent database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store
from tests.client.faults import answers, loopback_client
from tests.conftest import EXAMPLE, STAGING_KEY, jane_message
from tests.shared_service import SharedService
from tests.waiting import wait_for

EMAIL = [f"65e0000000000000000{n:05d}" for n in (2, 3, 4)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(db: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """`inboxdesk serve` as a process, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "inboxdesk", "serve", "--db", str(db), "--port", str(port), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        # Any answer will do: /openapi.json cost the process 1.3 CPU-s to build.
        wait_for("the service", lambda: answers(f"http://127.0.0.1:{port}/v1/environments", 1), 20)
    except AssertionError:
        process.kill()
        output = process.stdout.read().decode() if process.stdout else "no output"
        raise AssertionError(output) from None
    return process


@pytest.mark.slow
def test_kill_9_during_writes_leaves_a_consistent_database(
    tmp_path: Path, shared_thread: SharedService
) -> None:
    db = tmp_path / "crash.db"
    port = free_port()
    process = start(db, port, "--load", str(EXAMPLE))
    headers = {"Authorization": f"ApiKey {STAGING_KEY}"}
    stop = threading.Event()
    # Kill once writes are flowing, rather than after a fixed time.
    written = threading.Semaphore(0)

    def hammer(work: int) -> None:
        with loopback_client(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=5
        ) as http:
            n = 0
            while not stop.is_set():
                try:
                    if work % 2:
                        http.post(f"/v1/integrations/{EMAIL[n % 3]}/set-primary")
                    else:
                        ids = [jane_message(i) for i in range(12)]
                        http.post(
                            "/v1/subscribers/jane/messages/mark-as",
                            json={"messageId": ids, "markAs": ("read", "unread")[n % 2]},
                        )
                except httpx.TransportError:
                    return
                written.release()
                n += 1

    workers = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    for worker in workers:
        worker.start()
    flowing = all(written.acquire(timeout=20) for _ in range(12))
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stop.set()
    for worker in workers:
        worker.join()
    assert flowing, "the writes never got going"

    # The restart in this process: the same lock and store a `serve` takes over (the
    # killed one is a process, as a crash must be; its restart costs a start no more),
    # served by the run's built app for these settings (building another costs a third
    # of a second and proves nothing more).
    settings = ServerSettings(db_path=db)
    store = Store(db)
    app = shared_thread.app_for(settings, store)
    restarted = ServiceThread(settings, store, port=port, app=app).start()
    try:
        with loopback_client(base_url=f"http://127.0.0.1:{port}", headers=headers) as http:
            integrations = http.get("/v1/integrations").json()["data"]
            feed = http.get("/v1/subscribers/jane/notifications/feed", params={"limit": 100}).json()
            after = http.post(
                "/v1/subscribers/jane/messages/mark-as",
                json={"messageId": jane_message(0), "markAs": "read"},
            )
    finally:
        restarted.stop()
        store.close()
    staging = [i for i in integrations if i["_environmentId"] == integrations[0]["_environmentId"]]
    assert sum(i["primary"] for i in staging if i["channel"] == "email") == 1
    assert feed["totalCount"] == 12
    # One mark-as is one transaction: all twelve share one state.
    assert len({(m["read"], m["seen"]) for m in feed["data"]}) == 1
    assert after.status_code == 201

    import sqlite3

    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
