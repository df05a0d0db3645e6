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

from inboxdesk.private_apis import footer_ready, mark_footer_ready

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
    def __init__(self) -> None:
        super().__init__()
        # The keys the footer last composed: what it shows.
        self._shown: tuple[object, ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose only when the keys to show change: bindings are updated after every
        focus and state change, and each recompose restyles twenty widgets."""
        if _shown_keys(screen) == self._shown:
            mark_footer_ready(self)
            return
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        # Footer composes nothing until the screen's bindings are ready: only then
        # does a compose show these keys.
        self._shown = _shown_keys(self.screen) if footer_ready(self) else None
        order = declared_order(self.screen)
        keys = list(super().compose())
        # Stable: keys of other owners (the focused widget's) keep their places.
        yield from sorted(keys, key=lambda key: order.get(getattr(key, "action", ""), len(order)))


def _shown_keys(screen: Screen[object]) -> tuple[object, ...]:
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )
