"""Shortening text for one line of a table, on screen or in a terminal."""

from __future__ import annotations


def clip(text: str, width: int) -> str:
    """Whitespace folded to single spaces, cut to `width` with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"
