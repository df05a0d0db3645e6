"""A subscriber's preferences (v2): read them, change one workflow's or the global
ones, or several workflows' at once, all or nothing."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from inboxdesk.models.preference import MAX_BULK_PREFERENCES, Criticality
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError, error_response
from inboxdesk.server.route_helpers import ERRORS, enveloped, off_loop
from inboxdesk.server.store import Store
from inboxdesk.server.store.preferences import NotBoolean, WorkflowNotFound
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


async def _body(request: Request) -> dict[str, Any]:
    from inboxdesk.server.wire import BadJson, read_query_json

    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = read_query_json(raw.decode("utf-8"))
    except (BadJson, ValueError, UnicodeDecodeError):
        raise ApiValidationError("general", "The body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiValidationError("general", "The body must be a JSON object", None)
    return body


def _schedule(value: Any) -> dict[str, Any] | None:
    """A subscriber's schedule: `isEnabled`, and per weekday `isEnabled` and `hours`."""
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("isEnabled"), bool):
        raise ApiValidationError("schedule.isEnabled", "isEnabled must be a boolean value")
    weekly = value.get("weeklySchedule")
    if weekly is not None:
        if not isinstance(weekly, dict):
            raise ApiValidationError("schedule.weeklySchedule", "weeklySchedule must be an object")
        for day, plan in weekly.items():
            if day not in WEEKDAYS or not isinstance(plan, dict):
                raise ApiValidationError(
                    f"schedule.weeklySchedule.{day}", f"{day} must be a weekday's schedule"
                )
    return value


def _channels(value: Any, field: str = "channels") -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ApiValidationError(field, f"{field} must be an object", value)
    return value


def _refusal(request: Request, exc: Exception, command: str) -> JSONResponse:
    """The answers a change can get from the store that are not a plain 404 or 400."""
    if isinstance(exc, WorkflowNotFound):
        return error_response(request, 404, str(exc), workflowId=exc.workflow_id)
    assert isinstance(exc, NotBoolean)
    message = f"Validation failed for {command}: {exc.channel}: {exc}"
    errors = {exc.channel: {"messages": [str(exc)], "value": exc.value}}
    return error_response(request, 422, message, errors=errors)


def build_preference_router(store: Store) -> APIRouter:
    router = APIRouter(prefix="/v2/subscribers/{subscriberId}/preferences", responses=ERRORS)

    @router.get("", summary="A subscriber's preferences", tags=["preferences"])
    async def get_preferences(
        request: Request,
        subscriberId: str,
        criticality: Criticality = Criticality.NON_CRITICAL,
    ) -> JSONResponse:
        caller = caller_of(request.scope)
        return enveloped(await off_loop(store.preferences, caller, subscriberId, criticality))

    @router.patch("", summary="Change a subscriber's preferences", tags=["preferences"])
    async def patch_preferences(request: Request, subscriberId: str) -> JSONResponse:
        body = await _body(request)
        schedule = _schedule(body.get("schedule"))
        workflow_id = body.get("workflowId")
        if workflow_id is not None and not isinstance(workflow_id, str):
            raise ApiValidationError("workflowId", "workflowId must be a string", workflow_id)
        channels = _channels(body.get("channels"))
        caller = caller_of(request.scope)
        try:
            answer = await off_loop(
                store.update_preferences, caller, subscriberId, channels, workflow_id, schedule
            )
        except (WorkflowNotFound, NotBoolean) as exc:
            return _refusal(request, exc, "UpdatePreferencesCommand")
        return enveloped(answer)

    @router.patch("/bulk", summary="Change several workflows' preferences", tags=["preferences"])
    async def bulk_preferences(request: Request, subscriberId: str) -> JSONResponse:
        body = await _body(request)
        items = body.get("preferences")
        if not isinstance(items, list):
            raise ApiValidationError("preferences", "preferences must be an array", None)
        if len(items) > MAX_BULK_PREFERENCES:
            raise ApiValidationError(
                "preferences",
                f"preferences must contain no more than {MAX_BULK_PREFERENCES} elements",
            )
        changes = []
        for n, item in enumerate(items):
            spot = f"preferences.{n}"
            if not isinstance(item, dict) or not isinstance(item.get("workflowId"), str):
                raise ApiValidationError(f"{spot}.workflowId", "workflowId must be a string")
            if not isinstance(item.get("channels"), dict):
                raise ApiValidationError(f"{spot}.channels", "channels must be an object")
            changes.append((item["workflowId"], item["channels"]))
        caller = caller_of(request.scope)
        try:
            answer = await off_loop(store.update_preferences_bulk, caller, subscriberId, changes)
        except NotBoolean as exc:
            return _refusal(request, exc, "BulkUpdatePreferencesCommand")
        return enveloped(answer)

    return router
