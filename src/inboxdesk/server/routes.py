"""The HTTP endpoints: both operations and the listings production serves."""

import asyncio
import base64
import binascii
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request

from inboxdesk.models import (
    COUNT_CAP,
    Channel,
    CursorPage,
    Data,
    Environment,
    ErrorBody,
    FeedItem,
    Integration,
    MarkAllRequest,
    MarkAsRequest,
    Message,
    NotificationCount,
    Page,
    Subscriber,
    UnseenCount,
)
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.inbox_routes import BAD_DATA, build_inbox_router, json_data, severities
from inboxdesk.server.route_helpers import (
    Limit100,
    PageNumber,
    Whole,
    api_router,
    enveloped,
    off_loop,
    require_id,
)
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import (
    SUBSCRIBER_COUNT_CAP,
    NotAllowed,
    Store,
    SubscriberSearch,
)
from inboxdesk.server.wire import BadJson, read_query_json
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

IdempotencyKey = Annotated[
    str | None,
    Header(alias="idempotency-key", description="Replays the first response for 24 hours"),
]
# Production's words for a larger `limit` on /v1/messages (a 400, not a 422).
MAX_MESSAGES_LIMIT = 1000
# Production's cap on the filters of one count request.
MAX_COUNT_FILTERS = 30


def _payload(encoded: str | None) -> Any:
    """The feed's `payload` query: base64 of a JSON value, read as production reads it
    (lenient base64, either alphabet, padding optional); anything else is a 400."""
    if not encoded:
        return None
    text = re.sub(r"[^A-Za-z0-9+/]", "", encoded.replace("-", "+").replace("_", "/"))
    try:
        # Bounded: no NaN, no lone surrogate, not too deep or wide (server/wire.py).
        return read_query_json(base64.b64decode(text + "=" * (-len(text) % 4)).decode())
    except (ValueError, binascii.Error):
        raise NotAllowed(
            "Invalid payload, the JSON object should be encoded to base64 string."
        ) from None


def add_get_subscriber(router: APIRouter, store: Store) -> None:
    """`GET …/subscribers/{id}`, the same in v1 and v2: one route, on both routers."""

    async def get_subscriber(request: Request, subscriberId: str) -> JSONResponse:
        caller = caller_of(request.scope)
        return enveloped(await off_loop(store.get_subscriber, caller, subscriberId))

    router.add_api_route(
        "/subscribers/{subscriberId}",
        get_subscriber,
        methods=["GET"],
        responses={200: {"model": Data[Subscriber]}},
        summary="Get a subscriber",
        tags=["subscribers"],
    )


