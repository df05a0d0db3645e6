"""A view is laid out once for its first size, and again whenever the terminal resizes."""

from __future__ import annotations

from textual.events import Resize
from textual.screen import Screen

from tests.conftest import Service
from tests.tui.conftest import SIZE, app_for, settled, until
from tests.tui.test_inbox import opened


async def test_the_resize_after_the_first_layout_lays_nothing_out_again(
    service: Service,
) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await settled(pilot)
        layouts: list[Screen[object]] = []
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append)
        # What the first layout sends: a Resize to the size the screen was laid out at.
        screen.post_message(Resize(screen.size, screen.virtual_size, screen.size))
        await pilot.pause()
        await pilot.pause()
        assert layouts == []
        assert screen.has_class("-wide")

        # A real resize, across the breakpoint, is laid out, and restyles the view.
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: len(layouts) > 0, what="a layout at 100 columns")
        await until(pilot, lambda: screen.has_class("-narrow"), what="the narrow class")
        assert screen.size.width == 100
