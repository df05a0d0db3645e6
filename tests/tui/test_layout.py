"""The footer's rule at every width, fast: which keys a footer of a given width shows
(`fitting`) and the cells each takes (`key_width`); and its drawing, the same as
Textual's own footer draws the same keys.

Through Pilot, one app resized across the sizes of tests/tui/test_snapshots.py checks
the rule on real layouts: each key drawn in the cells `key_width` gives it, the inbox's
footer whole, by rank and full, at 80, 100, 120, 140 and 200 columns, and every view
laid out again on each resize, within a breakpoint or across it, both ways, the width
alone, the height alone, and back and forth at once, ending just below the breakpoint."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.widgets.app_footer import AppFooter, Key, fitting, key_width
from tests.waiting import until

# A footer's keys in rank order as (cells, the palette's key?): help and quit, the marks,
# then wider and narrower keys mixed, the palette's key among them as composed.
KEYS = [
    (8, False),
    (8, False),
    (8, False),
    (10, False),
    (10, False),
    (12, False),
    (9, False),
    (12, True),
    (7, False),
    (21, False),
    (6, False),
    (11, False),
    (14, False),
    (5, False),
]


def test_the_footer_shows_the_palettes_key_then_by_rank_each_key_that_still_fits_whole() -> None:
    palette = sum(cells for cells, is_palette in KEYS if is_palette)
    every = sum(cells for cells, _ in KEYS)
    for width in range(0, every + 2):
        chosen = fitting(KEYS, width)
        assert chosen == sorted(chosen), width  # in rank order
        assert 7 in chosen, width  # the palette's key, always
        room = width - palette
        for n, (cells, is_palette) in enumerate(KEYS):
            if is_palette:
                continue
            if n in chosen:
                assert cells <= room, (width, n)  # whole: it fits where it is
                room -= cells
            else:
                assert cells > room, (width, n)  # left out only when it did not fit
        assert room >= min(0, width - palette), width
    assert fitting(KEYS, every) == list(range(len(KEYS))), "wide enough, every key"
    assert fitting(KEYS, palette - 1) == [7], "narrower than the palette's key, it alone"


def key(display: str, description: str, palette: bool = False) -> Key:
    return Key("k", display, description, "do", True, "", palette)


def test_a_keys_cells_are_its_key_and_description_padded_the_palettes_its_border() -> None:
    """As Textual's footer key CSS pads them; tests/tui/test_snapshots.py checks the
    footer draws each key in these cells (the snapshots, as Textual's keys drew them)."""
    assert key_width(key("r", "Read")) == 1 + 4 + 3  # " r " then "Read "
    assert key_width(key("^g", "Go to 通知")) == 2 + 10 + 3  # 通知 takes four cells
    assert key_width(key("space", "")) == 5
    assert key_width(key("^p", "", palette=True)) == 2 + 2  # its border and a space
    assert key_width(key("^p", "palette", palette=True)) == 2 + 7 + 3


def test_a_view_is_narrow_below_120_columns_and_wide_from_120() -> None:
    """The class a view's screen is born with; Textual's breakpoints set the same on a
    resize (checked laid out at 80, 100, 119, 120, 140 and 200 columns)."""
    screen = ServiceScreen()  # made outside an app: no class yet
    assert [screen.breakpoint(w) for w in (0, 80, 119, 120, 121, 200)] == [
        "-narrow",
        "-narrow",
        "-narrow",
        "-wide",
        "-wide",
        "-wide",
    ]
    assert not screen.has_class("-narrow", "-wide")


class Keys(Screen[None]):
    """Keys that all fit, as declared (the footer's order when none is ranked): one with
    a tooltip, one whose description is wide, one greyed out."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "read", "Read", tooltip="Mark it read"),
        Binding("ctrl+g", "go", "Go to 通知"),
        Binding("x", "off", "Off"),
    ]

    def __init__(self, footer: Widget) -> None:
        super().__init__()
        self.footer = footer

    def compose(self) -> ComposeResult:
        yield self.footer

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "off" else True


class Drawn(App[None]):
    def __init__(self, footer: Widget) -> None:
        super().__init__()
        self.footer = footer

    def on_mount(self) -> None:
        self.push_screen(Keys(self.footer))


async def test_the_footer_draws_its_keys_as_textuals_footer_does() -> None:
    """Cell for cell and style for style, as Textual's footer with a widget per key
    draws the same keys: in two themes, a greyed key dim, the palette's key docked
    right, and the key under the pointer highlighted (tests/tui/test_snapshots.py: the
    app's views, drawn as before)."""
    ours = await pictures_of(AppFooter())
    assert ours[2] != ours[1], "the key under the pointer is not highlighted"
    assert ours == await pictures_of(Footer())


async def pictures_of(footer: Widget) -> list[str]:
    """The screen drawn in a dark theme, a light one, then with the pointer over `r`."""
    app = Drawn(footer)
    pictures = []
    async with app.run_test(size=(60, 3)) as pilot:
        await until(pilot, lambda: "Off" in app.export_screenshot(), what="the keys")
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.wait_for_scheduled_animations()
            pictures.append(app.export_screenshot(simplify=True))
        await pilot.hover(type(footer), offset=(1, 0))
        await pilot.wait_for_scheduled_animations()
        pictures.append(app.export_screenshot(simplify=True))
    return pictures


class Moving(Screen[None]):
    """Two keys; the first comes and goes, moving the second under a still pointer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "first", "First"),
        Binding("d", "last", "Last", tooltip="The last"),
    ]
    first_on = reactive(True, bindings=True)

    def compose(self) -> ComposeResult:
        yield AppFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.first_on if action == "first" else True


class Moves(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Moving())


async def test_the_key_under_a_still_pointer_is_highlighted_when_the_keys_move() -> None:
    """The footer highlights, and gives the tooltip of, the key under the pointer as the
    keys are now: when the bindings change under a pointer that did not move, the key
    that moved away is no longer highlighted, and the key that came is."""
    app = Moves()
    async with app.run_test(size=(60, 3)) as pilot:
        footer = app.screen.query_one(AppFooter)
        screen = app.screen
        assert isinstance(screen, Moving)
        await until(pilot, lambda: len(footer.shown) == 3, what="first, last and the palette")
        last = next(p for p in footer.shown if p.key.action == "last")
        await pilot.hover(AppFooter, offset=(last.x + 1, 0))
        await until(pilot, lambda: footer.hovered == "last", what="last highlighted")
        assert footer.tooltip == "The last"
        screen.first_on = False  # `last` moves left, from under the pointer
        await until(pilot, lambda: len(footer.shown) == 2, what="the first key gone")
        assert footer.key_at(last.x + 1) is None
        assert (footer.hovered, footer.tooltip) == (None, None)
        assert footer.styles.pointer == "default"
        await pilot.hover(AppFooter, offset=(1, 0))
        await until(pilot, lambda: footer.hovered == "last", what="last highlighted")
        screen.first_on = True  # `first` comes back under the pointer
        await until(pilot, lambda: len(footer.shown) == 3, what="the first key back")
        assert (footer.hovered, footer.tooltip) == ("first", None)
