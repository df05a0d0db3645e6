"""The footer: the most important keys that fit, whole, and `?` for the rest.

Textual's footer lists keys left to right and cuts what does not fit, mid-label
("o Open lin"). This footer ranks the keys (help and quit, then `RANK`, then the
view's keys in the order it declares them, wherever the keymap put them) and shows,
in that order, each key that still fits whole beside the palette's key; the others
are not made at all (a key widget costs start-up time), and the help screen lists
every key.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.events import Resize
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from inboxdesk.private_apis import (
    footer_ready,
    mark_footer_ready,
    set_footer_key_enabled,
    start_key_as_footer,
)

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
        self._shown: tuple[tuple[str, str, bool, str], ...] | None = None
        # Each key of that compose as (cells, the palette's key?), and those shown.
        self._keys: list[tuple[int, bool]] = []
        self._chosen: list[int] = []

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Recompose only when the keys to show change: bindings are updated after every
        focus and state change, and each recompose restyles the keys and lays the screen
        out again. Textual runs one recompose for every request made before it starts,
        and the keys it reads are those of that moment. A key that only turns on or off
        (the inbox's row keys once its first row is highlighted, set primary from row to
        row) is changed in place: it keeps its width."""
        mark_footer_ready(self)
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return  # as Textual's footer: it recomposes when the app has focus again
        shown = _shown_keys(screen)
        if shown == self._shown:
            return
        if self._shown is not None and _without_enabled(shown) == _without_enabled(self._shown):
            self._shown = shown
            enabled = {(key, description): on for key, description, on, _ in shown}
            for key in self.children:
                if not key.has_class("-command-palette"):
                    on = enabled.get((getattr(key, "key", ""), getattr(key, "description", "")))
                    set_footer_key_enabled(key, on is not False)
            return
        self.refresh(recompose=True)

    def compose(self) -> ComposeResult:
        # Footer composes nothing until the screen's bindings are ready: only then
        # does a compose show these keys.
        self._shown = _shown_keys(self.screen) if footer_ready(self) else None
        order = footer_order(self.screen)
        # Stable: keys of other owners (the focused widget's) keep their places.
        keys = sorted(
            super().compose(), key=lambda key: order.get(getattr(key, "action", ""), len(order))
        )
        self._keys = [(key_width(k), k.has_class("-command-palette")) for k in keys]
        # Docked across the screen: before its first layout, the app's width is its own.
        self._chosen = fitting(self._keys, self.size.width or self.app.size.width)
        # Only the keys that fit are made at all: the inbox has twice as many keys as
        # 120 columns show.
        for n in self._chosen:
            start_key_as_footer(keys[n], self)  # not restyled twice once mounted
            yield keys[n]

    def on_resize(self, event: Resize) -> None:
        if self._keys and fitting(self._keys, event.size.width) != self._chosen:
            self.refresh(recompose=True)


def key_width(key: Widget) -> int:
    """The cells one of Textual's footer keys takes, as its CSS pads it: ` k ` then
    `description `; the palette's key (compact, docked right) has a border and a space
    instead. tests/tui/test_snapshots.py checks it against laid-out keys."""
    display = cell_len(str(getattr(key, "key_display", "")))
    description = cell_len(str(getattr(key, "description", "")))
    palette = key.has_class("-command-palette")
    if not description:
        return display + (2 if palette else 0)
    return display + description + 3


def fitting(keys: list[tuple[int, bool]], width: int) -> list[int]:
    """Indexes of the keys shown in `width` cells: the palette's key always, then, in
    rank order, each other key that still fits whole (the help screen lists them all)."""
    room = width - sum(cells for cells, palette in keys if palette)
    chosen = []
    for n, (cells, palette) in enumerate(keys):
        if palette or cells <= room:
            chosen.append(n)
            room -= 0 if palette else cells
    return chosen


def _shown_keys(screen: Screen[object]) -> tuple[tuple[str, str, bool, str], ...]:
    return tuple(
        (binding.key, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


def _without_enabled(
    keys: tuple[tuple[str, str, bool, str], ...],
) -> tuple[tuple[str, str, str], ...]:
    return tuple((key, description, tooltip) for key, description, _, tooltip in keys)
