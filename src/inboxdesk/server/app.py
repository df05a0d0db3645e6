"""The app factory of the local service."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI

from inboxdesk import __version__
from inboxdesk.models import ErrorBody
from inboxdesk.server.auth import AuthMiddleware
from inboxdesk.server.dbguard import DatabaseGuardMiddleware, file_identity
from inboxdesk.server.errors import install_handlers
from inboxdesk.server.idempotency import IdempotencyMiddleware
from inboxdesk.server.limits import BodyLimitMiddleware
from inboxdesk.server.ratelimit import RateLimitMiddleware
from inboxdesk.server.rawpath import RawPathMiddleware
from inboxdesk.server.routes import build_routers
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store


class ErrorsDocumented(FastAPI):
    """A FastAPI app whose OpenAPI document holds the error body's schema, to which every
    route's error responses refer (`ERRORS`, server/route_helpers.py)."""

    def openapi(self) -> dict[str, Any]:
        document = super().openapi()  # built once, then kept by FastAPI
        schemas: dict[str, Any] = document.setdefault("components", {}).setdefault("schemas", {})
        if ErrorBody.__name__ not in schemas:
            error = ErrorBody.model_json_schema(
                ref_template="#/components/schemas/{model}", mode="serialization"
            )
            schemas.update(error.pop("$defs", {}), **{ErrorBody.__name__: error})
            ordered = dict(sorted(schemas.items()))  # as FastAPI orders them
            schemas.clear()
            schemas.update(ordered)
        return document


def create_app(settings: ServerSettings, store: Store | None = None) -> FastAPI:
    """A FastAPI app serving the API over the database at `settings.db_path`."""
    store = store or Store(settings.db_path)
    app = ErrorsDocumented(
        title="inboxdesk local service",
        version=__version__,
        description="Set primary integration and mark in-app messages, on SQLite.",
    )
    app.state.store = store
    # The worker reads it too: a trigger's context picks its preferences only when on.
    store.context_preferences = settings.context_preferences
    routers = build_routers(store, settings)
    if settings.v2_inbox:
        from inboxdesk.server.bulk_routes import build_bulk_router

        routers.append(build_bulk_router(store))
    for router in routers:
        mount(app, router)
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


def mount(app: FastAPI, router: APIRouter) -> None:
    """`router`'s routes served by `app` as they were built (`api_router`): not through
    `include_router`, which builds each route's validators over again. Built on their
    own router, they do not see `app.dependency_overrides` (nothing here uses them)."""
    app.router.routes.extend(router.routes)