def build_routers(store: Store, settings: ServerSettings) -> list[APIRouter]:
    """The routes, by router, in the order they are matched. Every store call runs in a
    worker thread (`off_loop`), so a slow statement or a write waiting for SQLite's lock
    never stalls the event loop; the store lets one transaction write at a time."""
    router = api_router(prefix="/v1")

    org_wide = settings.org_wide_integrations

    def shown(integration: dict[str, Any], listed: bool = True) -> dict[str, Any]:
        """An integration as API-key callers get it from production: lists carry
        `credentials: {}`, set primary none, and neither the inbound webhook's signing
        key. Older deployments sent them decrypted."""
        if not settings.send_credentials:
            if listed:
                integration["credentials"] = {}
            else:
                integration.pop("credentials", None)
            configurations = integration.get("configurations")
            if isinstance(configurations, dict):
                configurations.pop("inboundWebhookSigningKey", None)
        return integration

    async def pause() -> None:
        if settings.operation_delay:
            await asyncio.sleep(settings.operation_delay)

    @router.post(
        "/integrations/{integrationId}/set-primary",
        responses={
            200: {"model": Data[Integration]},
            400: {"model": ErrorBody},
            403: {"model": ErrorBody, "description": "The integration is another environment's"},
        },
        summary="Set integration as primary",
        tags=["integrations"],
    )
    async def set_primary(
        request: Request, integrationId: str, idempotency_key: IdempotencyKey = None
    ) -> JSONResponse:
        stored = require_id("integrationId", integrationId, "SetIntegrationAsPrimaryCommand")
        await pause()
        item = await off_loop(store.set_primary, caller_of(request.scope), stored, org_wide)
        return enveloped(shown(item, listed=False))

    @router.get(
        "/integrations",
        responses={200: {"model": Data[list[Integration]]}},
        summary="List integrations",
        tags=["integrations"],
    )
    async def list_integrations(request: Request) -> JSONResponse:
        return enveloped(
            [
                shown(i)
                for i in await off_loop(
                    store.list_integrations, caller_of(request.scope), org_wide=org_wide
                )
            ]
        )

    @router.get(
        "/integrations/active",
        responses={200: {"model": Data[list[Integration]]}},
        summary="List active integrations",
        tags=["integrations"],
    )
    async def list_active_integrations(request: Request) -> JSONResponse:
        caller = caller_of(request.scope)
        return enveloped(
            [
                shown(i)
                for i in await off_loop(
                    store.list_integrations, caller, active_only=True, org_wide=org_wide
                )
            ]
        )

    @router.get(
        "/environments",
        responses={200: {"model": Data[list[Environment]]}},
        summary="List all environments",
        tags=["environments"],
    )
    async def list_environments(request: Request) -> JSONResponse:
        """The organization's environments, each with `apiKeys`: the caller's own
        environment's keys, `[]` for the others."""
        caller = caller_of(request.scope)
        every = settings.every_environment_key
        return enveloped(await off_loop(store.list_environments, caller, every))

    @router.get(
        "/environments/me",
        responses={200: {"model": Data[Environment]}},
        summary="The API key's own environment",
        tags=["environments"],
    )
    async def own_environment(request: Request) -> JSONResponse:
        return enveloped(await off_loop(store.own_environment, caller_of(request.scope)))

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
        body: MarkAsRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        await pause()
        caller = caller_of(request.scope)
        return enveloped(
            await off_loop(store.mark_as, caller, subscriberId, body.ids, body.mark_as), 201
        )

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
        body: MarkAllRequest,
        idempotency_key: IdempotencyKey = None,
    ) -> JSONResponse:
        await pause()
        caller = caller_of(request.scope)
        return enveloped(await off_loop(store.mark_all, caller, subscriberId, body.mark_as), 201)

    # Hidden and deprecated in production: a switch, to test clients
    # against a deployment without them.
    if settings.v1_subscribers:

        @router.get(
            "/subscribers",
            responses={200: {"model": Page[Subscriber]}},
            summary="List subscribers",
            tags=["subscribers"],
        )
        async def list_subscribers(
            request: Request,
            page: PageNumber = 0,
            limit: Limit100 = 10,
        ) -> JSONResponse:
            data, has_more = await off_loop(
                store.list_subscribers, caller_of(request.scope), page, limit
            )
            return JSONResponse(
                {"data": data, "page": page, "pageSize": limit, "hasMore": has_more}
            )

        add_get_subscriber(router, store)

    @router.get(
        "/subscribers/{subscriberId}/notifications/feed",
        responses={200: {"model": Page[FeedItem]}, 400: {"model": ErrorBody}},
        summary="A subscriber's in-app feed items, newest first",
        description="`totalCount` stops at `limit`, as production's does; `hasMore` says "
        "whether another page follows. `payload` is base64 of a partial payload object.",
        tags=["subscribers"],
    )
    async def feed(
        request: Request,
        subscriberId: str,
        page: PageNumber = 0,
        limit: Limit100 = 10,
        read: bool | None = None,
        seen: bool | None = None,
        payload: Annotated[str | None, Query(description="Base64 of a JSON object")] = None,
    ) -> JSONResponse:
        wanted = _payload(payload)
        caller = caller_of(request.scope)
        data, total, has_more = await off_loop(
            store.feed, caller, subscriberId, page, limit, read, seen, wanted
        )
        return JSONResponse(
            {
                "data": data,
                "page": page,
                "pageSize": limit,
                "totalCount": total,
                "hasMore": has_more,
            }
        )

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
        limit: Limit100 = 100,
    ) -> JSONResponse:
        count = await off_loop(
            store.unseen_count, caller_of(request.scope), subscriberId, seen, limit
        )
        return enveloped({"count": count})

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
        limit: Annotated[int, Whole, Query(ge=1)] = 10,
    ) -> JSONResponse:
        if limit > MAX_MESSAGES_LIMIT:
            raise NotAllowed(f"Limit can not be larger then {MAX_MESSAGES_LIMIT}")
        data, total = await off_loop(
            store.list_messages,
            caller_of(request.scope),
            page,
            limit,
            channel,
            subscriberId,
            transactionId or (),
        )
        return _page(data, page, limit, total)

    from inboxdesk.server.activity_routes import build_activity_router
    from inboxdesk.server.preference_routes import build_preference_router
    from inboxdesk.server.subscriber_routes import build_subscriber_router
    from inboxdesk.server.trigger_routes import build_trigger_router

    # First: routes are matched in order, and a backend's triggers are the busiest path
    # (after the others, each trigger walked some thirty routes; no other path overlaps).
    routers = [build_trigger_router(store), router, build_activity_router(store, settings)]
    if settings.v2_inbox:
        routers.append(build_inbox_router(store, settings))
    if settings.v2_subscribers:
        from inboxdesk.server.topic_routes import build_topic_router

        routers += [build_v2_router(store, settings), build_topic_router(store)]
    routers.append(build_preference_router(store, settings.context_preferences))
    routers.append(build_subscriber_router(store, settings.v2_subscribers))
    return routers


