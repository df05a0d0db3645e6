"""The one rule for text from the wire: no control, escape or bidi character survives."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from inboxdesk.text import cells, clip, for_clipboard, pad, plural, safe, safe_json


def is_safe(text: str) -> bool:
    """True when `text` holds nothing that `safe()` would replace."""
    return safe(text) == text


HOSTILE = "a\x1b[2Jb\x1b]0;title\x07c\x1b]52;c;ZXZpbA==\x07d\x9b31me\u202ef\x00g\x7fh\r"


def test_safe_replaces_every_control_with_a_visible_stand_in() -> None:
    out = safe(HOSTILE)
    assert is_safe(out)
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "␛[2J" in out and "<U+202E>" in out and "\\x00" in out and "\\x9b" in out


def test_safe_keeps_newlines_for_panes_and_folds_them_for_cells() -> None:
    assert safe("one\ntwo") == "one\ntwo"
    assert safe("one\ntwo", newlines=False) == "one⏎two"
    assert safe("a\tb") == "a    b"


def test_markup_is_left_as_text() -> None:
    assert safe("[@click=app.quit]x[/]") == "[@click=app.quit]x[/]"


def test_clip_measures_terminal_cells() -> None:
    assert cells("漢字") == 4
    assert cells(clip("漢字漢字漢字", 5)) <= 5
    assert clip("short", 10) == "short"
    assert clip("a  b\n c", 10) == "a b⏎ c"
    assert cells(pad("漢", 4)) == 4


def test_safe_json_escapes_c1_and_bidi_and_stays_json() -> None:
    value = {"t": "x\x9by\u202ez\x1b", "n": 3, "b": True}
    text = safe_json(value)
    assert is_safe(text)
    assert json.loads(text) == value


def test_lone_surrogates_are_shown_and_stay_writable() -> None:
    assert safe("hi \ud800 there\udfff") == "hi <U+D800> there<U+DFFF>"
    text = safe_json({"title": "hi \ud800"})
    assert text == '{"title": "hi \\ud800"}' and text.encode() and is_safe(text)
    assert json.loads(text) == {"title": "hi \ud800"}, "the wire's value, escaped"
    assert clip("\udc00" * 3, 10).encode()


def test_zero_width_characters_are_shown_but_emoji_sequences_survive() -> None:
    out = safe("pay\u200bpal\u2060.com\ufeff")
    assert out == "pay<U+200B>pal<U+2060>.com<U+FEFF>"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert safe(family) == family


@pytest.mark.parametrize(
    ("raw", "copied", "cleaned"),
    [
        ("65f000000000000000000001", "65f000000000000000000001", False),
        ("https://x.test/\x1b[201~\nrm -rf ~\n", "https://x.test/[201~rm -rf ~", True),
        ("a\u202eb\u200bc\x9bd\te\r\n", "abcde", True),
        ("漢字😀", "漢字😀", False),
    ],
)
def test_the_clipboard_gets_no_control_line_break_or_hidden_character(
    raw: str, copied: str, cleaned: bool
) -> None:
    assert for_clipboard(raw) == (copied, cleaned)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\u00adb", "a<U+00AD>b"),  # soft hyphen
        ("x\U000e0041\U000e0042y", "x<U+E0041><U+E0042>y"),  # tag characters
        ("a\ufe0fb", "a<U+FE0F>b"),  # a variation selector on no emoji
        ("x\u034fy", "x<U+034F>y"),  # combining grapheme joiner
        ("\u17b4\u17b5", "<U+17B4><U+17B5>"),
        ("\ufff9a\ufffb", "<U+FFF9>a<U+FFFB>"),
        ("\u206a\u206f", "<U+206A><U+206F>"),
        ("\u115f\u1160\u3164\uffa0", "<U+115F><U+1160><U+3164><U+FFA0>"),  # Hangul fillers
        ("a\u200db", "a<U+200D>b"),  # a joiner between letters hides nothing good
        # Kept: the joiner and VS16 inside emoji, and a subdivision flag whole.
        ("👩\u200d👩\u200d👧 ❤\ufe0f", "👩\u200d👩\u200d👧 ❤\ufe0f"),
        ("\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",) * 2,
    ],
)
def test_every_invisible_character_is_shown(raw: str, shown: str) -> None:
    assert safe(raw) == shown and is_safe(shown)
    assert "\\u" in safe_json(raw) or raw == shown


def test_combining_marks_are_capped_per_character() -> None:
    flood = "e" + "\u0301" * 20_000
    shown = safe(flood)
    assert shown == "e" + "\u0301" * 30 + "<19970 more marks>"
    assert cells(clip(flood, 40)) <= 40


def test_hangul_fillers_take_the_cells_they_are_given() -> None:
    row = pad(clip("\u3164\u3164name\u115f", 20), 20)
    assert cells(row) == 20 and "\u3164" not in row


def test_plural_agrees_with_the_count_and_separates_thousands() -> None:
    assert plural(1, "condition") == "1 condition"
    assert plural(0, "message") == "0 messages"
    assert plural(1191, "message") == "1,191 messages"
    assert plural(2, "entry", "entries") == "2 entries"


def test_no_string_of_the_program_says_a_lazy_plural() -> None:
    """Every string the program holds (so every one it can show) says `1 message` or
    `2 messages`, through plural(), never `message(s)`."""
    # An f-string is one STRING token up to Python 3.11, FSTRING_MIDDLE parts after.
    string_tokens = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    lazy = re.compile(r"[a-z]\((s|es|ies)\)")
    found = []
    for path in sorted((Path(__file__).parent.parent / "src").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not lazy.search(source):
            continue  # a token is a slice of its source: none of this file's can match
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type in string_tokens and lazy.search(token.string):
                found.append(f"{path.name}:{token.start[0]}: {token.string}")
    assert not found, found
