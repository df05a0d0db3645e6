"""The service's JSON bytes are Python's `json.dumps` bytes (compact, UTF-8, NaN
refused), whichever encoder wrote them; a stored document reads as `json.loads` reads
it, whichever parser read it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inboxdesk.server.store.base import read_doc
from inboxdesk.server.wire import wire_json
from tests.conftest import fuzz_examples


def python_json(content: Any) -> bytes:
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8", "backslashreplace")


@pytest.mark.parametrize(
    "content",
    [
        # Where pydantic-core's encoder writes its own way.
        {"small": 1e-07, "smaller": [1.5e-05, -2.5e-300], "key": {1e-07: 1}},
        {None: 1, "n": None},
        {"id": "\ud800", "\udfffkey": ["x\udc00"]},
        # Where it writes Python's bytes.
        {"big": [1e16, 1e300, 2**64, -(2**63), 10**30, 1.0, -0.0, 0.0001, 0.0001234]},
        {2: "int key", True: "bool key", 1.5: "float key"},
        {"text": 'é😀 \x00\x1f\x7f\u2028\u2029 / \\ " e-mail 1e-7 0.00001 NaN'},
        {"nested": [[[{"a": [1, "b", None, False]}]]], "tuple": (1, 2)},
    ],
    ids=["small-floats", "none-key", "lone-surrogates", "numbers", "keys", "text", "nested"],
)
def test_each_answer_is_pythons_bytes(content: Any) -> None:
    assert wire_json(content) == python_json(content)


@pytest.mark.parametrize("content", [float("nan"), {"x": [float("inf")]}, -float("inf")])
def test_nan_and_infinity_are_refused_as_python_refuses_them(content: Any) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        wire_json(content)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=fuzz_examples(100), deadline=None)
@given(content=JSON)
def test_any_json_value_is_pythons_bytes(content: Any) -> None:
    assert wire_json(content) == python_json(content)


@pytest.mark.parametrize(
    "text",
    [
        '{"title":"\\ud800 lone","a":1,"a":2}',  # pydantic-core refuses the escape
        '{"n":[1e400,-0.0,1E5,123456789012345678901234567890,0.1,1e-07],"s":"é\\u0000"}',
        '{"nested":{"x":[null,true,false,{"y":"z"}]}}',
    ],
)
def test_a_stored_document_reads_as_json_loads_reads_it(text: str) -> None:
    assert repr(read_doc(text)) == repr(json.loads(text))
