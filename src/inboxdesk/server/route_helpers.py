"""What every router of the service shares: the error responses it documents, the
query number types, id checks, the `{"data": ...}` envelope, and running a store call
off the event loop."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, ParamSpec, TypeVar

from anyio import to_thread
from fastapi import APIRouter, Query
from pydantic import BeforeValidator

from inboxdesk.models import ErrorBody
from inboxdesk.models.ids import is_object_id
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.rawpath import RawPathRoute
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

P = ParamSpec("P")
R = TypeVar("R")


def _whole_number(value: Any) -> Any:
    """A query number as production reads one (a JSON number): `2.0` is 2; `2.5` stays
    a validation error."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        if number.is_integer():
            return int(number)
    return value


Whole = BeforeValidator(_whole_number)
# Bounded so page * limit stays a SQLite integer (a huge page was a 500).
PageNumber = Annotated[int, Whole, Query(ge=0, le=10**9, description="Zero-based page number")]
Limit100 = Annotated[int, Whole, Query(ge=1, le=100)]
# A query parameter that may be sent several times: every value, None when none was.
Many = Annotated[list[str] | None, Query()]

# Each error body is documented by reference to one schema, which the app adds once
# (`ErrorsDocumented`, server/app.py): as a `model` here, FastAPI built a validator of it
# for each code of each route, a third of the service's start.
ERROR_BODY: dict[str, Any] = {
    "application/json": {"schema": {"$ref": f"#/components/schemas/{ErrorBody.__name__}"}}
}
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"description": text, "content": ERROR_BODY}
    for code, text in {
        400: "Bad request, such as an empty or over-long Idempotency-Key",
        401: "Missing, malformed or unknown API key",
        404: "Not found in the caller's environment",
        409: "The idempotency key is in use by a request still running",
        413: "Body larger than 100 kB",
        422: "Validation error, with per-field `errors`",
        429: "Rate limit exceeded; see Retry-After",
    }.items()
}


def api_router(prefix: str = "", tags: list[str] | None = None) -> APIRouter:
    """A router of the service's routes, each built whole where it is declared: the
    errors it documents and the decoding of its path parameters (server/rawpath.py).

    `create_app` moves the routes into the app as built (`mount`): FastAPI builds every
    route's validators again at each `include_router`, which had tripled the cost of
    starting the service.
    """
    return APIRouter(
        prefix=prefix,
        responses=ERRORS,
        tags=list(tags or []),
        # Ids are routed as sent (server/rawpath.py): `a/b` or `..` is one path segment.
        route_class=RawPathRoute,
    )


async def off_loop(call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run a store call in one of anyio's worker threads and await its result."""
    return await to_thread.run_sync(partial(call, *args, **kwargs))


def require_id(name: str, value: str, command: str | None = None) -> str:
    """The id as stored (lower case): production's ObjectIds read upper-case hex too.
    `command`: the command whose validation production words the refusal with."""
    if not is_object_id(value.lower()):
        error = ApiValidationError(name, f"{name} must be a mongodb id", value)
        if command is not None:
            error.headline = f"Validation failed for {command}: {name}: {name} must be a mongodb id"
        raise error
    return value.lower()


def enveloped(value: Any, status: int = 200) -> JSONResponse:
    """A success body in its envelope."""
    return JSONResponse({"data": value}, status)
