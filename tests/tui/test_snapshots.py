"""How the main views look, at a fixed time and data (pytest-textual-snapshot).

The inbox, the integrations and the set-primary confirmation are drawn at each of
`SIZES`, from a small terminal (the detail pane below the list) to a wide one. Update
after a deliberate change of looks:
pytest tests/tui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.help import HelpScreen
from tests.conftest import MAILGUN, Service
from tests.tui.conftest import SIZE, app_for, until
from tests.tui.test_inbox import opened as opened_rows
from tests.tui.test_inbox_v2 import header

SIZES = [(80, 24), (100, 30), (140, 42), (200, 50)]
sizes = pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])


async def opened(pilot: Pilot[None]) -> None:
    """The first rows shown and the key's environment named: the header shows it once
    loaded (just after the first rows), so every picture waits for it."""
    screen = await opened_rows(pilot)
    await until(pilot, lambda: "Staging" in header(screen), what="the environment")


@sizes
def test_inbox(snap_compare: Any, service: Service, size: tuple[int, int]) -> None:
    async def ready(pilot: Pilot[None]) -> None:
        await opened(pilot)

    assert snap_compare(app_for(service), terminal_size=size, run_before=ready)


def test_message_detail_with_blocks_and_a_selection(snap_compare: Any, service: Service) -> None:
    async def ready(pilot: Pilot[None]) -> None:
        await opened(pilot)
        await pilot.press("space", "j", "j", "j", "j", "j", "j")  # select 11, land on 4

    assert snap_compare(app_for(service), terminal_size=SIZE, run_before=ready)


async def _integrations(pilot: Pilot[None]) -> IntegrationsScreen:
    await opened(pilot)
    await pilot.press("2")
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, IntegrationsScreen)
            and app.screen.query_one(IntegrationTable).row_count == 10
        ),
    )
    assert isinstance(app.screen, IntegrationsScreen)
    return app.screen


@sizes
def test_integrations(snap_compare: Any, org_wide_service: Service, size: tuple[int, int]) -> None:
    service = org_wide_service

    async def ready(pilot: Pilot[None]) -> None:
        screen = await _integrations(pilot)
        table = screen.query_one(IntegrationTable)
        table.move_cursor(row=table.get_row_index(MAILGUN))

    assert snap_compare(app_for(service), terminal_size=size, run_before=ready)


@sizes
def test_set_primary_confirmation(
    snap_compare: Any, org_wide_service: Service, size: tuple[int, int]
) -> None:
    service = org_wide_service

    async def ready(pilot: Pilot[None]) -> None:
        screen = await _integrations(pilot)
        table = screen.query_one(IntegrationTable)
        table.move_cursor(row=table.get_row_index(MAILGUN))
        await pilot.press("p")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))

    assert snap_compare(app_for(service), terminal_size=size, run_before=ready)


def test_help(snap_compare: Any, service: Service) -> None:
    async def ready(pilot: Pilot[None]) -> None:
        await opened(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))

    assert snap_compare(app_for(service), terminal_size=SIZE, run_before=ready)
