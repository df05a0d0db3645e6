"""Reading answers: JSON within the limits, models validated from the bytes, error bodies.

pydantic-core's parser (jiter) refuses nesting past 200 and numbers past 4,300 digits
by itself, so a body within the default limits is never scanned by us; only a stricter
limit, or a body that parser refuses and Python's json reads (a byte-order mark, UTF-16,
a lone surrogate), is checked first by a scan here: Python's json recurses, and a
body nested 100,000 deep would crash it.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import from_json

from inboxdesk.client.errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ForbiddenError,
    LimitExceeded,
    NotFoundError,
    ProtocolError,
    RateLimitedError,
    ServerError,
    ValidationError,
    phrase,
)
from inboxdesk.client.limits import (
    PARSER_DEPTH,
    PARSER_DIGITS,
    Limits,
    number_too_long,
    too_deep,
)
from inboxdesk.client.retry import retry_after
from inboxdesk.client.transport import limits_of
from inboxdesk.models import CursorPage, Data, ErrorBody, Page
from inboxdesk.models.base import DeferredModel
from inboxdesk.text import safe

M = TypeVar("M", bound=BaseModel)

# A JSON string (its contents may hold anything, brackets and digits included).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def load_json(content: bytes, limits: Limits, what: str = "body") -> Any:
    """The JSON value of a body, within the limits; ValueError when it is not JSON."""
    try:
        value = from_json(content)
    except ValueError as exc:
        _past_parser(str(exc), limits, what)
        text = content.decode(json.detect_encoding(content), "surrogatepass")
        _check(text, limits, what)
        return json.loads(text)
    if _stricter(limits):
        _check(content.decode("utf-8", "replace"), limits, what)
    return value


def _stricter(limits: Limits) -> bool:
    return limits.max_json_depth < PARSER_DEPTH or limits.max_int_digits < PARSER_DIGITS


def _past_parser(error: str, limits: Limits, what: str) -> None:
    """The limit error for a parser error that is one of its ceilings."""
    if error.startswith("recursion limit exceeded"):
        raise too_deep(limits.max_json_depth, what)
    if error.startswith("number out of range"):
        raise number_too_long(limits.max_int_digits, what)


def _check(text: str, limits: Limits, what: str) -> None:
    """Nesting and integer digits of a JSON text, before anything parses it."""
    bare = _STRING.sub('""', text)
    if _long_integer(limits.max_int_digits).search(bare):
        raise number_too_long(limits.max_int_digits, what)
    depth = 0
    for char in _NOT_BRACKET.sub("", bare):
        if char in "[{":
            depth += 1
            if depth > limits.max_json_depth:
                raise too_deep(limits.max_json_depth, what)
        else:
            depth -= 1


@functools.cache
def _long_integer(digits: int) -> re.Pattern[str]:
    # The integer part only, as the parser counts: a fraction or exponent is not one.
    return re.compile(rf"(?<![0-9.eE+\-])-?[0-9]{{{digits + 1},}}")


def json_of(response: httpx.Response) -> Any:
    """The parsed JSON body of a response; a ProtocolError when it is not JSON."""
    try:
        return load_json(response.content, limits_of(response))
    except ValueError:
        raise ProtocolError(
            f"The service answered {response.status_code} to {response.request.method} "
            f"{response.request.url.path} with a body that is not JSON.",
            "The request may have been applied: refresh before trying again.",
        ) from None


def unwrap(body: Any) -> Any:
    """The payload of `{"data": ...}`, or the body itself when it came bare."""
    if isinstance(body, dict) and set(body) == {"data"}:
        return body["data"]
    return body


def parse(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        raise ProtocolError(
            f"The service sent a {model.__name__} this client cannot read: {_first_problem(exc)}.",
            "Is the base URL right? A newer service may need a newer inboxdesk.",
        ) from None


def items_of(model: type[M], response: httpx.Response) -> list[M]:
    """A list of `model` objects, `{"data": [...]}` or bare, validated from the bytes.

    pydantic reads the JSON straight into models, without parsing it into dicts first.
    """
    if _first_byte(response) != b"[":
        return _from_json(_wrapped_list(model), response, model.__name__).data  # type: ignore[no-any-return]
    return _from_json(_list_of(model), response, model.__name__)  # type: ignore[no-any-return]


def page_of(model: type[M], response: httpx.Response) -> Page[M]:
    """A page of `model` objects validated from the bytes; a bare list is one whole page."""
    if _first_byte(response) == b"[":
        items = items_of(model, response)
        whole = {"data": items, "page": 0, "pageSize": len(items), "hasMore": False}
        return page_type(model).model_validate(whole)  # type: ignore[return-value]
    return _from_json(page_type(model), response, "page")  # type: ignore[no-any-return]


class Listed(DeferredModel):
    """An item of a listing read for its id alone, as a resource model reads the id."""

    model_config = ConfigDict(populate_by_name=True)

    id: str | None = Field(None, alias="_id")


def page_holding(
    model: type[M], response: httpx.Response, wanted: str
) -> tuple[Page[Listed], tuple[M, int] | None]:
    """A page read for its items' ids, and the first item whose id is `wanted`, read in
    full as `model`, with its index (None when none is): a scan looks for one id, and a
    page of 1,000 messages validated whole took 100 ms, its ids 14."""
    listed = page_of(Listed, response)
    for index, item in enumerate(listed.data):
        if item.id == wanted:
            body = json_of(response)
            # A list, whether bare or in its envelope: page_of read it so.
            items = body if isinstance(body, list) else body["data"]
            return listed, (parse(model, items[index]), index)
    return listed, None


def cursor_page_of(model: type[M], response: httpx.Response) -> CursorPage[M]:
    return _from_json(cursor_page_type(model), response, "page")  # type: ignore[no-any-return]


def _first_byte(response: httpx.Response) -> bytes:
    return response.content.lstrip()[:1]


# pydantic keeps a parametrized generic (Page[FeedItem]) only weakly: once collected
# it is built again. These hold each one for the process's life.
@functools.cache
def _list_of(model: type[BaseModel]) -> TypeAdapter[Any]:
    return TypeAdapter(list[model])  # type: ignore[valid-type]


@functools.cache
def _wrapped_list(model: type[BaseModel]) -> type[BaseModel]:
    return Data[list[model]]  # type: ignore[valid-type]


@functools.cache
def page_type(model: type[BaseModel]) -> type[BaseModel]:
    return Page[model]  # type: ignore[valid-type]


@functools.cache
def envelope_page() -> type[Page[Any]]:
    """`Page[Any]`: a page's envelope read whole, its items as sent (rebuilt, it cost
    2 ms a read of the feed or the activity)."""
    return Page[Any]


@functools.cache
def cursor_page_type(model: type[BaseModel]) -> type[BaseModel]:
    return CursorPage[model]  # type: ignore[valid-type]


def _from_json(kind: Any, response: httpx.Response, what: str) -> Any:
    """`kind` validated from the response's JSON; any problem is a ProtocolError.

    JSON that pydantic's parser refuses but Python's reads (a byte-order mark, UTF-16,
    a lone surrogate) is validated as Python's parsed it; a body that is not JSON says
    so, and one past a limit says which.
    """
    adapter = isinstance(kind, TypeAdapter)
    limits = limits_of(response)
    try:
        if _stricter(limits):
            body = json_of(response)
        else:
            try:
                return (
                    kind.validate_json(response.content)
                    if adapter
                    else kind.model_validate_json(response.content)
                )
            except PydanticValidationError as exc:
                error = exc.errors()[0]
                if error["type"] != "json_invalid":
                    raise
                _past_parser(str(error.get("ctx", {}).get("error", "")), limits, what)
            body = json_of(response)
        return kind.validate_python(body) if adapter else kind.model_validate(body)
    except PydanticValidationError as exc:
        raise ProtocolError(
            f"The service sent a {what} this client cannot read: {_first_problem(exc)}.",
            "Is the base URL right? A newer service may need a newer inboxdesk.",
        ) from None


def number(value: Any, what: str) -> int | float:
    """A count from the wire, as sent: the document types counts as JSON numbers, so
    any number reads (2.0, 1.5, -3); anything else is a protocol error."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        shown = safe(repr(value)[:40], newlines=False)
        raise ProtocolError(f"{what} answered {shown} where a number was expected.")
    return value


