"""Wrapping to a width in terminal cells: nothing cut, no line wider than the width
(a character wider than the whole width alone excepted), and never a loop."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inboxdesk.text import cells, clip
from inboxdesk.wrapping import wrap
from tests.conftest import fuzz_examples

WORDS = st.lists(
    st.sampled_from(["a", "bounced", "550", "5.1.1", "東京", "x" * 30, "—", "🙂", "é"]),
    max_size=30,
).map(" ".join)


# A budget sized to the suite (the default drew 100, half a CPU-second); the thorough
# profile draws ten times as many.
@settings(max_examples=fuzz_examples(40))
@given(text=WORDS, width=st.integers(min_value=-2, max_value=90))
def test_wrapped_text_is_whole_and_within_the_width(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert "".join("".join(lines).split()) == "".join(clip(text, 10**6).split())
    assert all(cells(line) <= max(width, 2) for line in lines)


def test_words_break_at_spaces_first() -> None:
    words = "email: sent, then bounced by the provider (sent is not delivered)"
    assert wrap(words, 20) == [
        "email: sent, then",
        "bounced by the",
        "provider (sent is",
        "not delivered)",
    ]
