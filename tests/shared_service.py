"""The test run's one service: a server started once, each test swapping its own store
and settings in (test scaffolding, kept out of src/)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from inboxdesk.server.app import create_app
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store


class Swappable:
    """An ASGI app that hands each request to whichever app it holds now."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


class SharedService:
    """One running server; `replace` serves other settings and another store from it,
    on the same port and thread. Requests in flight finish on the app they started on."""

    def __init__(self, settings: ServerSettings, store: Store) -> None:
        self.swappable = Swappable(create_app(settings, store))
        self.thread = ServiceThread(settings, store, app=self.swappable)

    def start(self) -> SharedService:
        self.thread.start()
        return self

    def replace(self, settings: ServerSettings, store: Store | None = None) -> ServiceThread:
        self.swappable.app = create_app(settings, store)
        self.thread.settings = settings
        self.thread.store = store
        return self.thread
