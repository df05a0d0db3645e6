"""How the main views look, at a fixed time and data (pytest-textual-snapshot's SVGs),
and how a resized terminal lays them out again.

One app, first laid out at 80 by 24 (the detail pane below the list), walks the sizes
of `SIZES` by resizing the terminal, up to a wide one: at each size it draws the inbox
and the integrations view, at two the set-primary confirmation over it (a dialog of
fixed width, centred); at the last, then help over the inbox and a message's detail
with a selection. A resize lays out the same picture as a start at that size, so the
walk draws what four starts drew (the same SVGs), and checks on the way what a resize
must do (tests/tui/test_layout.py: the footer's rule at every width, fast). Update
after a deliberate change of looks:
pytest tests/tui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import pytest
from rich.cells import cell_len
from textual.events import Resize
from textual.pilot import Pilot
from textual.screen import Screen

from inboxdesk.private_apis import layout_pending
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.integrations.detail import IntegrationDetail
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.help import HelpScreen
from inboxdesk.tui.widgets.app_footer import AppFooter, key_width
from tests.conftest import MAILGUN, Service
from tests.tui.conftest import app_for, settled, until, view_listing
from tests.tui.test_help_and_palette import (
    footer_fits_whole,
    footer_keys,
    help_at_80_columns,
    key_text,
    shown_in_footer,
)
from tests.tui.test_inbox import header
from tests.tui.test_inbox import opened as opened_rows

if TYPE_CHECKING:
    from syrupy.assertion import SnapshotAssertion

# Walked in this order, each reached by a resize from the one before: within the narrow
# breakpoint wider and taller, across it, then narrower within the wide one.
SIZES = [(80, 24), (100, 30), (200, 50), (140, 42)]
HELP_SIZE = (140, 42)  # where help and a message's detail are drawn too
# Where `p`'s question is drawn: a dialog 70 columns wide, centred; the smallest
# terminal, where it fills the width, and a wide one.
QUESTION_SIZES = ((80, 24), HELP_SIZE)

Draw = Callable[[str], Awaitable[None]]


async def walked(
    app: InboxdeskApp,
    snapshot: SnapshotAssertion,
    size: tuple[int, int],
    walk: Callable[[Pilot[None], Draw], Awaitable[None]],
) -> None:
    """Run `app` headless at `size` and compare each picture `walk` draws with its SVG.

    A picture is taken once the app is idle and its animations done, with no layout
    pending (Pilot's wait outlasts the 50 ms a mode switch holds the app's updates),
    under the title the app had before it ran, as snap_compare takes its one (textual's
    take_svg_screenshot); `wait_for_scheduled_animations` lets every widget handle what
    it was sent, twice, and waits for idle: the three more pauses snap_compare adds
    changed no picture and cost a tenth of the walk. Several pictures of one app cost
    one start instead of one each.
    """
    title = app.title
    drawn: dict[str, str] = {}

    async def auto_pilot(pilot: Pilot[None]) -> None:
        async def draw(name: str) -> None:
            app = pilot.app
            await pilot.wait_for_scheduled_animations()
            assert not layout_pending(app.screen), f"{name}: a layout asked for while idle"
            drawn[name] = pilot.app.export_screenshot(title=title, simplify=True)

        await walk(pilot, draw)
        pilot.app.exit()

    await app.run_async(headless=True, size=size, auto_pilot=auto_pilot)
    assert drawn, "the walk drew nothing"
    # Imported by the one worker that compares: it brings Jinja (0.04 CPU-s a process).
    from pytest_textual_snapshot import SVGImageExtension

    pictures = snapshot.use_extension(SVGImageExtension)
    for name, svg in drawn.items():
        assert pictures(name=name) == svg, f"{name} drawn otherwise than its snapshot"


async def opened(pilot: Pilot[None]) -> InboxScreen:
    """The first rows shown and the key's environment named: the header shows it once
    loaded (just after the first rows), so every picture waits for it."""
    screen = await opened_rows(pilot)
    await until(pilot, lambda: "Staging" in header(screen), what="the environment")
    return screen


async def laid_out_at(pilot: Pilot[None], screen: Screen[object], width: int, height: int) -> None:
    """The view fills the terminal: its size, its breakpoint class, its footer's row, and
    no layout pending (its class may have changed since it was last laid out)."""

    def fits() -> bool:
        footers = [footer.region for footer in screen.query(AppFooter)]
        return (
            screen.outer_size == (width, height)
            and [(f.width, f.bottom) for f in footers] == [(width, height)]
            and screen.has_class("-narrow" if width < 120 else "-wide")
            and not layout_pending(screen)
        )

    await until(pilot, fits, what=f"the view laid out at {width}x{height}")


def footer_by_rank_and_full(screen: InboxScreen, width: int, help_lines: list[str]) -> None:
    """The footer is whole, by rank and full, and help lists the rest."""
    app = screen.app
    shown = shown_in_footer(screen)
    assert footer_fits_whole(screen, width), width
    footer = screen.query_one(AppFooter)
    palette = next(p for p in footer.shown if p.key.palette)
    labels = [p.key.key for p in shown]
    # By rank: help and quit, the marks, the filter, go to and undo come first.
    assert labels[:7] == ["question_mark", "q", "r", "u", "slash", "ctrl+g", "z"], labels
    if width >= 100:
        assert "space" in labels, labels
    if width >= 120:
        assert "p" in labels and "2" in labels, labels
    # Each key is drawn in the cells the footer reckons for it (footer_fits_whole reads
    # its text there), the keys left of the palette's side by side from the left edge.
    assert all(p.width == key_width(p.key) == cell_len(key_text(p.key)) for p in footer.shown)
    assert [p.x for p in shown] == [sum(p.width for p in shown[:n]) for n in range(len(shown))]
    descriptions = [p.key.description for p in shown]
    offered = [b for _, b, _, _ in screen.active_bindings.values() if b.show]
    left_out = [b for b in offered if b.description not in descriptions]
    hidden = [b.description for b in left_out]
    assert hidden, f"the inbox has more keys than {width} columns"
    # Full: none of the keys left out would have fit in the room left.
    room = palette.x - sum(p.width for p in shown)
    cells = [len(app.get_key_display(b)) + len(b.description) + 3 for b in left_out]
    assert all(c > room for c in cells), (room, hidden)
    # Help lists every key of the view, whatever the width (read at 80 columns).
    assert all(any(f" {d} inbox." in f" {line}" for line in help_lines) for d in hidden), hidden


async def resized(pilot: Pilot[None], screen: InboxScreen, width: int, height: int) -> None:
    """Resize and wait for the inbox laid out there, its footer drawn to fit."""
    await pilot.resize_terminal(width, height)
    await footer_whole(pilot, screen, width, height)


async def footer_whole(pilot: Pilot[None], screen: InboxScreen, width: int, height: int) -> None:
    """The inbox laid out at the terminal's size, its footer drawn to fit; ? and q
    first, and in it."""
    await laid_out_at(pilot, screen, width, height)
    await until(
        pilot, lambda: footer_fits_whole(screen, width), what=f"the footer whole at {width}"
    )
    await settled(pilot)
    assert footer_keys(screen)[:2] == [("question_mark", "Help"), ("q", "Quit")], width
    assert all(p.x + p.width <= width for p in shown_in_footer(screen)[:2]), f"? q at {width}"


async def integrations_fit(
    pilot: Pilot[None], screen: IntegrationsScreen, width: int, height: int
) -> None:
    """Narrow, the pane goes below the list, wide, beside it; the columns fit, the
    environment shows at every width; ? and q come first and fit."""
    table = screen.query_one(IntegrationTable)
    pane = screen.query_one(IntegrationDetail)
    narrow = width < 120
    await laid_out_at(pilot, screen, width, height)
    await until(
        pilot,
        lambda: (
            (
                pane.region.y >= table.region.bottom
                if narrow
                else pane.region.x >= table.region.right
            )
            and table.size.width > 0
        ),
        what=f"the pane placed at {width}",
    )
    await pilot.pause()
    shown = [str(c.label) for c in table.columns.values()]
    # The environment shows at every width: production lists every one's.
    assert shown[:2] == ["Environment", "★"] and "Name" in shown
    cells = [str(table.get_cell(key, "environment")) for key in table.rows]
    assert set(cells) == {"Staging", "Other"} and cells[0] == "Staging"
    assert sum(c.get_render_width(table) for c in table.columns.values()) <= table.size.width
    keys = shown_in_footer(screen)
    assert [p.key.key for p in keys[:2]] == ["question_mark", "q"]
    assert all(p.x + p.width <= width for p in keys[:2]), "? and q fit"


@pytest.mark.slow
async def test_each_size_drawn_and_laid_out_again(
    snapshot: SnapshotAssertion, org_wide_service: Service
) -> None:
    """From 80 by 24, where help shows every binding id whole: the Resize that the first
    layout sends lays nothing out again. At each size of `SIZES`, reached by a resize
    made while Integrations shows (laid out again there, its pane placed for the width),
    the inbox, resized meanwhile, is laid out when shown again, its footer whole, by
    rank and full; the inbox and Integrations on Mailgun are drawn, and `p`'s question
    where it differs. At the last, help and a detail; then the width alone, the height
    alone, and back and forth at once, ending back across the breakpoint just below
    it."""

    async def walk(pilot: Pilot[None], draw: Draw) -> None:
        app = pilot.app
        inbox = await opened(pilot)
        await draw("80x24-inbox")
        await settled(pilot)
        layouts: list[Screen[object]] = []
        inbox.screen_layout_refresh_signal.subscribe(inbox, layouts.append)
        # What the first layout sends: a Resize to the size the screen was laid out at.
        inbox.post_message(Resize(inbox.outer_size, inbox.virtual_size, inbox.size))
        await pilot.pause()
        await pilot.pause()
        assert layouts == []
        help_lines = await help_at_80_columns(pilot, inbox)
        footer_by_rank_and_full(inbox, 80, help_lines)

        shown = await view_listing(
            pilot, "2", IntegrationsScreen, IntegrationTable, 10, "the integrations"
        )
        table = shown.query_one(IntegrationTable)
        table.move_cursor(row=table.get_row_index(MAILGUN))
        await integrations_fit(pilot, shown, 80, 24)
        pane = shown.query_one(IntegrationDetail)
        await pilot.press("v")
        await until(pilot, lambda: not pane.display, what="pane hidden")
        await pilot.press("v")
        await until(pilot, lambda: pane.display, what="pane shown")
        for n, (width, height) in enumerate(SIZES):
            name = f"{width}x{height}"
            if n:
                await pilot.resize_terminal(width, height)  # while Integrations shows
                await integrations_fit(pilot, shown, width, height)
                await pilot.press("1")
                await until(pilot, lambda: app.screen is inbox, what="the inbox")
                await footer_whole(pilot, inbox, width, height)
                assert layouts, "laid out again"
                footer_by_rank_and_full(inbox, width, help_lines)
                await draw(f"{name}-inbox")
                await pilot.press("2")
                await until(pilot, lambda: app.screen is shown, what="Integrations")
                await laid_out_at(pilot, shown, width, height)
            await draw(f"{name}-integrations")
            if (width, height) in QUESTION_SIZES:
                await pilot.press("p")
                await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
                await draw(f"{name}-set_primary")
                await pilot.press("n")
                await until(pilot, lambda: app.screen is shown, what="declined")
        await help_then_a_message_with_blocks_and_a_selection(pilot, draw)

        await resized(pilot, inbox, 120, 42)  # the width alone, at the breakpoint
        footer_by_rank_and_full(inbox, 120, help_lines)
        await resized(pilot, inbox, 120, 30)  # the height alone
        await pilot.resize_terminal(150, 40)  # back and forth at once, ending back across
        await pilot.resize_terminal(119, 30)  # the breakpoint, just below it
        await footer_whole(pilot, inbox, 119, 30)

    await walked(app_for(org_wide_service), snapshot, SIZES[0], walk)


async def help_then_a_message_with_blocks_and_a_selection(pilot: Pilot[None], draw: Draw) -> None:
    """In the inbox: help over it, then a message's blocks with a selection."""
    app = pilot.app
    width, height = HELP_SIZE
    await pilot.press("1")
    await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
    await draw(f"{width}x{height}-help")
    await pilot.press("escape")
    await until(pilot, lambda: app.screen.id == "inbox", what="help closed")
    await pilot.press("space")  # select 11
    inbox = app.screen
    assert isinstance(inbox, InboxScreen)
    inbox.table.move_to(7)  # land on 4, as six presses of j do, in one frame
    await draw(f"{width}x{height}-detail")
