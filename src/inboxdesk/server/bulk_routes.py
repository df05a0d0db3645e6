"""The v2 inbox's bulk operations on a subscriber's messages: read, archive,
read-archive and delete. Each answers 204 with no body and no count, and acts on every
channel's messages of the subscriber in the environment, filtered by the optional
`tags`, `data` (a JSON object, or a string holding one) and `contextKeys` (any)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.inbox_routes import _json
from inboxdesk.server.route_helpers import ERRORS, off_loop
from inboxdesk.server.store import BulkOperation, NotAllowed, Store

BAD_DATA = "Invalid JSON format for data parameter"


class BulkBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tags: list[str] | None = None
    data: Any = None
    contextKeys: list[str] | None = None


def build_bulk_router(store: Store) -> APIRouter:
    router = APIRouter(prefix="/v2/subscribers/{subscriberId}/notifications", responses=ERRORS)

    def bulk_route(operation: BulkOperation) -> None:
        @router.post(
            f"/{operation.value}",
            status_code=204,
            summary=f"Bulk {operation.value} of every message of the subscriber",
            tags=["inbox"],
            name=f"inbox_bulk_{operation.value.replace('-', '_')}",
        )
        async def bulk(request: Request, subscriberId: str) -> Response:
            raw = await _json(request)
            try:
                body = BulkBody.model_validate(raw if raw is not None else {})
            except ValueError:
                raise ApiValidationError(
                    "tags", "tags and contextKeys must be arrays of strings"
                ) from None
            await off_loop(
                store.inbox_bulk,
                caller_of(request.scope),
                subscriberId,
                operation,
                body.tags or (),
                _data(body.data),
                body.contextKeys or (),
            )
            return Response(status_code=204)

    for operation in BulkOperation:
        bulk_route(operation)
    return router


def _data(value: Any) -> dict[str, Any] | None:
    """The `data` filter: a JSON object, given as one or as a string that holds one."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise NotAllowed(BAD_DATA) from None
    if not isinstance(value, dict):
        raise NotAllowed(BAD_DATA)
    return value