def build_v2_router(store: Store, settings: ServerSettings) -> APIRouter:
    """The v2 subscriber endpoints production documents."""
    router = api_router(prefix="/v2")

    @router.get(
        "/subscribers",
        responses={200: {"model": CursorPage[Subscriber]}, 400: {"model": ErrorBody}},
        summary="Search subscribers",
        description="Every filter given must match (a case-insensitive part of the "
        "field); pass `next` as `after` for the following page.",
        tags=["subscribers"],
    )
    async def search_subscribers(
        request: Request,
        email: str | None = None,
        name: str | None = None,
        phone: str | None = None,
        subscriberId: str | None = None,
        limit: Limit100 = 10,
        after: str | None = None,
        before: str | None = None,
        orderBy: Literal["_id", "createdAt", "updatedAt", "subscriberId", "email"] = "_id",
        orderDirection: Literal["ASC", "DESC"] = "DESC",
        includeCursor: bool = False,
    ) -> JSONResponse:
        search = SubscriberSearch(
            email=email,
            name=name,
            phone=phone,
            subscriber_id=subscriberId,
            limit=limit,
            after=after or None,
            before=before or None,
            order_by=orderBy,
            descending=orderDirection == "DESC",
            include_cursor=includeCursor,
        )
        data, following, previous, total = await off_loop(
            store.search_subscribers, caller_of(request.scope), search
        )
        return JSONResponse(
            {
                "data": data,
                "next": following,
                "previous": previous,
                "totalCount": min(total, SUBSCRIBER_COUNT_CAP),
                "totalCountCapped": total > SUBSCRIBER_COUNT_CAP,
            }
        )

    add_get_subscriber(router, store)

    @router.get(
        "/subscribers/{subscriberId}/notifications/count",
        responses={200: {"model": Data[list[NotificationCount]]}},
        summary="Count a subscriber's in-app notifications per filter",
        description=f"Each count stops at {COUNT_CAP}, as production's do.",
        tags=["subscribers"],
    )
    async def count_notifications(
        request: Request,
        subscriberId: str,
        filters: Annotated[
            str | None, Query(description="JSON array of filter objects (max 30)")
        ] = None,
    ) -> JSONResponse:
        if filters is None:
            raise ApiValidationError.general(
                "filters should not be null or undefined",
                "filters must be an array",
                f"filters must contain no more than {MAX_COUNT_FILTERS} elements",
            )
        wanted = _filters(filters)
        counts = await off_loop(
            store.count_notifications, caller_of(request.scope), subscriberId, wanted
        )
        return enveloped([{"count": n, "filter": f} for n, f in zip(counts, wanted, strict=True)])

    return router


def count_filter_errors(n: int, item: dict[str, Any]) -> None:
    """One count filter's fields, as production's DTO checks them: a 422 naming the
    first that is wrong."""
    for flag in ("read", "seen", "archived", "snoozed"):
        if flag in item and not isinstance(item[flag], bool):
            raise ApiValidationError.general(f"filters.{n}.{flag} must be a boolean value")
    if "severity" in item:
        severities(item["severity"])
    tags = item.get("tags")
    if tags is not None and (
        not isinstance(tags, list) or not all(isinstance(t, str) for t in tags)
    ):
        raise ApiValidationError.general(f"filters.{n}.tags must be an array")
    data = item.get("data")
    if isinstance(data, str):
        json_data(data)
    elif data is not None and not isinstance(data, dict):
        raise NotAllowed(BAD_DATA)


def _filters(text: str) -> list[dict[str, Any]]:
    """The count endpoint's `filters`: a JSON array of 1 to 30 objects, else a 422."""
    try:
        value = read_query_json(text)
    except BadJson:
        raise NotAllowed("Invalid filters, the JSON object should be provided.") from None
    if not isinstance(value, list):
        raise ApiValidationError.general("filters must be an array")
    if len(value) > MAX_COUNT_FILTERS:
        raise ApiValidationError.general(
            f"filters must contain no more than {MAX_COUNT_FILTERS} elements"
        )
    if not value:
        raise ApiValidationError.general("filters must contain at least 1 elements")
    if not all(isinstance(f, dict) for f in value):
        raise ApiValidationError.general(
            "each value in nested property filters must be either object or array"
        )
    for n, item in enumerate(value):
        count_filter_errors(n, item)
    return value


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
