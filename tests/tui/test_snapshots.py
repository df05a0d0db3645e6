"""How the main views look, at a fixed time and data (pytest-textual-snapshot's SVGs).

At each of `SIZES`, from a small terminal (the detail pane below the list) to a wide
one, one app is started at that size and drawn three times as a user walks it: the
inbox as first laid out, the integrations view as first opened there, and the
set-primary confirmation over it; at 140 columns, then help over the inbox and a
message's detail with a selection. Update after a deliberate change of looks:
pytest tests/tui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.help import HelpScreen
from tests.conftest import MAILGUN, Service
from tests.tui.conftest import app_for, until, view_listing
from tests.tui.test_inbox import opened as opened_rows
from tests.tui.test_inbox_v2 import header

SIZES = [(80, 24), (100, 30), (140, 42), (200, 50)]
HELP_SIZE = (140, 42)  # where help and a message's detail are drawn too
sizes = pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])

Draw = Callable[[str], Awaitable[None]]


async def walked(
    app: InboxdeskApp,
    snapshot: SnapshotAssertion,
    size: tuple[int, int],
    walk: Callable[[Pilot[None], Draw], Awaitable[None]],
) -> None:
    """Run `app` headless at `size` and compare each picture `walk` draws with its SVG.

    A picture is taken as snap_compare takes its one (textual's take_svg_screenshot):
    once the app is idle and its animations done, under the title the app had before
    it ran; several pictures of one app cost one start instead of one each.
    """
    title = app.title
    drawn: dict[str, str] = {}

    async def auto_pilot(pilot: Pilot[None]) -> None:
        async def draw(name: str) -> None:
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            drawn[name] = pilot.app.export_screenshot(title=title, simplify=True)

        await walk(pilot, draw)
        pilot.app.exit()

    await app.run_async(headless=True, size=size, auto_pilot=auto_pilot)
    assert drawn, "the walk drew nothing"
    pictures = snapshot.use_extension(SVGImageExtension)
    for name, svg in drawn.items():
        assert pictures(name=name) == svg, f"{name} drawn otherwise than its snapshot"


async def opened(pilot: Pilot[None]) -> None:
    """The first rows shown and the key's environment named: the header shows it once
    loaded (just after the first rows), so every picture waits for it."""
    screen = await opened_rows(pilot)
    await until(pilot, lambda: "Staging" in header(screen), what="the environment")


@sizes
async def test_inbox_integrations_and_set_primary(
    snapshot: SnapshotAssertion, org_wide_service: Service, size: tuple[int, int]
) -> None:
    """The inbox first laid out at `size`; the integrations view first opened at it,
    on Mailgun; `p`'s confirmation over it (at HELP_SIZE, help and a detail next)."""

    async def walk(pilot: Pilot[None], draw: Draw) -> None:
        await opened(pilot)
        await draw("inbox")
        app = pilot.app
        await view_listing(pilot, "2", IntegrationsScreen, IntegrationTable, 10, "the integrations")
        table = app.screen.query_one(IntegrationTable)
        table.move_cursor(row=table.get_row_index(MAILGUN))
        await draw("integrations")
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await draw("set_primary")
        if size == HELP_SIZE:
            await help_then_a_message_with_blocks_and_a_selection(pilot, draw)

    await walked(app_for(org_wide_service), snapshot, size, walk)


async def help_then_a_message_with_blocks_and_a_selection(pilot: Pilot[None], draw: Draw) -> None:
    """Back in the inbox (the question declined): help over it, then a message's
    blocks with a selection."""
    app = pilot.app
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, IntegrationsScreen), what="declined")
    await pilot.press("1")
    await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
    await draw("help")
    await pilot.press("escape")
    await until(pilot, lambda: app.screen.id == "inbox", what="help closed")
    await pilot.press("space", "j", "j", "j", "j", "j", "j")  # select 11, land on 4
    await draw("detail")
