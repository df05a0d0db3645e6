"""The v2 inbox's bulk operations on a subscriber's messages: read, archive,
read-archive and delete. Each answers 204 with no body and no count, and acts on every
channel's messages of the subscriber in the environment, filtered by the optional
`tags` (a string array, `{or}` or `{and: [{or}]}`), `data` (a string holding a JSON
object) and `contextKeys` (any of them)."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.inbox_routes import _json, json_data, tag_groups
from inboxdesk.server.route_helpers import api_router, off_loop
from inboxdesk.server.store import BulkOperation, Narrowing, Store


class BulkBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tags: Any = None
    data: Any = None
    contextKeys: Any = None


def build_bulk_router(store: Store) -> APIRouter:
    router = api_router(prefix="/v2/subscribers/{subscriberId}/notifications")

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
            body = BulkBody.model_validate(raw if isinstance(raw, dict) else {})
            keys = body.contextKeys
            if keys is not None and (
                not isinstance(keys, list) or not all(isinstance(k, str) for k in keys)
            ):
                raise ApiValidationError.general("contextKeys must be an array")
            if body.data is not None and not isinstance(body.data, str):
                raise ApiValidationError.general("data must be a string")
            narrow = Narrowing(
                tags=tag_groups(body.tags),
                data=json_data(body.data),
                context_keys=keys or None,
                any_context=True,
            )
            await off_loop(
                store.inbox_bulk, caller_of(request.scope), subscriberId, operation, narrow
            )
            return Response(status_code=204)

    for operation in BulkOperation:
        bulk_route(operation)
    return router
