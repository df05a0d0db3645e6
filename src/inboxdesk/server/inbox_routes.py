"""The v2 inbox routes: the subscriber's notifications, the per-notification actions
and bulk seen, with production's filters (read as production reads them: a boolean is
true only as the text `true`) and its words. Off (`ServerSettings.v2_inbox`), the
service answers 404 there as an older deployment does."""

import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from inboxdesk.models.ids import is_object_id
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.route_helpers import Many, api_router, enveloped, off_loop, require_id
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import InboxAction, Narrowing, NotAllowed, SnoozeTooSoon, Store
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

Flag = Annotated[str | None, Query()]
SEVERITIES = ("high", "medium", "low", "none")
BAD_DATA = "Invalid JSON format for data parameter"
TOO_SOON = "Snooze time must be at least 60 seconds in the future"
# The command whose validation production words an action's bad id with.
COMMANDS = {
    InboxAction.READ: "MarkNotificationAsCommand",
    InboxAction.UNREAD: "MarkNotificationAsCommand",
    InboxAction.ARCHIVE: "MarkNotificationAsCommand",
    InboxAction.UNARCHIVE: "MarkNotificationAsCommand",
    InboxAction.SNOOZE: "SnoozeNotificationCommand",
    InboxAction.UNSNOOZE: "UnsnoozeNotificationCommand",
}


class SnoozeBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    snoozeUntil: datetime


class SeenBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    notificationIds: list[str] | None = None
    tags: Any = None
    data: Any = None
    contextKeys: list[str] | None = None


def build_inbox_router(store: Store, settings: ServerSettings) -> APIRouter:
    router = api_router(prefix="/v2/subscribers/{subscriberId}/notifications")

    @router.get("", summary="A subscriber's in-app notifications, newest first", tags=["inbox"])
    async def list_notifications(
        request: Request,
        subscriberId: str,
        limit: Annotated[str | None, Query(description="1 to 100")] = None,
        offset: Annotated[str | None, Query(description="0 or more")] = None,
        after: str | None = None,
        read: Flag = None,
        seen: Flag = None,
        archived: Flag = None,
        snoozed: Flag = None,
        severity: Many = None,
        tags: Many = None,
        data: str | None = None,
        createdGte: str | None = None,
        createdLte: str | None = None,
        contextKeys: Many = None,
    ) -> JSONResponse:
        size = whole("limit", limit, 10, 1, 100)
        skip = whole("offset", offset, 0, 0, None)
        if after is not None and not is_object_id(after.lower()):
            raise ApiValidationError.general("The after cursor must be a valid MongoDB ObjectId")
        after = None if after is None else after.lower()
        # Production's booleans: only the text `true` is true; any other text is false.
        wanted: dict[str, Any] = {
            k: v == "true"
            for k, v in {
                "read": read,
                "seen": seen,
                "archived": archived,
                "snoozed": snoozed,
            }.items()
            if v is not None
        }
        narrow, echoed = narrowing(severity, tags, data, createdGte, createdLte, contextKeys)
        found, has_more = await off_loop(
            store.inbox,
            caller_of(request.scope),
            subscriberId,
            wanted,
            size,
            skip,
            after,
            narrow,
        )
        return JSONResponse({"data": found, "hasMore": has_more, "filter": {**wanted, **echoed}})

    def action_route(action: InboxAction) -> None:
        @router.patch(
            f"/{{notificationId}}/{action.value}",
            summary=f"Mark one notification {action.value}",
            tags=["inbox"],
            name=f"inbox_{action.value}",
        )
        async def act(request: Request, subscriberId: str, notificationId: str) -> JSONResponse:
            notification_id = require_id("notificationId", notificationId, COMMANDS[action])
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
            except SnoozeTooSoon:
                raise ApiValidationError.general(TOO_SOON) from None
            return enveloped(item)

    for action in InboxAction:
        action_route(action)

    @router.post("/seen", status_code=204, summary="Mark notifications seen", tags=["inbox"])
    async def seen(request: Request, subscriberId: str) -> Response:
        body = await _json(request)
        try:
            wanted = SeenBody.model_validate(body if body is not None else {})
        except ValueError:
            raise ApiValidationError.general(
                "notificationIds must be an array", "contextKeys must be an array"
            ) from None
        ids = None
        if wanted.notificationIds is not None:
            if not all(
                isinstance(i, str) and is_object_id(i.lower()) for i in wanted.notificationIds
            ):
                raise ApiValidationError.general(
                    "each value in notificationIds must be a mongodb id"
                )
            ids = [i.lower() for i in wanted.notificationIds]
        if wanted.data is not None and not isinstance(wanted.data, str):
            raise ApiValidationError.general("data must be a string")
        # Every filter narrows the write: one that matches nothing marks nothing.
        narrow = Narrowing(
            tags=tag_groups(wanted.tags),
            data=json_data(wanted.data),
            context_keys=wanted.contextKeys or None,
            any_context=True,
        )
        await off_loop(store.inbox_seen, caller_of(request.scope), subscriberId, ids, narrow)
        return Response(status_code=204)

    return router


