"""Reading JSON a caller put in a query, and writing JSON that cannot fail to encode.

Query values (`payload`, `filters`) are JSON from anyone: Python's parser accepts NaN
and Infinity, recurses on depth, and lets lone surrogates through, each of which once
became a 500 further in. They are refused here, once, as the caller's error.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse
from pydantic_core import PydanticSerializationError, to_json

# Deeper than any filter a person writes, shallow enough for every recursion after it.
MAX_DEPTH = 32
# Leaves of one query value: each becomes an SQL condition.
MAX_LEAVES = 200


class BadJson(ValueError):
    """A query value that is not JSON this service can use; the message says why."""


def _no_constant(name: str) -> Any:
    raise BadJson(f"{name} is not a JSON number")


def read_body_json(text: str) -> Any:
    """A request body as JSON, checked as a query value is but for the count of leaves:
    a body's size is capped where it is read (limits.py), and a valid one of that size
    (100 preference items, each with every channel) is never refused for its leaves."""
    return read_query_json(text, max_leaves=None)


def read_query_json(text: str, max_leaves: int | None = MAX_LEAVES) -> Any:
    """`text` as JSON, or BadJson: no NaN or Infinity, no lone surrogate, at most
    MAX_DEPTH levels and `max_leaves` leaves (None: any number)."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadJson(f"nested deeper than {MAX_DEPTH} levels") from None
    except BadJson:
        raise
    except ValueError:
        raise BadJson("not valid JSON") from None
    leaves = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadJson(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key)
                stack.append((inner, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
        else:
            leaves += 1
            if max_leaves is not None and leaves > max_leaves:
                raise BadJson(f"more than {max_leaves} values")
            if isinstance(item, str):
                _check_text(item)
    return value


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadJson("a string holds a lone surrogate (not UTF-8 text)") from None


class WireJSONResponse(JSONResponse):
    """JSON as production writes it; a lone surrogate echoed from a request (a bad id in
    a 422's detail, a path) goes out as its JSON escape instead of failing the answer."""

    def render(self, content: Any) -> bytes:
        return wire_json(content)


def wire_json(content: Any) -> bytes:
    """`content` as Python's `json.dumps` writes it compact and in UTF-8, NaN refused.

    pydantic-core's encoder writes the same bytes in a quarter of the time (a 1,000-
    message page: 9 ms, not 32), but for a few values it writes its own way: a float
    under 1e-4 (`1e-7`, `0.000015`, not `1e-07`, `1.5e-05`), NaN and Infinity (which
    Python refuses), a `None` key, a lone surrogate (it fails). An answer that may hold
    one of them is written by Python's encoder instead.
    """
    try:
        body = to_json(content)
    except (PydanticSerializationError, ValueError, TypeError, RecursionError):
        return _python_json(content)
    return _python_json(content) if _may_differ(body) else body


def _python_json(content: Any) -> bytes:
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8", "backslashreplace")


# Where pydantic-core's bytes may not be Python's (and harmless when they only appear
# inside a string: that answer is written by Python's encoder, the same bytes).
_UNSURE = (b"NaN", b"Infinity", b'"None":', b"0.0000")


def _may_differ(body: bytes) -> bool:
    if any(text in body for text in _UNSURE):
        return True
    # An exponent below zero after a digit: `1e-7` (Python writes `1e-07`).
    at = body.find(b"e-")
    while at > 0:
        if body[at - 1 : at].isdigit():
            return True
        at = body.find(b"e-", at + 2)
    return False
