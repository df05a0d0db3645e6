"""The activity feed (`GET /v1/notifications`) and one notification with its jobs and
execution details (`GET /v1/notifications/{id}`), scoped to the key's environment."""

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from inboxdesk.models.ids import is_object_id
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError, PaymentRequired
from inboxdesk.server.route_helpers import Many, api_router, enveloped, off_loop
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import ActivityQuery, NotAllowed, Store, iso
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

# The feed's page size, as production bounds it.
MAX_LIMIT = 50
CHANNELS = ("in_app", "email", "sms", "chat", "push", "tool")
SEVERITIES = ("high", "medium", "low", "none")


class CommandValidationError(ApiValidationError):
    """A 422 keyed by the field, worded as production's command validation words it."""

    def __init__(self, command: str, field: str, message: str, value: Any = None) -> None:
        super().__init__(field, message, value)
        self.headline = f"Validation failed for {command}: {field}: {message}"


def _number(name: str, text: str | None, default: int, low: int, high: int | None) -> int:
    """A page or limit as production's DTO reads it (a JSON number, whole), else a 422
    under `general` with every sentence its validators give, in their order."""
    if text is None:
        return default
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    said = []
    # A comparison with NaN is false, so text that is no number fails every check.
    if high is not None and not number <= high:
        said.append(f"{name} must not be greater than {high}")
    if not number >= low:
        said.append(f"{name} must not be less than {low}")
    if not number.is_integer():
        said.append(f"{name} must be an integer number")
    if said:
        error = ApiValidationError.general(*said)
        error.errors["general"]["value"] = text
        raise error
    return int(number)


def _date(name: str, text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise NotAllowed(
            f"Invalid date format for parameter '{name}': {text}. "
            "Please provide a valid ISO 8601 date string."
        ) from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def build_activity_router(store: Store, settings: ServerSettings) -> APIRouter:
    router = api_router(prefix="/v1/notifications", tags=["activity"])
    command = "GetActivityFeedCommand"

    @router.get("", summary="List all events (the activity feed), newest first")
    async def list_notifications(
        request: Request,
        page: Annotated[str | None, Query(description="zero-based page")] = None,
        limit: Annotated[str | None, Query(description="1 to 50")] = None,
        subscriberIds: Many = None,
        transactionId: Many = None,
        channels: Many = None,
        templates: Many = None,
        emails: Many = None,
        severity: Many = None,
        contextKeys: Many = None,
        topicKey: str | None = None,
        subscriptionId: str | None = None,
        search: str | None = None,
        after: str | None = None,
        before: str | None = None,
    ) -> JSONResponse:
        number = _number("page", page, 0, 0, 10**9)
        size = _number("limit", limit, 10, 1, MAX_LIMIT)
        for value in channels or ():
            if value not in CHANNELS:
                raise CommandValidationError(
                    command,
                    "channels",
                    "each value in channels must be one of the following values: "
                    + ", ".join(CHANNELS),
                    channels,
                )
        for value in templates or ():
            if not is_object_id(value.lower()):
                raise CommandValidationError(
                    command, "templates", "each value in templates must be a mongodb id", templates
                )
        if any(value not in SEVERITIES for value in severity or ()):
            # Production's validator of this field has no message of its own.
            raise ApiValidationError.general("")
        start, end = _date("after", after), _date("before", before)
        if start is not None and end is not None and start > end:
            raise NotAllowed(
                "Invalid date range: start date (after) must be earlier than end date (before)"
            )
        hours = settings.activity_retention_hours
        if hours is not None:
            # As production's: an hour's grace, and both ends checked.
            earliest = datetime.now(UTC) - timedelta(hours=hours)
            if any(d is not None and d < earliest - timedelta(hours=1) for d in (start, end)):
                raise PaymentRequired(
                    "Requested date range exceeds your plan's retention period. "
                    f"The earliest accessible date for your plan is {earliest.date().isoformat()}."
                    " Please upgrade your plan to access older activities."
                )
        query = ActivityQuery(
            page=number,
            limit=size,
            subscriber_ids=subscriberIds or (),
            transaction_ids=transactionId or (),
            channels=channels or (),
            templates=[t.lower() for t in templates or ()],
            emails=emails or (),
            severity=severity or (),
            # An empty `contextKeys=` asks for notifications with no context.
            context_keys=None if contextKeys is None else [k for k in contextKeys if k],
            topic_key=topicKey,
            subscription_id=subscriptionId,
            search=search or None,
            after=None if start is None else iso(start),
            before=None if end is None else iso(end),
        )
        found = await off_loop(store.list_activity, caller_of(request.scope), query)
        if found is None:
            return JSONResponse({"data": [], "page": 0, "pageSize": size, "hasMore": False})
        # No total: `hasMore` says only that this page is full.
        return JSONResponse(
            {"data": found, "page": number, "pageSize": size, "hasMore": len(found) == size}
        )

    @router.get("/{notificationId}", summary="Retrieve an event with its jobs and details")
    async def get_notification(request: Request, notificationId: str) -> JSONResponse:
        if not is_object_id(notificationId.lower()):
            raise CommandValidationError(
                "GetActivityCommand",
                "notificationId",
                "notificationId must be a mongodb id",
                notificationId,
            )
        found = await off_loop(store.get_activity, caller_of(request.scope), notificationId.lower())
        return enveloped(found)

    return router
