"""`GET /v2/subscribers/{subscriberId}/subscriptions`: a subscriber's topic subscriptions,
its query read as production's DTO reads it (acting.md 4.1): the query's refusals
(422) first, then an unknown subscriber (404), then both cursors at once (400)."""

import math

from fastapi import APIRouter, Request

from inboxdesk.models.subscription import SubscriptionPage
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import ApiValidationError
from inboxdesk.server.route_helpers import api_router, off_loop
from inboxdesk.server.store import Store
from inboxdesk.server.store.topics import SubscriptionQuery
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

MAX_LIMIT = 100
DEFAULT_LIMIT = 10


def _number(text: str) -> float:
    """JavaScript's `Number(text)`: blank is 0, anything not a number is NaN."""
    text = text.strip()
    if "_" in text:
        return math.nan
    if not text:
        return 0.0
    try:
        return float(int(text, 0)) if text.lower().startswith(("0x", "0o", "0b")) else float(text)
    except ValueError:
        return math.nan


def _limit(values: list[str]) -> int:
    if not values:
        return DEFAULT_LIMIT
    # Repeated, the values are one array, which is not a number.
    number = _number(values[0]) if len(values) == 1 else math.nan
    if math.isnan(number) or number > MAX_LIMIT:
        raise ApiValidationError(
            "limit", f"limit must not be greater than {MAX_LIMIT}", values[0] if values else None
        )
    if number == 0:
        return DEFAULT_LIMIT  # production's `limit || 10`
    if number < 0 or not number.is_integer():
        # Not verified against production: refused in words rather than guessed.
        raise ApiValidationError("limit", "limit must be a whole number from 1 to 100", values[0])
    return int(number)


def _text(request: Request, name: str) -> str | None:
    """A string parameter: absent or empty is None; repeated is refused."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ApiValidationError(name, f"{name} must be a string", values)
    return values[0] if values and values[0] else None


def _context_keys(values: list[str]) -> tuple[str, ...] | None:
    """Absent: every subscription; `contextKeys=` alone: those without context; else the
    exact set given (empty values dropped), in any order."""
    if not values:
        return None
    return tuple(v for v in values if v != "")


def build_topic_router(store: Store) -> APIRouter:
    router = api_router(prefix="/v2")

    @router.get(
        "/subscribers/{subscriberId}/subscriptions",
        responses={200: {"model": SubscriptionPage}},
        summary="A subscriber's topic subscriptions",
        description="Ordered by `_id` (newest first unless `orderDirection=ASC`); pass "
        "`next` as `after` for the following page. Each subscription carries its topic "
        "and, where it has them, its workflow records (`preferences`: a condition, or on/off).",
        tags=["subscribers"],
    )
    async def list_subscriptions(request: Request, subscriberId: str) -> JSONResponse:
        params = request.query_params
        query = SubscriptionQuery(
            key=_text(request, "key"),
            context_keys=_context_keys(params.getlist("contextKeys")),
            limit=_limit(params.getlist("limit")),
            after=_text(request, "after"),
            before=_text(request, "before"),
            descending=params.get("orderDirection") != "ASC",
            include_cursor=params.get("includeCursor") == "true",
        )
        body = await off_loop(
            store.list_subscriptions, caller_of(request.scope), subscriberId, query
        )
        return JSONResponse(body)

    return router