def _first_problem(exc: PydanticValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return safe(f"{where}: {first['msg']}", newlines=False)


def api_error(response: httpx.Response) -> ApiError:
    """The ApiError subclass for an error response, with a message and what to do next."""
    status = response.status_code
    path = response.request.url.path
    body: ErrorBody | None = None
    try:
        body = ErrorBody.model_validate(load_json(response.content, limits_of(response)))
    except (ValueError, PydanticValidationError, LimitExceeded):
        body = None
    raw = body.message if body else None
    # Error text is wire text too: made safe here once for every view that shows it.
    listed = raw if isinstance(raw, list) else [raw]
    messages = [safe(m, newlines=False) for m in listed if m is not None and m != ""]
    message = "; ".join(messages) or f"{status} {phrase(status)}"
    if status == 403:
        return ForbiddenError(
            status,
            f"The key may not do this: {_sentence(message)}",
            hint="The key is valid; it acts only in its own environment. Use the key of the "
            "environment this acts in: `inboxdesk config add-key PROFILE` adds one.",
            body=body,
            path=path,
        )
    if status == 401:
        return AuthenticationError(
            status,
            f"The service rejected the API key: {message}.",
            hint="Check the key (inboxdesk config show) or set NOVU_SECRET_KEY, "
            "and that it belongs to this service and region.",
            body=body,
            path=path,
        )
    if status == 404:
        return NotFoundError(
            status,
            _sentence(message),
            # A 404 is also how an older service answers a route it lacks; the status
            # alone cannot tell the two apart, so both are named.
            hint="Check the id, and that the key belongs to the environment that holds it; "
            f"if both are right, this service may be an older one without {safe(path)}.",
            body=body,
            path=path,
        )
    if status == 422 or (status == 400 and isinstance(raw, list)):
        fields = _fields(body, messages)
        if not fields:
            return ValidationError(
                status, _sentence(message), {}, hint="Fix the request.", body=body, path=path
            )
        detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        return ValidationError(
            status,
            f"The service refused the request: {detail}.",
            fields,
            hint="Fix the values named and try again.",
            body=body,
            path=path,
        )
    if status == 429:
        wait = retry_after(response.headers.get("Retry-After")) or 1.0
        return RateLimitedError(
            status,
            f"Rate limited by the service ({message}).",
            wait,
            hint=f"Wait {wait:g} s and try again.",
            body=body,
            path=path,
        )
    if status == 409:
        return ConflictError(
            status,
            _sentence(message),
            hint="Another try of this request is still running; "
            "refresh in a moment to see its effect.",
            body=body,
            path=path,
        )
    if status >= 500:
        error_id = safe(body.error_id, newlines=False) if body and body.error_id else None
        # Production's support asks for the errorId: it names the failure in their logs.
        reference = f" (errorId {error_id})" if error_id else ""
        return ServerError(
            status,
            f"The service failed: {message}{reference}.",
            hint="Try again shortly; if it persists, check the service's status, "
            "or contact its support" + (" with the errorId." if error_id else "."),
            body=body,
            path=path,
        )
    return BadRequestError(status, _sentence(message), body=body, path=path)


def _sentence(text: str) -> str:
    """The text ending in one full stop (production's own messages sometimes end in one)."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _fields(body: ErrorBody | None, messages: Sequence[str]) -> dict[str, list[str]]:
    if body is not None and body.errors:
        return {
            safe(k, newlines=False): [safe(m, newlines=False) for m in v.messages]
            for k, v in body.errors.items()
        }
    fields: dict[str, list[str]] = {}
    for text in messages:  # older services: "markAs must be one of ..."
        name = text.split(" ", 1)[0]
        fields.setdefault(name, []).append(text)
    return fields
