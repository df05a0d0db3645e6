"""A subscriber's preferences (v2): read them, change one workflow's or the global
ones, or several workflows' at once, all or nothing; each for one context when the
service keeps preferences per context (`contexts`), else for none whatever is asked."""

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from inboxdesk.models.preference import MAX_BULK_PREFERENCES, Criticality
from inboxdesk.server.activity_routes import CommandValidationError
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError, error_response
from inboxdesk.server.route_helpers import api_router, enveloped, off_loop
from inboxdesk.server.store import Store
from inboxdesk.server.store.preferences import (
    NO_CONTEXT,
    NotBoolean,
    WorkflowNotFound,
    context_of,
)
from inboxdesk.server.trigger_routes import MAX_CONTEXTS, context_keys_of
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


async def _body(request: Request) -> dict[str, Any]:
    from inboxdesk.server.wire import BadJson, read_body_json

    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = read_body_json(raw.decode("utf-8"))
    except (BadJson, ValueError, UnicodeDecodeError):
        raise ApiValidationError("general", "The body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiValidationError("general", "The body must be a JSON object", None)
    return body


TIME_12H = re.compile(r"^(0?[1-9]|1[0-2]):[0-5][0-9]\s?(AM|PM)$", re.IGNORECASE)


def schedule_errors(value: Any) -> list[str]:
    """What production's schedule DTO says of a schedule, in its order; none: valid."""
    if not isinstance(value, dict):
        return ["schedule.isEnabled must be a boolean value"]
    said = []
    if not isinstance(value.get("isEnabled"), bool):
        said.append("schedule.isEnabled must be a boolean value")
    weekly = value.get("weeklySchedule")
    if weekly is None:
        return said
    if not isinstance(weekly, dict):
        return [*said, "schedule.nested property weeklySchedule must be either object or array"]
    for day in WEEKDAYS:
        plan = weekly.get(day)
        spot = f"schedule.weeklySchedule.{day}"
        if plan is None:
            continue
        if not isinstance(plan, dict):
            said.append(
                f"schedule.weeklySchedule.nested property {day} must be either object or array"
            )
            continue
        if not isinstance(plan.get("isEnabled"), bool):
            said.append(f"{spot}.isEnabled must be a boolean value")
        hours = plan.get("hours")
        if hours is None:
            continue
        if not isinstance(hours, list):
            said.append(f"{spot}.nested property hours must be either object or array")
            continue
        for n, hour in enumerate(hours):
            for end in ("start", "end"):
                text = hour.get(end) if isinstance(hour, dict) else None
                if not isinstance(text, str):
                    said.append(f"{spot}.hours.{n}.{end} must be a string")
                if not isinstance(text, str) or not TIME_12H.match(text):
                    said.append(
                        f"{spot}.hours.{n}.{end} must be in 12-hour format "
                        "(e.g., 09:00 AM or 9:00 AM)"
                    )
    if value.get("isEnabled") is True:
        if not weekly:
            said.append(
                "weeklySchedule must contain at least one day configuration when isEnabled is true"
            )
        elif unknown := [d for d in weekly if d not in WEEKDAYS]:
            said.append(
                f"weeklySchedule contains invalid day names: {', '.join(unknown)}. "
                f"Valid days are: {', '.join(WEEKDAYS)}"
            )
    return said


def _schedule(value: Any) -> dict[str, Any] | None:
    """A subscriber's schedule, checked before anything is stored (a bad one stored would
    break every later read of the preferences): `isEnabled`, and per weekday
    `isEnabled` and `hours` in 12-hour form. Unknown days are left out."""
    if value is None:
        return None
    said = schedule_errors(value)
    if said:
        raise ApiValidationError.general(*said)
    weekly = value.get("weeklySchedule")
    if isinstance(weekly, dict):
        value = {**value, "weeklySchedule": {d: p for d, p in weekly.items() if d in WEEKDAYS}}
    return dict(value)


def _channels(value: Any) -> dict[str, Any]:
    """`channels`: anything but an object changes nothing, as production spreads it."""
    return value if isinstance(value, dict) else {}


def _context(value: Any, contexts: bool) -> str:
    """A change's `context` as stored, checked as a trigger's is (production's DTO
    checks it either way); then dropped when the service does not keep preferences per
    context (production: "Ignore context when FF is off")."""
    if value is None:
        return NO_CONTEXT
    said: list[str] = []
    keys = context_keys_of(value, said)
    if said:
        raise ApiValidationError.general(*said)
    return context_of(keys) if contexts else NO_CONTEXT


def _refusal(request: Request, exc: Exception, command: str) -> JSONResponse:
    """The answers a change can get from the store that are not a plain 404 or 400."""
    if isinstance(exc, WorkflowNotFound):
        return error_response(request, 404, str(exc), workflowId=exc.workflow_id)
    assert isinstance(exc, NotBoolean)
    message = f"Validation failed for {command}: {exc.channel}: {exc}"
    errors = {exc.channel: {"messages": [str(exc)], "value": exc.value}}
    return error_response(request, 422, message, errors=errors)


def build_preference_router(store: Store, contexts: bool = False) -> APIRouter:
    router = api_router(prefix="/v2/subscribers/{subscriberId}/preferences")

    @router.get("", summary="A subscriber's preferences", tags=["preferences"])
    async def get_preferences(
        request: Request,
        subscriberId: str,
        criticality: Annotated[
            str, Query(description="nonCritical (default), critical or all")
        ] = Criticality.NON_CRITICAL.value,
        contextKeys: Annotated[
            list[str] | None,
            Query(description="type:id, repeated: the records of exactly that context"),
        ] = None,
    ) -> JSONResponse:
        if criticality not in {c.value for c in Criticality}:
            raise ApiValidationError.general(
                "criticality must be one of the following values: critical, nonCritical, all"
            )
        caller = caller_of(request.scope)
        wanted = Criticality(criticality)
        # None or `contextKeys=` alone: the no-context records.
        context = context_of(contextKeys or ()) if contexts else NO_CONTEXT
        if context and len(contextKeys or ()) > MAX_CONTEXTS:
            raise ApiValidationError.general(
                f"contextKeys must contain no more than {MAX_CONTEXTS} elements"
            )
        return enveloped(
            await off_loop(store.preferences, caller, subscriberId, wanted, context=context)
        )

    @router.patch("", summary="Change a subscriber's preferences", tags=["preferences"])
    async def patch_preferences(request: Request, subscriberId: str) -> JSONResponse:
        body = await _body(request)
        schedule = _schedule(body.get("schedule"))
        context = _context(body.get("context"), contexts)
        workflow_id = body.get("workflowId")
        if workflow_id is not None and not isinstance(workflow_id, str):
            field = "workflowIdOrInternalId"
            error = CommandValidationError(
                "UpdateSubscriberPreferencesCommand",
                field,
                f"{field} must be a string",
                workflow_id,
            )
            raise error
        channels = _channels(body.get("channels"))
        caller = caller_of(request.scope)
        try:
            answer = await off_loop(
                store.update_preferences,
                caller,
                subscriberId,
                channels,
                workflow_id,
                schedule,
                context,
            )
        except (WorkflowNotFound, NotBoolean) as exc:
            return _refusal(request, exc, "UpdatePreferencesCommand")
        return enveloped(answer)

    @router.patch("/bulk", summary="Change several workflows' preferences", tags=["preferences"])
    async def bulk_preferences(request: Request, subscriberId: str) -> JSONResponse:
        body = await _body(request)
        items = body.get("preferences")
        # Production's DTO first: an array of at most 100 items, each naming a workflow.
        if not isinstance(items, list):
            said = ["preferences must contain no more than 100 elements"]
            said.append("preferences must be an array")
            if items is None:
                said.insert(0, "preferences should not be null or undefined")
            said.append("nested property preferences must be either object or array")
            raise ApiValidationError.general(*said)
        if len(items) > MAX_BULK_PREFERENCES:
            raise ApiValidationError.general(
                f"preferences must contain no more than {MAX_BULK_PREFERENCES} elements"
            )
        context = _context(body.get("context"), contexts)
        changes = []
        for n, item in enumerate(items):
            spot = f"preferences.{n}"
            if not isinstance(item, dict):
                raise ApiValidationError.general(
                    f"{spot}.nested property preferences must be either object or array"
                )
            if not isinstance(item.get("workflowId"), str):
                said = [f"{spot}.workflowId must be a string"]
                if item.get("workflowId") is None:
                    said.insert(0, f"{spot}.workflowId should not be null or undefined")
                raise ApiValidationError.general(*said)
            # An item without channels (or not an object) changes nothing.
            changes.append((item["workflowId"], _channels(item.get("channels"))))
        caller = caller_of(request.scope)
        try:
            answer = await off_loop(
                store.update_preferences_bulk, caller, subscriberId, changes, context
            )
        except NotBoolean as exc:
            # Production checks each item as one UpdatePreferencesCommand.
            return _refusal(request, exc, "UpdatePreferencesCommand")
        return enveloped(answer)

    return router
