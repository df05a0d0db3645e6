"""Text wrapped to a width in terminal cells, for the command line's tables and the
app's timeline alike: broken at spaces, a word wider than a line broken inside, and
nothing ever cut."""

from __future__ import annotations

from inboxdesk.text import cells, clip

# A whole text's bound, against runaway input only.
WHOLE = 1_000_000


def wrap(text: str, width: int) -> list[str]:
    """One safe line broken at spaces into lines of at most `width` terminal cells; a
    word wider than that is broken inside. Nothing is cut."""
    width = max(width, 1)
    words = clip(text, WHOLE).split(" ")
    lines: list[str] = []
    line = ""
    for word in words:
        while cells(word) > width:  # a word longer than a line: split it
            room = width - cells(line) - (1 if line else 0)
            if line and room < cells(word[0]):
                lines.append(line)
                line, room = "", width
            head, word = _split(word, room)
            line = f"{line} {head}" if line else head
        if line and cells(line) + 1 + cells(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _split(word: str, room: int) -> tuple[str, str]:
    """The most of `word` that fits `room` cells, and the rest; at least one character,
    so that a wide character in a narrow room still moves on."""
    used = 0
    for at, char in enumerate(word):
        used += cells(char)
        if used > room:
            return word[: max(at, 1)], word[max(at, 1) :]
    return word, ""
