"""Hypothesis strategies for the JSON Schema subset the contract excerpt uses.

hypothesis-jsonschema would do this, but its latest release (0.23.1) relies on Hypothesis
internals that the pinned Hypothesis no longer has (`many.more`), so generation fails.
The excerpt needs only types, enums, properties with required, additionalProperties,
items, anyOf/allOf, sizes, `minimum` and the date-time format: this covers exactly that,
and fails loudly on any keyword it does not know.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import strategies as st

KNOWN = {
    "type",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "maxProperties",
    "items",
    "minItems",
    "maxItems",
    "anyOf",
    "allOf",
    "minimum",
    "maximum",
    "format",
}
SCALARS = {
    "string": st.text(max_size=20),
    "integer": st.integers(min_value=-(2**31), max_value=2**31),
    "number": st.one_of(
        st.integers(min_value=-(2**31), max_value=2**31),
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    "boolean": st.booleans(),
    "null": st.none(),
}
DATES = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
).map(lambda d: d.isoformat(timespec="milliseconds").replace("+00:00", "Z"))


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid against `schema` (refs already inlined)."""
    unknown = set(schema) - KNOWN
    assert not unknown, f"keywords this generator does not know: {unknown}"
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "allOf" in schema:
        (only,) = schema["allOf"]  # the excerpt uses allOf only to annotate one ref
        return from_schema({**only, **{k: v for k, v in schema.items() if k != "allOf"}})
    if "anyOf" in schema:
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        return st.one_of([from_schema({**part, **rest}) for part in schema["anyOf"]])
    kinds = schema.get("type")
    if kinds is None:
        return st.one_of([SCALARS[k] for k in ("string", "integer", "boolean", "null")])
    if isinstance(kinds, list):
        return st.one_of([from_schema({**schema, "type": kind}) for kind in kinds])
    if kinds == "object":
        return _object(schema)
    if kinds == "array":
        items = from_schema(schema.get("items", {}))
        return st.lists(
            items, min_size=schema.get("minItems", 0), max_size=schema.get("maxItems", 3)
        )
    if kinds == "string" and schema.get("format") == "date-time":
        return DATES
    if kinds in {"integer", "number"} and ("minimum" in schema or "maximum" in schema):
        low, high = schema.get("minimum"), schema.get("maximum")
        if kinds == "integer":
            return st.integers(min_value=low, max_value=high)
        return st.floats(min_value=low, max_value=high, allow_nan=False)
    return SCALARS[kinds]


def _object(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    fixed = st.fixed_dictionaries(
        {k: from_schema(v) for k, v in properties.items() if k in required},
        optional={k: from_schema(v) for k, v in properties.items() if k not in required},
    )
    extra = schema.get("additionalProperties", False)
    if extra is False or not isinstance(extra, dict):
        return fixed
    names = st.text(min_size=1, max_size=10).filter(lambda k: k not in properties)
    more = st.dictionaries(names, from_schema(extra), max_size=schema.get("maxProperties", 3))
    return st.tuples(fixed, more).map(lambda parts: {**parts[1], **parts[0]})
