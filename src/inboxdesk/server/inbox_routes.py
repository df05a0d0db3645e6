"""The v2 inbox routes: the subscriber's notifications, the
per-notification actions and bulk seen. Off (`ServerSettings.v2_inbox`), the service
answers 404 there as an older deployment does."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.route_helpers import ERRORS, Limit100, Whole, enveloped, off_loop, require_id
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import InboxAction, SnoozeTooSoon, Store
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

Offset = Annotated[int, Whole, Query(ge=0)]


class SnoozeBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    snoozeUntil: datetime


class SeenBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    notificationIds: list[str] | None = None


def build_inbox_router(store: Store, settings: ServerSettings) -> APIRouter:
    router = APIRouter(prefix="/v2/subscribers/{subscriberId}/notifications", responses=ERRORS)

    @router.get("", summary="A subscriber's in-app notifications, newest first", tags=["inbox"])
    async def list_notifications(
        request: Request,
        subscriberId: str,
        limit: Limit100 = 10,
        offset: Offset = 0,
        after: str | None = None,
        read: bool | None = None,
        seen: bool | None = None,
        archived: bool | None = None,
        snoozed: bool | None = None,
    ) -> JSONResponse:
        if after is not None:
            after = require_id("after", after)
        wanted: dict[str, Any] = {
            k: v
            for k, v in {
                "read": read,
                "seen": seen,
                "archived": archived,
                "snoozed": snoozed,
            }.items()
            if v is not None
        }
        data, has_more = await off_loop(
            store.inbox, caller_of(request.scope), subscriberId, wanted, limit, offset, after
        )
        return JSONResponse({"data": data, "hasMore": has_more, "filter": wanted})

    def action_route(action: InboxAction) -> None:
        @router.patch(
            f"/{{notificationId}}/{action.value}",
            summary=f"Mark one notification {action.value}",
            tags=["inbox"],
            name=f"inbox_{action.value}",
        )
        async def act(request: Request, subscriberId: str, notificationId: str) -> JSONResponse:
            notification_id = require_id("notificationId", notificationId)
            until = None
            if action is InboxAction.SNOOZE:
                until = await _snooze_until(request)
            try:
                item = await off_loop(
                    store.inbox_action,
                    caller_of(request.scope),
                    subscriberId,
                    notification_id,
                    action,
                    until,
                )
            except SnoozeTooSoon as exc:
                raise ApiValidationError("snoozeUntil", str(exc)) from None
            return enveloped(item)

    for action in InboxAction:
        action_route(action)

    @router.post("/seen", status_code=204, summary="Mark notifications seen", tags=["inbox"])
    async def seen(request: Request, subscriberId: str) -> Response:
        body = await _json(request)
        try:
            wanted = SeenBody.model_validate(body if body is not None else {})
        except ValueError:
            raise ApiValidationError(
                "notificationIds", "notificationIds must be an array"
            ) from None
        ids = None
        if wanted.notificationIds is not None:
            ids = [require_id("notificationIds", i) for i in wanted.notificationIds]
        await off_loop(store.inbox_seen, caller_of(request.scope), subscriberId, ids)
        return Response(status_code=204)

    return router


async def _json(request: Request) -> Any:
    from inboxdesk.server.wire import BadJson, read_query_json

    raw = await request.body()
    if not raw.strip():
        return None
    try:
        return read_query_json(raw.decode("utf-8"))
    except (BadJson, ValueError, UnicodeDecodeError):
        raise ApiValidationError("general", "The body is not valid JSON") from None


async def _snooze_until(request: Request) -> datetime:
    body = await _json(request)
    try:
        until = SnoozeBody.model_validate(body if isinstance(body, dict) else {}).snoozeUntil
    except ValueError:
        raise ApiValidationError(
            "snoozeUntil", "snoozeUntil must be a valid ISO 8601 date"
        ) from None
    if until.tzinfo is None:
        raise ApiValidationError("snoozeUntil", "snoozeUntil must carry a time zone")
    return until
