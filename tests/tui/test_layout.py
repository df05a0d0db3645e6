"""A view is laid out once for its first size, and again whenever the terminal resizes."""

from __future__ import annotations

import pytest
from textual.events import Resize
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer

from inboxdesk.tui.app import InboxdeskApp
from tests.conftest import Service
from tests.tui.conftest import SIZE, app_for, settled, until
from tests.tui.test_inbox import opened


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


@pytest.mark.slow
async def test_a_view_is_laid_out_once_for_its_size_and_again_at_every_resize(
    service: Service,
) -> None:
    """One app: the Resize that the first layout sends lays nothing out again; every
    resize does, across the breakpoint or not, the height alone, back and forth at once;
    a view resized while another shows is laid out when shown."""
    app = app_for(service)
    assert isinstance(app, InboxdeskApp)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await opened(pilot)
        await settled(pilot)
        layouts: list[Screen[object]] = []
        inbox.screen_layout_refresh_signal.subscribe(inbox, layouts.append)
        # What the first layout sends: a Resize to the size the screen was laid out at.
        inbox.post_message(Resize(inbox.outer_size, inbox.virtual_size, inbox.size))
        await pilot.pause()
        await pilot.pause()
        assert layouts == []

        await pilot.resize_terminal(100, 30)
        await laid_out_at(pilot, inbox, 100, 30)
        assert layouts

        for width, height in [(200, 50), (160, 50), (160, 30), (100, 30), (119, 45), (80, 24)]:
            await pilot.resize_terminal(width, height)
            await laid_out_at(pilot, inbox, width, height)
        await pilot.resize_terminal(150, 40)
        await pilot.resize_terminal(100, 30)
        await laid_out_at(pilot, inbox, 100, 30)

        await pilot.resize_terminal(*SIZE)
        await laid_out_at(pilot, inbox, *SIZE)
        for view in ("integrations", "history"):
            getattr(app, f"action_show_{view}")()
            await until(pilot, lambda name=view: app.screen.id == name, what=view)
            shown = app.screen
            await laid_out_at(pilot, shown, *SIZE)
            await pilot.resize_terminal(130, 45)  # wide still, taller
            await laid_out_at(pilot, shown, 130, 45)
            app.action_show_inbox()
            await until(pilot, lambda: app.screen is inbox, what="the inbox")
            await laid_out_at(pilot, inbox, 130, 45)
            await pilot.resize_terminal(*SIZE)
