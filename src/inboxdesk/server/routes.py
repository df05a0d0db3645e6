"""The HTTP endpoints: both operations and the listings of behaviour.md section 7."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from inboxdesk.models import (
    MAX_MARK_IDS,
    Channel,
    Data,
    ErrorBody,
    Integration,
    MarkAs,
    Message,
    Page,
    Subscriber,
    UnseenCount,
)
from inboxdesk.models.ids import is_object_id
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store

IdempotencyKey = Annotated[
    str | None,
    Header(alias="idempotency-key", description="Replays the first response for 24 hours"),
]
# Bounded so page * limit stays a SQLite integer (issue 9: a huge page was a 500).
PageNumber = Annotated[int, Query(ge=0, le=10**9, description="Zero-based page number")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
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


class MarkAsBody(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    message_id: str | list[str] = Field(alias="messageId")
    mark_as: MarkAs = Field(alias="markAs")

    @field_validator("message_id", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        ids = value if isinstance(value, list) else [value]
        if not isinstance(value, str | list):
            raise ValueError("messageId must be a message id or an array of message ids")
        if not ids:
            raise ValueError("messageId must not be an empty array")
        if len(ids) > MAX_MARK_IDS:
            raise ValueError(f"messageId must contain no more than {MAX_MARK_IDS} ids")
        bad = [i for i in ids if not is_object_id(i)]
        if bad:
            raise ValueError(
                f"messageId must hold 24-character hex ids; not one: {str(bad[0])[:40]!r}"
            )
        return value

    @property
    def ids(self) -> list[str]:
        return [self.message_id] if isinstance(self.message_id, str) else self.message_id


class MarkAllBody(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    mark_as: MarkAs = Field(alias="markAs")


def _require_id(name: str, value: str) -> None:
    if not is_object_id(value):
        raise ApiValidationError(name, f"{name} must be a 24-character hex id", value)


def _data(value: Any, status: int = 200) -> JSONResponse:
    return JSONResponse({"data": value}, status)


def build_router(store: Store, settings: ServerSettings) -> APIRouter:
    """The routes. They are async and call the store on the event loop: one SQLite
    statement takes well under a millisecond, and a thread hop per request cost more
    than the work itself (benchmarks/load.py). Writes are serialized by the loop."""
    router = APIRouter(prefix="/v1", responses=_ERRORS)

    async def pause() -> None:
        if settings.operation_delay:
            await asyncio.sleep(settings.operation_delay)

    @router.post(
        "/integrations/{integrationId}/set-primary",
        responses={200: {"model": Data[Integration]}, 400: {"model": ErrorBody}},
        summary="Set integration as primary",
        tags=["integrations"],
    )
    async def set_primary(
        request: Request, integrationId: str, idempotency_key: IdempotencyKey = None
    ) -> JSONResponse:
        _require_id("integrationId", integrationId)
        await pause()
        return _data(store.set_primary(caller_of(request.scope), integrationId))

    @router.get(
        "/integrations",
        responses={200: {"model": Data[list[Integration]]}},
        summary="List integrations",
        tags=["integrations"],
    )
    async def list_integrations(request: Request) -> JSONResponse:
        return _data(store.list_integrations(caller_of(request.scope)))

    @router.get(
        "/integrations/active",
        responses={200: {"model": Data[list[Integration]]}},
        summary="List active integrations",
        tags=["integrations"],
    )
    async def list_active_integrations(request: Request) -> JSONResponse:
        return _data(store.list_integrations(caller_of(request.scope), active_only=True))

    @router.post(
        "/subscribers/{subscriberId}/messages/mark-as",
        status_code=201,
        responses={201: {"model": Data[list[Message]]}},
        summary="Update notifications state",
        tags=["subscribers"],
    )
    async def mark_as(
        request: Request,
        subscriberId: str,
        body: MarkAsBody,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        await pause()
        caller = caller_of(request.scope)
        return _data(store.mark_as(caller, subscriberId, body.ids, body.mark_as), 201)

    @router.post(
        "/subscribers/{subscriberId}/messages/mark-all",
        status_code=201,
        responses={201: {"model": Data[int]}},
        summary="Mark all in-app messages of a subscriber",
        tags=["subscribers"],
    )
    async def mark_all(
        request: Request,
        subscriberId: str,
        body: MarkAllBody,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        await pause()
        caller = caller_of(request.scope)
        return _data(store.mark_all(caller, subscriberId, body.mark_as), 201)

    @router.get(
        "/subscribers",
        responses={200: {"model": Page[Subscriber]}},
        summary="List subscribers",
        tags=["subscribers"],
    )
    async def list_subscribers(
        request: Request,
        page: PageNumber = 0,
        limit: Annotated[int, Query(ge=1, le=100)] = 10,
    ) -> JSONResponse:
        data, has_more = store.list_subscribers(caller_of(request.scope), page, limit)
        return JSONResponse({"data": data, "page": page, "pageSize": limit, "hasMore": has_more})

    @router.get(
        "/subscribers/{subscriberId}",
        responses={200: {"model": Data[Subscriber]}},
        summary="Get a subscriber",
        tags=["subscribers"],
    )
    async def get_subscriber(request: Request, subscriberId: str) -> JSONResponse:
        return _data(store.get_subscriber(caller_of(request.scope), subscriberId))

    @router.get(
        "/subscribers/{subscriberId}/notifications/feed",
        responses={200: {"model": Page[Message]}},
        summary="A subscriber's in-app messages, newest first",
        tags=["subscribers"],
    )
    async def feed(
        request: Request,
        subscriberId: str,
        page: PageNumber = 0,
        limit: Annotated[int, Query(ge=1, le=100)] = 10,
        read: bool | None = None,
        seen: bool | None = None,
    ) -> JSONResponse:
        caller = caller_of(request.scope)
        data, total = store.feed(caller, subscriberId, page, limit, read, seen)
        return _page(data, page, limit, total)

    @router.get(
        "/subscribers/{subscriberId}/notifications/unseen",
        responses={200: {"model": Data[UnseenCount]}},
        summary="Count a subscriber's unseen in-app messages",
        tags=["subscribers"],
    )
    async def unseen(
        request: Request,
        subscriberId: str,
        seen: bool = False,
        limit: Annotated[int, Query(ge=1, le=100)] = 100,
    ) -> JSONResponse:
        count = store.unseen_count(caller_of(request.scope), subscriberId, seen, limit)
        return _data({"count": count})

    @router.get(
        "/messages",
        responses={200: {"model": Page[Message]}},
        summary="List messages of the environment, newest first",
        tags=["messages"],
    )
    async def list_messages(
        request: Request,
        channel: Channel | None = None,
        subscriberId: str | None = None,
        transactionId: Annotated[list[str] | None, Query()] = None,
        page: PageNumber = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 10,
    ) -> JSONResponse:
        data, total = store.list_messages(
            caller_of(request.scope), page, limit, channel, subscriberId, transactionId or ()
        )
        return _page(data, page, limit, total)

    return router


def _page(data: list[dict[str, Any]], page: int, limit: int, total: int) -> JSONResponse:
    return JSONResponse(
        {
            "data": data,
            "page": page,
            "pageSize": limit,
            "totalCount": total,
            "hasMore": (page + 1) * limit < total,
        }
    )
