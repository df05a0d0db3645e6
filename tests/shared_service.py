"""The test run's one service: a server started once, each test swapping its own store
and settings in (test scaffolding, kept out of src/)."""

from __future__ import annotations

import dataclasses
import functools
from contextvars import ContextVar
from typing import Any, cast

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from inboxdesk.server.app import create_app
from inboxdesk.server.dbguard import DatabaseGuardMiddleware, file_identity
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store


class Swappable:
    """An ASGI app that hands each request to whichever app it holds now."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


# The store of the request being served, set when the request arrives: a request still
# in flight when the next test swaps its store in finishes on the store it started on.
_serving: ContextVar[Store] = ContextVar("serving")


class CurrentStore:
    """Stands for the store of the request being served: every attribute is looked up on
    it at the moment of use, so one built app serves each test's store in turn."""

    def __init__(self, store: Store) -> None:
        self.default = store
        # What a built app's own database guard watches: the first store's file, which
        # the shared service keeps for the run (each test's file has a guard of its own).
        self.path = store.path

    def __getattr__(self, name: str) -> Any:
        return getattr(_serving.get(self.default), name)


class Serving:
    """Serves `app` with `store` as the store of every request it is handed."""

    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = _serving.set(self.store)
        try:
            await self.app(scope, receive, send)
        finally:
            _serving.reset(token)


class SharedService:
    """One running server; `replace` serves other settings and another store from it,
    on the same port and thread. Requests in flight finish on the app they started on.

    Building the FastAPI app costs 0.05 to 0.1 CPU-s (pydantic builds a validator for
    every parameter of every route), more than most tests take: so the app of each
    settings (the database path aside) is built once, over a `CurrentStore`, and only
    the database guard, which holds the file's identity, is made per store.
    """

    def __init__(self, settings: ServerSettings, store: Store) -> None:
        self.current = CurrentStore(store)
        self._apps: dict[ServerSettings, ASGIApp] = {}
        self.swappable = Swappable(self.app_for(settings, store))
        self.thread = ServiceThread(settings, store, app=self.swappable)

    def start(self) -> SharedService:
        self.thread.start()
        return self

    def replace(self, settings: ServerSettings, store: Store | None = None) -> ServiceThread:
        store = store or Store(settings.db_path)
        self.swappable.app = self.app_for(settings, store)
        self.thread.settings = settings
        self.thread.store = store
        return self.thread

    def app_for(self, settings: ServerSettings, store: Store) -> ASGIApp:
        """The service's app for these settings over `store` (for a thread of its own too)."""
        # What create_app tells the store it serves (the app below may be built over
        # another): whether its worker reads preferences per context.
        store.context_preferences = settings.context_preferences
        if settings.rate_limit is not None:
            return create_app(settings, store)  # its middleware counts requests: fresh
        self.current.default = store
        shape = dataclasses.replace(settings, db_path="")
        if shape not in self._apps:
            # Its own guard watches `current.path`; the one below watches this store's.
            self._apps[shape] = create_app(settings, cast(Store, self.current))
        path = store.path
        identity = None if path == ":memory:" else file_identity(path)
        guarded = DatabaseGuardMiddleware(self._apps[shape], db_path=path, identity=identity)
        return Serving(guarded, store)


class KeptConnections(httpx.BaseTransport):
    """The process's pool of loopback connections, lent to every test's client: closing
    a client leaves its connections for the next one (a new connection cost the service
    and the client 2 ms, more than most requests). A connection idle for a second is not
    lent again, well before the service's own keep-alive (5 s) ends it."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return _kept_pool().handle_request(request)

    def close(self) -> None:
        pass  # the pool outlives each client


@functools.cache
def _kept_pool() -> httpx.HTTPTransport:
    from tests.client.faults import LOOPBACK_TLS

    return httpx.HTTPTransport(
        verify=LOOPBACK_TLS,
        limits=httpx.Limits(
            max_connections=None, max_keepalive_connections=32, keepalive_expiry=1.0
        ),
    )
