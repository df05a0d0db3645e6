"""Error bodies of the local service, in the service's own shape."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from inboxdesk.models.requests import MESSAGES
from inboxdesk.server.store import Forbidden, NotAllowed, NotFound, utc_now
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

# Production's key for a request body's errors, and the value it gives them.
GENERAL = "general"
NO_VALUE = "No Value Recorded"


class PaymentRequired(Exception):
    """A 402: the dates asked for lie beyond what the plan keeps."""


class ApiValidationError(Exception):
    """A 422 with per-field messages, raised where FastAPI's own validation cannot reach."""

    def __init__(self, field: str, message: str, value: Any = None) -> None:
        super().__init__(message)
        self.errors = {field: {"messages": [message], "value": value}}
        self.headline = "Validation Error"

    @classmethod
    def general(cls, *messages: str) -> ApiValidationError:
        """A DTO's refusal as production words it: every sentence under `general`."""
        error = cls(GENERAL, messages[0] if messages else "", NO_VALUE)
        error.errors[GENERAL]["messages"] = list(messages)
        return error


def error_body(status: int, path: str, message: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "statusCode": status,
        "timestamp": utc_now(),
        "path": path,
        "message": message,
    }
    if status != 422:  # production's validation errors carry no `error`
        body["error"] = HTTPStatus(status).phrase
    return {**body, **extra}


def error_bytes(status: int, path: str, message: str, **extra: Any) -> bytes:
    """The same body, encoded, for the ASGI middlewares that answer before routing."""
    text = json.dumps(error_body(status, path, message, **extra), ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace")


def error_response(
    request: Request,
    status: int,
    message: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    # As production's: the request URL with its query string.
    query = request.url.query
    path = f"{request.url.path}?{query}" if query else request.url.path
    return JSONResponse(error_body(status, path, message, **extra), status, headers=headers)


def _describe(error: Mapping[str, Any]) -> tuple[str, str]:
    """The field a pydantic error is about and a sentence saying what is wrong with it."""
    loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "header")]
    # Union members appear in the location as their type names; they are not fields.
    field = next(
        (p for p in loc if not p.isdigit() and "[" not in p and p not in {"str", "int", "bool"}),
        "body",
    )
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "json_invalid":
        return "body", f"Request body is not valid JSON ({ctx.get('error', 'parse error')})"
    if kind == "missing":
        return field, f"{field} should not be null or undefined"
    if kind == "enum":
        return (
            field,
            f"{field} must be one of the following values: {ctx.get('expected', '')}".replace(
                "'", ""
            ).replace(" or ", ", "),
        )
    if kind == "value_error":
        return field, str(ctx.get("error", error.get("msg", "")))
    if kind in ("less_than_equal", "greater_than_equal"):
        relation = "greater" if kind == "less_than_equal" else "less"
        limit = ctx.get("le", ctx.get("ge"))
        return field, f"{field} must not be {relation} than {limit}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        expected = (
            kind.removesuffix("_type")
            .removesuffix("_parsing")
            .replace("model_attributes", "object")
            .replace("dict", "object")
        )
        article = "an" if expected[:1] in "aeiou" else "a"
        return field, f"{field} must be {article} {expected}"
    return field, f"{field}: {error.get('msg', 'is invalid')}"


def _sentences(error: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The field an error is about and each sentence saying what is wrong with it: a
    request model's refusal carries production's own (models/requests.py)."""
    field, message = _describe(error)
    given = (error.get("ctx") or {}).get(MESSAGES)
    return field, list(given) if isinstance(given, list) else [message]


def body_errors(errors: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Errors of a request body, as production words a DTO's: every sentence under
    `general`, and no value echoed."""
    messages: list[str] = []
    for error in errors:
        messages += [m for m in _sentences(error)[1] if m not in messages]
    return {GENERAL: {"messages": messages, "value": NO_VALUE}}


def validation_errors(errors: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """FastAPI's error list as the service's `errors` object, one entry per field."""
    out: dict[str, dict[str, Any]] = {}
    for error in errors:
        field, sentences = _sentences(error)
        value = None if error.get("type") in ("missing", "json_invalid") else error.get("input")
        entry = out.setdefault(field, {"messages": [], "value": value})
        entry["messages"] += [m for m in sentences if m not in entry["messages"]]
    for entry in out.values():
        if isinstance(entry["value"], bytes | bytearray):
            entry["value"] = None
    return out


def install_handlers(app: FastAPI) -> None:
    """Every error the app raises becomes the service's JSON error body."""

    async def on_request_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        found = exc.errors()
        content_type = request.headers.get("content-type", "")
        in_body = [e for e in found if e.get("loc", ("",))[0] == "body"]
        if in_body and len(in_body) == len(found):
            errors = body_errors(in_body)
            if request.method == "POST" and "json" not in content_type:
                errors[GENERAL]["messages"] = [
                    "Request body must be JSON sent with Content-Type: application/json"
                ]
            return error_response(request, 422, "Validation Error", errors=errors)
        errors = validation_errors(found)
        # Inputs too long to echo back (1,001 ids) or not JSON (NaN) are left out.
        for entry in errors.values():
            try:
                echoed = json.dumps(entry["value"], allow_nan=False)
            except (TypeError, ValueError):
                echoed = ""
            if not echoed or len(echoed) > 512:
                entry["value"] = None
        return error_response(request, 422, "Validation Error", errors=errors)

    async def on_api_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiValidationError)
        headline = getattr(exc, "headline", "Validation Error")
        return error_response(request, 422, headline, errors=exc.errors)

    async def on_not_found(request: Request, exc: Exception) -> JSONResponse:
        return error_response(request, 404, str(exc))

    async def on_forbidden(request: Request, exc: Exception) -> JSONResponse:
        return error_response(request, 403, str(exc))

    async def on_not_allowed(request: Request, exc: Exception) -> JSONResponse:
        return error_response(request, 400, str(exc))

    async def on_payment_required(request: Request, exc: Exception) -> JSONResponse:
        return error_response(request, 402, str(exc))

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        message = {404: f"Cannot {request.method} {request.url.path}"}.get(
            exc.status_code, str(exc.detail)
        )
        return error_response(request, exc.status_code, message, headers=exc.headers)

    async def on_overflow(request: Request, exc: Exception) -> JSONResponse:
        # A number past SQLite's 64-bit integers is the caller's input, not a crash:
        # name the numeric query parameters, which are the only numbers a store call gets.
        errors = {
            name: {"messages": [f"{name} is out of range"], "value": None}
            for name, value in request.query_params.items()
            if value.lstrip("-").isdigit()
        } or {"query": {"messages": ["a number in the request is out of range"], "value": None}}
        return error_response(request, 422, "Validation Error", errors=errors)

    app.add_exception_handler(RequestValidationError, on_request_validation)
    app.add_exception_handler(OverflowError, on_overflow)
    app.add_exception_handler(ApiValidationError, on_api_validation)
    app.add_exception_handler(NotFound, on_not_found)
    app.add_exception_handler(Forbidden, on_forbidden)
    app.add_exception_handler(NotAllowed, on_not_allowed)
    app.add_exception_handler(PaymentRequired, on_payment_required)
    app.add_exception_handler(StarletteHTTPException, on_http)
