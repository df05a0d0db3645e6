"""A resized terminal, through Pilot: a view is laid out once for its first size and
again whenever the terminal resizes; the inbox's footer keeps its most important keys
whole, by rank, with help listing the rest; the integrations view moves its detail pane
below the list when narrow and keeps its columns in view.

One app walks it all: every resize lays a screen out again, so each width is visited
once for everything it shows. The snapshots (tests/tui/test_snapshots.py) draw the
inbox and the integrations view as first laid out at 80, 100, 140 and 200 columns."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.events import Resize
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.integrations.detail import IntegrationDetail
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.widgets.app_footer import AppFooter, key_width
from tests.conftest import Service
from tests.tui.conftest import SIZE, app_for, settled, until
from tests.tui.test_help_and_palette import (
    footer_fits_whole,
    footer_keys,
    help_at_80_columns,
    shown_in_footer,
)
from tests.tui.test_inbox import opened
from tests.tui.test_integrations import integrations


async def laid_out_at(pilot: Pilot[None], screen: Screen[object], width: int, height: int) -> None:
    """The view fills the terminal: its size, its breakpoint class, its footer's row."""

    def fits() -> bool:
        footers = [footer.region for footer in screen.query(Footer)]
        return (
            screen.outer_size == (width, height)
            and [(f.width, f.bottom) for f in footers] == [(width, height)]
            and screen.has_class("-narrow" if width < 120 else "-wide")
        )

    await until(pilot, fits, what=f"the view laid out at {width}x{height}")


def footer_by_rank_and_full(screen: InboxScreen, width: int, help_lines: list[str]) -> None:
    """Up to 120 columns the footer is whole, by rank and full, and help lists the rest."""
    app = screen.app
    shown = shown_in_footer(screen)
    assert footer_fits_whole(screen, width), width
    footer = screen.query_one(AppFooter)
    palette = next(k for k in screen.query("FooterKey") if k.has_class("-command-palette"))
    labels = [str(k.key) for k in shown]  # type: ignore[attr-defined]
    # By rank: help and quit, the marks, the filter, go to and undo come first.
    assert labels[:7] == ["question_mark", "q", "r", "u", "slash", "ctrl+g", "z"], labels
    if width >= 100:
        assert "space" in labels, labels
    if width >= 120:
        assert "p" in labels and "2" in labels, labels
    # Each key's cells as the footer reckons them (it makes only those that fit, that
    # wide) are the cells Textual draws it in; the palette's key, not given a width, is
    # laid out in its reckoned cells too.
    assert all(key_width(k) == cell_len(k.render().plain) for k in shown), width  # type: ignore[union-attr]
    assert all(key_width(k) == k.outer_size.width for k in [*shown, palette])
    descriptions = [str(k.description) for k in shown]  # type: ignore[attr-defined]
    offered = [b for _, b, _, _ in screen.active_bindings.values() if b.show]
    left_out = [b for b in offered if b.description not in descriptions]
    hidden = [b.description for b in left_out]
    assert hidden, f"the inbox has more keys than {width} columns"
    # Full: none of the keys left out would have fit in the room left.
    room = palette.region.x - footer.region.x - sum(k.outer_size.width for k in shown)
    cells = [len(app.get_key_display(b)) + len(b.description) + 3 for b in left_out]
    assert all(c > room for c in cells), (room, hidden)
    # Help lists every key of the view, whatever the width (read at 80 columns).
    assert all(any(f" {d} inbox." in f" {line}" for line in help_lines) for d in hidden), hidden


async def resized(pilot: Pilot[None], screen: InboxScreen, width: int, height: int) -> None:
    """Resize and wait for the inbox laid out there, its footer recomposed to fit."""
    await pilot.resize_terminal(width, height)
    await laid_out_at(pilot, screen, width, height)
    await until(
        pilot, lambda: footer_fits_whole(screen, width), what=f"the footer whole at {width}"
    )
    await settled(pilot)
    assert footer_keys(screen)[:2] == [("question_mark", "Help"), ("q", "Quit")], width
    assert all(k.region.right <= width for k in shown_in_footer(screen)[:2]), f"? q at {width}"


async def integrations_fit(
    pilot: Pilot[None], screen: IntegrationsScreen, width: int, height: int
) -> None:
    """Narrow, the pane goes below the list, wide, beside it; the columns fit, the
    environment shows at every width; ? and q come first and fit; `v` hides the pane."""
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
    keys = list(screen.query("FooterKey"))
    assert [getattr(k, "key", "") for k in keys[:2]] == ["question_mark", "q"]
    assert all(k.region.right <= width for k in keys[:2]), "? and q fit"
    await pilot.press("v")
    await until(pilot, lambda: not pane.display, what="pane hidden")
    await pilot.press("v")
    await until(pilot, lambda: pane.display, what="pane shown")


@pytest.mark.slow
async def test_a_resized_terminal_lays_the_view_out_again_with_its_footer_whole(
    org_wide_service: Service,
) -> None:
    """One app, first laid out at 80 by 24 (help shows every binding id whole there):
    the Resize that the first layout sends lays nothing out again; every resize does,
    within a breakpoint or across it, both ways, the height alone, back and forth at
    once; at each width help and quit come first and fit, and up to 120 columns the
    footer is whole, by rank and full. Integrations, first opened wide, then resized
    narrow while it shows; the inbox, resized meanwhile, is laid out when shown again."""
    app = app_for(org_wide_service)
    assert isinstance(app, InboxdeskApp)
    async with app.run_test(size=(80, 24)) as pilot:
        inbox = await opened(pilot)
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

        await resized(pilot, inbox, 100, 30)  # narrow still, wider and taller
        assert layouts
        footer_by_rank_and_full(inbox, 100, help_lines)
        await resized(pilot, inbox, 120, 30)  # across the breakpoint, the width alone
        footer_by_rank_and_full(inbox, 120, help_lines)
        await resized(pilot, inbox, 120, 42)  # the height alone
        await resized(pilot, inbox, 119, 42)  # back across the breakpoint, just below it
        await pilot.resize_terminal(150, 40)  # and back and forth at once
        await pilot.resize_terminal(100, 30)
        await laid_out_at(pilot, inbox, 100, 30)
        await resized(pilot, inbox, *SIZE)  # wide again
        shown = await integrations(pilot)
        await integrations_fit(pilot, shown, *SIZE)
        await pilot.resize_terminal(80, 24)  # across the breakpoint while it shows
        await integrations_fit(pilot, shown, 80, 24)
        app.action_show_inbox()
        await until(pilot, lambda: app.screen is inbox, what="the inbox")
        await laid_out_at(pilot, inbox, 80, 24)
