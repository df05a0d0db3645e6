"""Text from the wire made safe to show, and shortened to fit a cell.

Every string that came from the service (titles, content, URLs, payloads, names,
integration settings) passes through `safe()` before any view or CLI table shows it.
The result holds no control character, no ESC, no C1 code, no bidi override and no
zero-width character that hides text: each is replaced by a visible stand-in, so
nothing from a notification can move the cursor, set the window title, write the
clipboard or reorder text. Views then show the result as plain text
(`rich.text.Text`, never markup), so `[@click=...]` stays literal.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from rich.cells import cell_len

# C0 controls (except tab and newline, which layout handles), DEL and C1 controls.
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F]}
_CONTROL.update({c: f"\\x{c:02x}" for c in range(0x80, 0xA0)})
_CONTROL[0x1B] = "␛"  # ESC: the start of every escape sequence, shown as its symbol
# Bidi embeddings, overrides and isolates, and the line/paragraph separators that
# terminals treat as line breaks: shown by code point so reordering cannot hide text.
_INVISIBLE = [
    *range(0x202A, 0x202F),  # LRE RLE PDF LRO RLO
    *range(0x2066, 0x206A),  # LRI RLI FSI PDI
    0x200E,  # LRM
    0x200F,  # RLM
    0x061C,  # ALM
    0x2028,  # LINE SEPARATOR
    0x2029,  # PARAGRAPH SEPARATOR
    # Zero-width characters that hide text or split a word that looks whole (a
    # spoofed URL or name). ZWJ (U+200D) stays: emoji sequences need it.
    0x200B,  # ZERO WIDTH SPACE
    0x200C,  # ZERO WIDTH NON-JOINER
    *range(0x2060, 0x2065),  # WORD JOINER and the invisible operators
    0x180E,  # MONGOLIAN VOWEL SEPARATOR
    0xFEFF,  # ZERO WIDTH NO-BREAK SPACE (BOM)
]
_CONTROL.update({c: f"<U+{c:04X}>" for c in _INVISIBLE})
# Lone surrogates (a JSON escape can put one in a title): no terminal encoding can write one.
_CONTROL.update({c: f"<U+{c:04X}>" for c in range(0xD800, 0xE000)})


def _runs(codes: list[int]) -> str:
    """A character class of `codes`, as ranges rather than 2,000 single characters."""
    runs: list[list[int]] = []
    for code in sorted(codes):
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(re.escape(chr(a)) + ("" if a == b else "-" + re.escape(chr(b))) for a, b in runs)


_UNSAFE = re.compile(f"[{_runs(list(_CONTROL))}]")


@functools.cache
def _table() -> dict[int, str]:
    return str.maketrans({chr(c): s for c, s in _CONTROL.items()})


# Combining marks kept on one base character; a flood of them (20,000 on one letter)
# is cut there, so a title cannot make the terminal redraw megabytes per key.
MAX_MARKS = 30


@functools.cache
def _hidden() -> Any:
    """Every default-ignorable code point (from Unicode's own data, through the regex
    module), but those an emoji or a flag needs, and runs of combining
    marks past MAX_MARKS. Built on first use: start-up shows ASCII first."""
    import regex

    return regex.compile(
        # A subdivision flag: black flag, tag letters, cancel tag. Kept whole.
        r"(\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F)"
        # An emoji and what joins it to the next (ZWJ, VS16, skin tones). Kept whole.
        r"|(\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]*"
        r"(?:\u200D\p{Extended_Pictographic}[\p{Emoji_Modifier}\uFE0F]*)*)"
        # Format characters too (U+FFF9-FFFB annotations, number signs): all invisible.
        r"|([\p{Default_Ignorable_Code_Point}\p{Cf}])"
        rf"|(\p{{M}}{{{MAX_MARKS + 1},}})"
    )


def _shown(match: Any) -> str:
    flag, emoji, hidden, marks = match.groups()
    if flag or emoji:
        return str(flag or emoji)
    if hidden:
        return f"<U+{ord(hidden):04X}>"
    return f"{marks[:MAX_MARKS]}<{len(marks) - MAX_MARKS} more marks>"


def safe(value: object, *, newlines: bool = True) -> str:
    """`value` as text with every control, bidi and invisible character replaced by a
    visible stand-in, and combining marks capped at MAX_MARKS per character.

    Tabs become spaces; newlines stay (for panes) unless `newlines` is false, when they
    become `⏎` so one value stays one line.
    """
    text = value if isinstance(value, str) else str(value)
    if _UNSAFE.search(text):
        text = text.translate(_table())
    if not text.isascii():
        text = _hidden().sub(_shown, text)
    text = text.replace("\r\n", "\n").replace("\r", "\\r").replace("\t", "    ")
    return text if newlines else text.replace("\n", "⏎")


def cells(text: str) -> int:
    """How many terminal cells `text` takes (CJK and emoji take two)."""
    return cell_len(text)


def clip(text: str, width: int) -> str:
    """One safe line: whitespace folded, cut to `width` terminal cells with an ellipsis."""
    text = " ".join(safe(text, newlines=False).split())
    if cell_len(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for char in text:
        size = cell_len(char)
        if used + size > width - 1:
            break
        out.append(char)
        used += size
    return "".join(out) + "…" if width > 0 else ""


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal cells."""
    return text + " " * max(0, width - cell_len(text))


def safe_json(value: Any, *, indent: int | None = None) -> str:
    """JSON whose strings escape C1, bidi and invisible characters too (json escapes only
    C0); the data is unchanged, only spelled so that nothing is hidden."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    text = _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if not text.isascii():
        text = _hidden().sub(_escaped, text)
    return text


def _escaped(match: Any) -> str:
    """A hidden character as its JSON escape (a surrogate pair past the BMP)."""
    flag, emoji, hidden, marks = match.groups()
    if not hidden:
        return str(flag or emoji or marks)
    units = hidden.encode("utf-16-be")
    return "".join(
        f"\\u{int.from_bytes(units[n : n + 2], 'big'):04x}" for n in range(0, len(units), 2)
    )


def _removed(match: Any) -> str:
    flag, emoji, hidden, marks = match.groups()
    return "" if hidden else str(flag or emoji or marks[:MAX_MARKS])


def for_clipboard(value: object) -> tuple[str, bool]:
    """What may go on the clipboard: the text with every character `safe()` would
    replace, and every line break and tab, removed, so a paste cannot
    end a bracketed paste, run a line or hide a word. True beside it when that changed
    the text, so the notice can say it was cleaned."""
    raw = value if isinstance(value, str) else str(value)
    cleaned = _UNSAFE.sub("", raw)
    cleaned = "".join(c for c in cleaned if c not in "\r\n\t\u2028\u2029")
    if not cleaned.isascii():
        cleaned = _hidden().sub(_removed, cleaned)
    return cleaned, cleaned != raw


def plural(count: int | float, word: str, many: str | None = None) -> str:
    """`1 condition`, `3 conditions`, `1,191 messages`: the count with thousands
    separators and the word that agrees with it, never a lazy "(s)"."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"
