"""Running the local service: in the foreground (`inboxdesk serve`) or on a thread."""

from __future__ import annotations

import signal
import socket
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp

from inboxdesk.server.app import create_app
from inboxdesk.server.dblock import DatabaseLock
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store


def bind(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket; port 0 picks a free one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # Naming the protocol matters: asyncio sets TCP_NODELAY on accepted sockets only
    # when proto is IPPROTO_TCP, and without it every response waited for a
    # delayed ACK between its headers and its body.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _server(app: ASGIApp, log_level: str) -> uvicorn.Server:
    config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="off")
    return uvicorn.Server(config)


def checkpoint(db_path: Path | str) -> None:
    """Move the write-ahead log into the database file and empty it."""
    if str(db_path) == ":memory:" or not Path(db_path).exists():
        return
    try:
        with closing(sqlite3.connect(db_path, timeout=5)) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass  # a busy or vanished database keeps its log; SQLite replays it on open


def serve_forever(
    settings: ServerSettings,
    sock: socket.socket,
    log_level: str = "warning",
    lock: DatabaseLock | None = None,
) -> None:
    """Serve until stopped; raises DatabaseInUse if another service holds the database.

    SIGTERM (timeout, systemd, docker) stops it as Ctrl-C does: the server shuts down
    gracefully, then raises the signal again, which by default would kill the process
    before the log is merged and the lock let go; here that second one is let pass,
    and one that comes before the server took the signal over stops it as soon."""
    server = _server(create_app(settings), log_level)

    def stop(signum: int, frame: object) -> None:
        server.should_exit = True  # before the server took the signal over, or after

    terminate = None
    if threading.current_thread() is threading.main_thread():
        terminate = signal.signal(signal.SIGTERM, stop)
    try:
        with lock or DatabaseLock(settings.db_path):
            try:
                server.run(sockets=[sock])
            finally:
                # A stop leaves everything in the .db file itself: a copy of it alone,
                # without its -wal, holds the data.
                checkpoint(settings.db_path)
    finally:
        if terminate is not None:
            signal.signal(signal.SIGTERM, terminate)


class ServiceThread:
    """The service on a background thread, for `inboxdesk demo`, tests and benchmarks.

    Use as a context manager; `url` is its base URL. `stop()` and `start()` again
    (on the same port) let callers show a service going away and coming back. `app`
    serves another ASGI app in place of the service's own (tests wrap it).
    """

    def __init__(
        self,
        settings: ServerSettings,
        store: Store | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        app: ASGIApp | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.host = host
        self.port = port
        self.url = ""
        self._app = app or create_app(settings, store)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._lock = DatabaseLock(store.path if store is not None else settings.db_path)

    def start(self) -> ServiceThread:
        self._lock.acquire()  # DatabaseInUse when another service holds the database
        try:
            sock = bind(self.host, self.port)
        except BaseException:
            self._lock.release()
            raise
        self.port = sock.getsockname()[1]
        self.url = base_url(sock)
        self._server = _server(self._app, "error")
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [sock]},
            daemon=True,
            name="inboxdesk-service",
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the local service did not start")
            time.sleep(0.01)
        self._socket = sock
        return self

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
        if self._socket is not None:
            self._socket.close()
        self._socket = None
        self._server = None
        self._thread = None
        checkpoint(self.store.path if self.store is not None else self.settings.db_path)
        self._lock.release()

    def __enter__(self) -> ServiceThread:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
