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
_TABLE = str.maketrans({chr(c): s for c, s in _CONTROL.items()})
_UNSAFE = re.compile("[" + "".join(re.escape(chr(c)) for c in _CONTROL) + "]")


def safe(value: object, *, newlines: bool = True) -> str:
    """`value` as text with every control and bidi character replaced by a visible stand-in.

    Tabs become spaces; newlines stay (for panes) unless `newlines` is false, when they
    become `⏎` so one value stays one line.
    """
    text = value if isinstance(value, str) else str(value)
    if _UNSAFE.search(text):
        text = text.translate(_TABLE)
    text = text.replace("\r\n", "\n").replace("\r", "\\r").replace("\t", "    ")
    return text if newlines else text.replace("\n", "⏎")


def is_safe(text: str) -> bool:
    """True when `text` holds nothing that `safe()` would replace."""
    return _UNSAFE.search(text) is None and "\r" not in text


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
    """JSON whose strings escape C1 and bidi controls too (json escapes only C0)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def for_clipboard(value: object) -> tuple[str, bool]:
    """What may go on the clipboard: the text with every character `safe()` would
    replace, and every line break and tab, removed (decisions.md 21), so a paste cannot
    end a bracketed paste, run a line or hide a word. True beside it when that changed
    the text, so the notice can say it was cleaned."""
    raw = value if isinstance(value, str) else str(value)
    cleaned = _UNSAFE.sub("", raw)
    cleaned = "".join(c for c in cleaned if c not in "\r\n\t\u2028\u2029")
    return cleaned, cleaned != raw
