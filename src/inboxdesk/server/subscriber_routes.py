"""A subscriber's own data: `PATCH /v2/subscribers/{id}` and the v1 credentials
operations, refused and answered as production's."""

from typing import Any

from fastapi import APIRouter, Request, Response

from inboxdesk.models.subscriber_edit import (
    CHAT_OR_PUSH,
    FIELDS,
    PLAIN_STRINGS,
    is_email,
    is_locale,
    is_timezone,
)
from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import GENERAL, NO_VALUE, ApiValidationError, error_response
from inboxdesk.server.route_helpers import api_router, enveloped, off_loop
from inboxdesk.server.store import Store
from inboxdesk.server.store.base import utc_now
from inboxdesk.server.store.subscribers import TooManyTokens
from inboxdesk.server.wire import WireJSONResponse as JSONResponse


class _DtoError(ApiValidationError):
    """A DTO's refusal: every sentence under `general`, as production's pipe words it."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__(GENERAL, messages[0])
        self.errors = {GENERAL: {"messages": messages, "value": NO_VALUE}}


async def _body(request: Request) -> dict[str, Any]:
    from inboxdesk.server.wire import BadJson, read_query_json

    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = read_query_json(raw.decode("utf-8"))
    except (BadJson, ValueError, UnicodeDecodeError):
        raise _DtoError(["The body is not valid JSON"]) from None
    if not isinstance(body, dict):
        raise _DtoError(["The body must be a JSON object"])
    return body


def _field_errors(name: str, value: Any) -> list[str]:
    """The 422 sentences of one PATCH field, in class-validator's words; None clears."""
    if value is None:
        return []
    if name == "data":
        return [] if isinstance(value, dict) else ["data must be an object"]
    if not isinstance(value, str):
        word = {"locale": "locale", "timezone": "a valid IANA time-zone", "email": "an email"}
        if name in word:
            return [_bad(name)]
        return [f"{name} must be a string"]
    if name in PLAIN_STRINGS:
        return []
    checks = {"email": is_email, "locale": is_locale, "timezone": is_timezone}
    return [] if value and checks[name](value) else [_bad(name)]


def _bad(name: str) -> str:
    return {
        "email": "email must be an email",
        "locale": "locale must be locale",
        "timezone": "timezone must be a valid IANA time-zone",
    }[name]


def build_subscriber_router(store: Store, v2: bool = True) -> APIRouter:
    """The routes; `v2` False: no PATCH, as a service without the v2 subscribers."""
    router = api_router()

    async def patch_subscriber(request: Request, subscriberId: str) -> JSONResponse:
        body = await _body(request)
        # Unknown fields are ignored, as production's pipe has no whitelist.
        fields = {name: body[name] for name in FIELDS if name in body}
        messages = [m for name, value in fields.items() for m in _field_errors(name, value)]
        if messages:
            raise _DtoError(messages)
        caller = caller_of(request.scope)
        doc = await off_loop(store.patch_subscriber, caller, subscriberId, fields, utc_now())
        return enveloped(_v2(doc))

    if v2:
        router.add_api_route(
            "/v2/subscribers/{subscriberId}",
            patch_subscriber,
            methods=["PATCH"],
            summary="Change a subscriber's fields",
            description="Only the fields given are written; null clears one; data is replaced.",
            tags=["subscribers"],
        )

    async def credentials(request: Request, subscriberId: str, append: bool) -> JSONResponse:
        body = await _body(request)
        messages = []
        provider = body.get("providerId")
        if not isinstance(provider, str) or provider not in CHAT_OR_PUSH:
            messages.append("providerId must be a valid provider ID")
        given = body.get("credentials")
        if not isinstance(given, dict):
            messages.append("credentials must be an object")
        elif isinstance(tokens := given.get("deviceTokens"), list) and not all(
            isinstance(t, str) for t in tokens
        ):
            # Tokens are strings: anything else (an object, null) is refused, not stored.
            messages.append("each value in credentials.deviceTokens must be a string")
        identifier = body.get("integrationIdentifier")
        if identifier is not None and not isinstance(identifier, str):
            messages.append("integrationIdentifier must be a string")
        if messages:
            raise _DtoError(messages)
        assert isinstance(provider, str) and isinstance(given, dict)
        caller = caller_of(request.scope)
        try:
            doc = await off_loop(
                store.set_credentials,
                caller,
                subscriberId,
                provider,
                given,
                identifier,
                append,
                utc_now(),
            )
        except TooManyTokens as exc:
            return error_response(request, 400, str(exc), currentCount=exc.count, limit=100)
        return enveloped(doc)

    @router.put(
        "/v1/subscribers/{subscriberId}/credentials",
        summary="Set a subscriber's credentials for a provider (tokens replaced)",
        tags=["subscribers"],
    )
    async def put_credentials(request: Request, subscriberId: str) -> JSONResponse:
        return await credentials(request, subscriberId, append=False)

    @router.patch(
        "/v1/subscribers/{subscriberId}/credentials",
        summary="Change a subscriber's credentials for a provider (tokens added)",
        tags=["subscribers"],
    )
    async def patch_credentials(request: Request, subscriberId: str) -> JSONResponse:
        return await credentials(request, subscriberId, append=True)

    @router.delete(
        "/v1/subscribers/{subscriberId}/credentials/{providerId}",
        status_code=204,
        summary="Remove every credentials entry of a provider",
        tags=["subscribers"],
    )
    async def delete_credentials(request: Request, subscriberId: str, providerId: str) -> Response:
        caller = caller_of(request.scope)
        await off_loop(store.delete_credentials, caller, subscriberId, providerId)
        return Response(status_code=204)

    return router


def _v2(doc: dict[str, Any]) -> dict[str, Any]:
    """The v2 answer's shape: channels `[]` when none."""
    return {**doc, "channels": doc.get("channels") or []}
