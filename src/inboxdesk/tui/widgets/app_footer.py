"""The footer, with help and quit first so that no width hides them.

Textual's footer lists keys left to right and cuts what does not fit; the app's own
keys come last, so `?` and `q` were the first to go. This footer puts them first.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

PINNED = frozenset({"help", "quit", "app.help", "app.quit"})


class AppFooter(Footer):
    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        first = [key for key in keys if getattr(key, "action", None) in PINNED]
        yield from first
        yield from (key for key in keys if key not in first)
