"""The footer: the most important keys that fit, whole, and `?` for the rest.

Textual's footer lists keys left to right and cuts what does not fit, mid-label
("o Open lin"). This footer ranks the keys (help and quit, then `RANK`, then the
view's keys in the order it declares them, wherever the keymap put them) and shows,
in that order, each key that still fits whole beside the palette's key; the others
are hidden, and the help screen lists every key.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from inboxdesk.private_apis import footer_ready, mark_footer_ready, start_key_as_footer

# Refreshes to wait for a composed footer to be laid out before fitting it.
TRIES = 5
PINNED = ("help", "app.help", "quit", "app.quit")
# Binding ids a support agent needs most, first: the declared order groups keys by kind
# (the help screen's order), which put filter, subscriber and the views last.
RANK = (
    "inbox.mark_read",
    "inbox.mark_unread",
    "inbox.filter_text",
    "inbox.go_to",
    "inbox.undo",
    "inbox.toggle_select",
    "inbox.pick_subscriber",
    "inbox.integrations",
    "inbox.history",
    "inbox.next_filter",
    "inbox.open_cta",
)


def declared_order(screen: Screen[object]) -> dict[str, int]:
    """Help and quit, then each action of the screen in the order its classes declare it."""
    order = {action: n for n, action in enumerate(PINNED)}
    for owner in type(screen).__mro__:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding):
                order.setdefault(binding.action, len(order))
    return order


def footer_order(screen: Screen[object]) -> dict[str, int]:
    """Help and quit, then the ranked ids' actions, then the rest as declared."""
    declared = declared_order(screen)
    ranked: dict[str, int] = {}
    for owner in type(screen).__mro__:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.id in RANK:
                ranked.setdefault(binding.action, len(PINNED) + RANK.index(binding.id))
    return {
        action: ranked.get(action, n if n < len(PINNED) else len(PINNED) + len(RANK) + n)
        for action, n in declared.items()
    }


class AppFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        # The keys the footer last composed: what it shows.
        self._shown: tuple[object, ...] | None = None
        # Each composed key's width, measured while it was displayed.
        self._widths: dict[Widget, int] = {}
        self._tries = 0

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
        self._widths = {}
        self._tries = 0
        order = footer_order(self.screen)
        keys = list(super().compose())
        for key in keys:
            start_key_as_footer(key, self)  # not restyled twice once mounted
        # Stable: keys of other owners (the focused widget's) keep their places.
        yield from sorted(keys, key=lambda key: order.get(getattr(key, "action", ""), len(order)))

    async def recompose(self) -> None:
        await super().recompose()
        # Measured once laid out (every key displayed), then fitted to the width.
        self.call_after_refresh(self.fit)

    def on_resize(self, event: Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Display, in rank order, each key that fits whole; hide the others."""
        # By type name: Textual does not export FooterKey.
        keys = list(self.query_children("FooterKey"))
        palette = [k for k in keys if k.has_class("-command-palette")]
        keys = [k for k in keys if k not in palette]
        for key in keys:
            if key.display and key.outer_size.width:
                self._widths.setdefault(key, key.outer_size.width + key.styles.margin.width)
        if any(key not in self._widths for key in keys) or not all(
            k.outer_size.width for k in palette
        ):
            # Not laid out yet: try after the next refresh, a few times at most.
            self._tries += 1
            if self._tries <= TRIES:
                self.call_after_refresh(self.fit)
            return
        room = self.size.width - sum(k.outer_size.width + k.styles.margin.width for k in palette)
        for key in keys:
            width = self._widths[key]
            key.display = width <= room
            if key.display:
                room -= width


def _shown_keys(screen: Screen[object]) -> tuple[object, ...]:
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )
