"""The footer's rule at every width, fast: which keys a footer of a given width shows
(`fitting`) and the cells each takes (`key_width`).

Through Pilot, one app resized across the sizes of tests/tui/test_snapshots.py checks
the rule on real layouts: each key drawn in the cells `key_width` gives it, the inbox's
footer whole, by rank and full, at 80, 100, 120, 140 and 200 columns, and every view
laid out again on each resize, within a breakpoint or across it, both ways, the width
alone, the height alone, and back and forth at once, ending just below the breakpoint."""

from __future__ import annotations

from inboxdesk.tui.screens.service_screen import ServiceScreen
from inboxdesk.tui.widgets.app_footer import Key, fitting, key_width

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
