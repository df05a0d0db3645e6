"""The footer, with help and quit first so that no width hides them.

Textual's footer lists keys left to right and cuts what does not fit; the app's own
keys came last, so `?` and `q` were the first to go, and a key moved by the keymap
jumped to the end. This footer puts help and quit first, then the view's keys in the
order the view declares them, wherever the keymap put them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

PINNED = ("help", "app.help", "quit", "app.quit")


def declared_order(screen: Screen[object]) -> dict[str, int]:
    """Help and quit, then each action of the screen in the order its classes declare it."""
    order = {action: n for n, action in enumerate(PINNED)}
    for owner in type(screen).__mro__:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding):
                order.setdefault(binding.action, len(order))
    return order


class AppFooter(Footer):
    def compose(self) -> ComposeResult:
        order = declared_order(self.screen)
        keys = list(super().compose())
        # Stable: keys of other owners (the focused widget's) keep their places.
        yield from sorted(keys, key=lambda key: order.get(getattr(key, "action", ""), len(order)))
