"""The app factory of the local service."""

from __future__ import annotations

from fastapi import Depends, FastAPI

from inboxdesk import __version__
from inboxdesk.server.auth import AuthMiddleware
from inboxdesk.server.dbguard import DatabaseGuardMiddleware, file_identity
from inboxdesk.server.errors import install_handlers
from inboxdesk.server.idempotency import IdempotencyMiddleware
from inboxdesk.server.limits import BodyLimitMiddleware
from inboxdesk.server.ratelimit import RateLimitMiddleware
from inboxdesk.server.rawpath import RawPathMiddleware, decoded_path_params
from inboxdesk.server.routes import build_router
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store


def create_app(settings: ServerSettings, store: Store | None = None) -> FastAPI:
    """A FastAPI app serving the API over the database at `settings.db_path`."""
    store = store or Store(settings.db_path)
    app = FastAPI(
        title="inboxdesk local service",
        version=__version__,
        description="Set primary integration and mark in-app messages, on SQLite.",
        # Ids are routed as sent (server/rawpath.py): `a/b` or `..` is one path segment.
        dependencies=[Depends(decoded_path_params)],
    )
    app.state.store = store
    # The worker reads it too: a trigger's context picks its preferences only when on.
    store.context_preferences = settings.context_preferences
    app.include_router(build_router(store, settings))
    if settings.v2_inbox:
        from inboxdesk.server.bulk_routes import build_bulk_router

        app.include_router(build_bulk_router(store))
    install_handlers(app)
    # Added innermost first: a request passes raw path, database guard, body limit,
    # auth, rate limit, idempotency.
    app.add_middleware(IdempotencyMiddleware, store=store)
    if settings.rate_limit is not None:
        app.add_middleware(RateLimitMiddleware, limit=settings.rate_limit)
    app.add_middleware(AuthMiddleware, store=store)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    identity = None if store.path == ":memory:" else file_identity(store.path)
    app.add_middleware(DatabaseGuardMiddleware, db_path=store.path, identity=identity)
    app.add_middleware(RawPathMiddleware)
    return app
