"""The footer: the most important keys that fit, whole, and `?` for the rest.

Textual's footer lists keys left to right and cuts what does not fit, mid-label
("o Open lin"). This footer ranks the keys (help and quit, then `RANK`, then the
view's keys in the order it declares them, wherever the keymap put them) and shows,
in that order, each key that still fits whole beside the palette's key; the help
screen lists every key. It draws them itself, one widget with no children: a widget
per key (Textual's `FooterKey`) costs start-up time, and every restyle, layout and
message broadcast walks each.
"""

from __future__ import annotations

import functools
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.binding import Binding
from textual.events import MouseDown, MouseMove
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget

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
    return _declared_order(type(screen))


def _declared_order(screen_class: type[Screen[object]]) -> dict[str, int]:
    order = {action: n for n, action in enumerate(PINNED)}
    for owner in screen_class.__mro__:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding):
                order.setdefault(binding.action, len(order))
    return order


def footer_order(screen: Screen[object]) -> dict[str, int]:
    """Help and quit, then the ranked ids' actions, then the rest as declared."""
    return _footer_order(type(screen))


@functools.cache
def _footer_order(screen_class: type[Screen[object]]) -> dict[str, int]:
    # Per class: the footer asks on every change of the bindings.
    declared = _declared_order(screen_class)
    ranked: dict[str, int] = {}
    for owner in screen_class.__mro__:
        for binding in getattr(owner, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.id in RANK:
                ranked.setdefault(binding.action, len(PINNED) + RANK.index(binding.id))
    return {
        action: ranked.get(action, n if n < len(PINNED) else len(PINNED) + len(RANK) + n)
        for action, n in declared.items()
    }


class Key(NamedTuple):
    """One key the footer offers, as Textual's footer would make a key widget of it."""

    key: str  # the binding's key, e.g. "question_mark"
    display: str  # as drawn: the keymap's key as `App.get_key_display` spells it
    description: str
    action: str
    enabled: bool
    tooltip: str
    palette: bool = False  # the command palette's key, docked right


class Placed(NamedTuple):
    """A key drawn in the footer: its first cell from the footer's left, and its cells."""

    key: Key
    x: int
    width: int


class AppFooter(Widget):
    """The keys drawn by the footer itself, one widget with no children: a key widget
    costs start-up time, every restyle and layout walks it and every Pilot press posts
    to it. Each key is drawn in the cells, colours and text styles of Textual's
    `FooterKey` (its CSS, restated here as component classes), and a click runs it as a
    click on Textual's does."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "app-footer--item",
        "app-footer--hover",
        "app-footer--disabled",
        "app-footer--key",
        "app-footer--description",
        "app-footer--palette-border",
    }
    # Textual's Footer rules, then its FooterKey's as components: a key's background
    # (under the pointer, another), greyed, its key and description, the palette's border.
    DEFAULT_CSS = """
    AppFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .app-footer--item {
            background: $footer-item-background;
        }
        .app-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        .app-footer--disabled {
            text-style: dim;
        }
        .app-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .app-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .app-footer--palette-border {
            color: $foreground 20%;
        }
    }
    """

    # Every key offered, in rank order, the palette's last; empty until the screen's
    # bindings are first ready. A key turning on or off redraws the line, no layout.
    keys: reactive[tuple[Key, ...]] = reactive((), layout=False)
    # The action of the key under the pointer, highlighted as Textual's `FooterKey:hover`.
    hovered: reactive[str | None] = reactive(None, layout=False, init=False)

    def __init__(self) -> None:
        super().__init__()
        # The keys last placed, the width, and where each key fitting went.
        self._placed: tuple[tuple[Key, ...], int, tuple[Placed, ...]] | None = None
        # The cell under the pointer while it is over the footer: keys that move under a
        # still pointer (the bindings changed, a resize) are highlighted as it is now.
        self._pointer: int | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Bindings are updated after every focus and state change: the line is drawn
        again only when what it shows changed (the reactive compares)."""
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return  # as Textual's footer: it shows the keys when the app has focus again
        self.keys = offered_keys(screen)

    @property
    def shown(self) -> tuple[Placed, ...]:
        """The keys drawn at the footer's width, left to right, the palette's last."""
        return self.placed(self.size.width)

    def placed(self, width: int) -> tuple[Placed, ...]:
        """The keys that fit whole in `width` cells, where each is drawn."""
        keys = self.keys
        if self._placed is not None and self._placed[0] is keys and self._placed[1] == width:
            return self._placed[2]
        widths = [key_width(key) for key in keys]
        chosen = fitting([(w, key.palette) for w, key in zip(widths, keys, strict=True)], width)
        placed: list[Placed] = []
        x = 0
        for n in chosen:
            if keys[n].palette:  # docked right
                placed.append(Placed(keys[n], max(0, width - widths[n]), widths[n]))
            else:
                placed.append(Placed(keys[n], x, widths[n]))
                x += widths[n]
        placed.sort(key=lambda p: p.x)
        self._placed = (keys, width, tuple(placed))
        return self._placed[2]

    def key_at(self, x: int) -> Key | None:
        """The key drawn in the cell `x` cells from the footer's left."""
        return next((p.key for p in self.shown if p.x <= x < p.x + p.width), None)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.visual_style
        # The footer's own cells: its background alone, as Textual's footer leaves them.
        blank = RichStyle.from_color(bgcolor=self.background_colors[1].rich_color)
        parts = {name: self._part(name) for name in self.COMPONENT_CLASSES}
        segments: list[Segment] = []
        x = 0
        for placed in self.shown:
            if placed.x > x:
                segments.append(Segment(" " * (placed.x - x), blank))
            segments.extend(self._drawn(placed.key, base, parts))
            x = placed.x + placed.width
        return Strip(segments).adjust_cell_length(width, blank)

    def _drawn(self, key: Key, base: Style, parts: dict[str, Style]) -> list[Segment]:
        """One key as Textual's `FooterKey.render` draws it: ` k ` then `description `;
        the palette's key compact, after its left border, and padded right."""
        own = (
            base + parts["app-footer--hover" if key.action == self.hovered else "app-footer--item"]
        )
        if not key.enabled:
            own += parts["app-footer--disabled"]
        key_style = (own + parts["app-footer--key"]).rich_style
        description_style = (own + parts["app-footer--description"]).rich_style
        if not key.palette:
            if not key.description:
                return [Segment(key.display, key_style)]
            return [
                Segment(f" {key.display} ", key_style),
                Segment(f"{key.description} ", description_style),
            ]
        inner = Style(background=own.background)
        # The border's colour is laid over the footer's background, not the key's.
        border_color = self.get_component_styles("app-footer--palette-border").color
        border = Style(foreground=base.background + border_color)
        drawn = [
            Segment("\u258f", (inner + border).rich_style),
            Segment(key.display, key_style),
        ]
        if key.description:
            drawn.append(Segment(f" {key.description}", description_style))
        return [*drawn, Segment(" ", inner.rich_style)]

    def _part(self, name: str) -> Style:
        """A component class's own rules (not its parents'), colours kept translucent so
        that they are laid over what is under them as Textual lays a widget's."""
        styles = self.get_component_styles(name)
        return Style(
            styles.background if styles.has_rule("background") else None,
            styles.color if styles.has_rule("color") else None,
        ) + Style.from_rich_style(styles.text_style)

    def watch_keys(self) -> None:
        self._point_at(self._pointer)

    def on_resize(self) -> None:
        self._point_at(self._pointer)

    def on_mouse_move(self, event: MouseMove) -> None:
        self._pointer = event.x
        self._point_at(event.x)

    def on_leave(self) -> None:
        self._pointer = None
        self._point_at(None)

    def _point_at(self, x: int | None) -> None:
        """The key in cell `x` highlighted, its tooltip and the hand pointer shown."""
        key = None if x is None else self.key_at(x)
        self.hovered = None if key is None else key.action
        tooltip = key.tooltip if key is not None and key.tooltip else None
        if self.tooltip != tooltip:  # each set updates the tooltip shown
            self.tooltip = tooltip
        if self.styles.pointer != ("default" if key is None else "pointer"):
            self.styles.pointer = "default" if key is None else "pointer"

    def on_mouse_down(self, event: MouseDown) -> None:
        """As a click on Textual's key: the key pressed, or the bell when it is off."""
        key = self.key_at(event.x)
        if key is None:
            return
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()


def key_width(key: Key) -> int:
    """The cells a key takes, as Textual's `FooterKey` CSS pads it: ` k ` then
    `description `; the palette's key (compact, docked right) a border and a space
    instead."""
    display = cell_len(key.display)
    description = cell_len(key.description)
    if not description:
        return display + (2 if key.palette else 0)
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


def offered_keys(screen: Screen[object]) -> tuple[Key, ...]:
    """The keys Textual's footer would make for the screen's bindings (one per action,
    the first bound), in rank order, then the command palette's."""
    app = screen.app
    bindings = screen.active_bindings
    first: dict[str, Key] = {}
    for _, binding, enabled, tooltip in bindings.values():
        if binding.show and binding.action not in first:
            first[binding.action] = Key(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                tooltip,
            )
    order = footer_order(screen)
    # Stable: keys of other owners (the focused widget's) keep their places.
    keys = sorted(first.values(), key=lambda key: order.get(key.action, len(order)))
    if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in bindings:
        _, binding, enabled, _ = bindings[app.COMMAND_PALETTE_BINDING]
        keys.append(
            Key(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                enabled,
                binding.tooltip or binding.description,
                palette=True,
            )
        )
    return tuple(keys)