def whole(name: str, text: str | None, default: int, low: int, high: int | None) -> int:
    """A page's limit or offset as production's DTO reads it: a whole number within its
    bounds, else a 422 under `general` with every sentence its validators give."""
    if text is None:
        return default
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    said = []
    if not number.is_integer():
        said.append(f"{name} must be an integer number")
    if not number >= low:
        said.append(f"{name} must not be less than {low}")
    if high is not None and not number <= high:
        said.append(f"{name} must not be greater than {high}")
    if said:
        raise ApiValidationError.general(*said)
    return int(number)


def _whole_ms(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value.is_integer():
        raise ApiValidationError.general(f"{name} must be an integer number")
    return int(value)


def severities(values: Any) -> list[str]:
    """`severity`: a severity or a list of them, else a 422 (production's validator has
    no message of its own)."""
    listed = values if isinstance(values, list) else [values]
    if not all(isinstance(v, str) and v in SEVERITIES for v in listed):
        raise ApiValidationError.general("")
    return listed


def json_data(value: Any) -> dict[str, Any] | None:
    """`data`: a JSON string holding an object; not JSON: a 400."""
    if value is None:
        return None
    try:
        found = json.loads(value)
    except ValueError:
        raise NotAllowed(BAD_DATA) from None
    if not isinstance(found, dict):
        raise NotAllowed(BAD_DATA)
    return found


def tag_groups(value: Any, field: str = "tags") -> list[list[str]]:
    """`tags` as production reads them: a string array (one group: any of them), `{or:
    [...]}`, or `{and: [{or: [...]}, ...]}` (every group matches one of its tags)."""

    def strings(items: Any) -> list[str]:
        if not isinstance(items, list) or not all(isinstance(t, str) for t in items):
            raise ApiValidationError.general(
                f"{field} must be string[] (OR), {{ or: string[] }}, or "
                "{ and: Array<{ or: string[] }> }"
            )
        return items

    if value is None:
        return []
    if isinstance(value, dict) and set(value) == {"or"}:
        return [strings(value["or"])]
    if isinstance(value, dict) and set(value) == {"and"} and isinstance(value["and"], list):
        return [
            strings(g.get("or") if isinstance(g, dict) and set(g) == {"or"} else None)
            for g in value["and"]
        ]
    return [strings(value)]


def narrowing(
    severity: list[str] | None,
    tags: list[str] | None,
    data: str | None,
    created_gte: str | None,
    created_lte: str | None,
    context_keys: list[str] | None,
) -> tuple[Narrowing, dict[str, Any]]:
    """The v2 list's filters beyond the flags, validated, and as `filter` echoes them."""
    found = Narrowing(
        severity=severities(severity) if severity is not None else (),
        tags=[tags] if tags else (),
        data=json_data(data),
        created_gte=_whole_ms("createdGte", created_gte),
        created_lte=_whole_ms("createdLte", created_lte),
        # An empty `contextKeys=` asks for messages with no context.
        context_keys=None if context_keys is None else [k for k in context_keys if k],
    )
    echoed: dict[str, Any] = {}
    for key, value in (
        ("severity", list(found.severity)),
        ("tags", tags),
        ("data", found.data),
        ("createdGte", found.created_gte),
        ("createdLte", found.created_lte),
        ("contextKeys", found.context_keys),
    ):
        if value is not None and value != []:
            echoed[key] = value
    return found, echoed


async def _json(request: Request) -> Any:
    from inboxdesk.server.wire import BadJson, read_body_json

    raw = await request.body()
    if not raw.strip():
        return None
    try:
        return read_body_json(raw.decode("utf-8"))
    except (BadJson, ValueError, UnicodeDecodeError):
        raise ApiValidationError("general", "The body is not valid JSON") from None


async def _snooze_until(request: Request) -> datetime:
    body = await _json(request)
    try:
        until = SnoozeBody.model_validate(body if isinstance(body, dict) else {}).snoozeUntil
    except ValueError:
        raise ApiValidationError.general("snoozeUntil must be a Date instance", TOO_SOON) from None
    # A time without a zone is read as the service's time, UTC, as production reads it.
    return until if until.tzinfo is not None else until.replace(tzinfo=UTC)
