"""Fixes from a new user's trial of the app: what archive and snooze say they changed,
and the journal's detail of them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import Input, Static

from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.snooze import SnoozeScreen
from tests.conftest import MAILGUN, SENDGRID, Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, plain, settled, until
from tests.tui.test_inbox import opened, shown_ids
from tests.tui.test_inbox_v2 import archive, header, real_now, state
from tests.tui.test_integrations import go_to, integrations, primary_cell


async def test_archive_says_what_it_changed_and_history_shows_the_state(
    service: Service, notices: Notices
) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot)
        await pilot.press("e")  # message 11
        await until(pilot, lambda: state(service, jane_message(11))[0], what="archived")
        await until(pilot, lambda: notices.saying("Archived 1 message."), what="the notice")
        assert not notices.saying("nothing changed")
        await settled(pilot)
        await pilot.press("space", "space", "space")  # 11 (archived, kept in place), 10, 9
        await pilot.press("e")
        await until(pilot, lambda: notices.saying("Archived 2 messages."), what="the notice")
        assert notices.saying("1 was already archived.")
        await settled(pilot)
        await pilot.press("3")
        await until(pilot, lambda: "archive →" in plain(app.screen.query_one("#history-entry")))
        detail = plain(app.screen.query_one("#history-entry", Static))
        assert "archived, not snoozed" in detail and "read, seen →" not in detail


async def switch_then_undo_from_history(pilot: Pilot[None], service: Service) -> Any:
    """Make Mailgun primary in the integrations view, then undo it from History (`3`,
    `z`); gives the integrations screen."""
    app = pilot.app
    screen = await integrations(pilot)
    await go_to(pilot, screen, MAILGUN)
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
    await pilot.press("y")
    await until(pilot, lambda: "★" in primary_cell(screen, MAILGUN), what="switched")
    await settled(pilot)
    await pilot.press("3")
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen), what="history")
    await pilot.press("z")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks")
    await pilot.press("y")
    await until(pilot, lambda: primary(service, SENDGRID), what="undone")
    return screen


async def test_a_primary_undone_from_history_keeps_its_outcome_column_and_shows_in_integrations(
    org_wide_service: Service,
) -> None:
    """At 120 columns History's table keeps its outcome column (What is clipped with
    an ellipsis); Integrations, shown again, has the primary the undo restored."""
    service = org_wide_service
    app = app_for(service)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await switch_then_undo_from_history(pilot, service)
        table = app.screen.query_one(HistoryTable)
        await until(pilot, lambda: table.row_count == 2, what="the undo listed")
        await pilot.pause()
        widths = sum(c.get_render_width(table) for c in table.columns.values())
        assert widths <= table.scrollable_content_region.width
        what = str(table.get_cell_at(Coordinate(0, 3)))  # after Environment
        assert what.endswith("…") and str(table.get_cell_at(Coordinate(0, 1))) == "sent"
        await pilot.press("2")
        await until(
            pilot,
            lambda: "★" in primary_cell(screen, SENDGRID) and not primary_cell(screen, MAILGUN),
            what="the integrations reloaded",
        )


def primary(service: Service, integration_id: str) -> bool:
    return bool(service.row("SELECT is_primary FROM integrations WHERE id = ?", integration_id)[0])


async def test_a_refresh_keeps_the_cursor_on_its_message_and_undo_brings_rows_back(
    service: Service,
) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.table
        await pilot.press("j")  # message 10
        archive(service, jane_message(11))  # above it, by someone else
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(11) not in shown_ids(table), what="refreshed")
        assert table.cursor_key == jane_message(10)
        await pilot.press("e")  # 10
        await until(pilot, lambda: state(service, jane_message(10))[0], what="archived")
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(10) not in shown_ids(table), what="refreshed")
        await settled(pilot)
        await pilot.press("z")
        await until(pilot, lambda: not state(service, jane_message(10))[0], what="undone")
        await until(pilot, lambda: jane_message(10) in shown_ids(table), what="listed again")


async def test_a_snoozed_messages_state_line_is_clipped_with_an_ellipsis_at_120_columns(
    service: Service, notices: Notices
) -> None:
    """At 120 columns: the header names the environment once loaded, without a write
    first; the snooze dialog's ISO example is tomorrow and its hints agree; a snoozed
    message's state line is clipped with an ellipsis."""
    now = real_now()  # the service checks a snooze's end against its own clock
    app = app_for(service, clock=lambda: now)
    async with app.run_test(size=(120, 40), message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await until(pilot, lambda: app.scope is not None, what="the environments")
        await until(pilot, lambda: "Staging" in header(screen), what="the header's environment")
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, SnoozeScreen), what="the modal")
        hint = plain(app.screen.query_one("#hint", Static))
        tomorrow, after = (
            (now.astimezone() + timedelta(days=days)).strftime("%Y-%m-%dT09:00") for days in (1, 2)
        )
        assert f"ISO 8601 ({tomorrow})" in hint and after not in hint
        placeholder = str(app.screen.query_one(Input).placeholder)
        for example in placeholder.removeprefix("or type a time: ").split(", ")[:-1]:
            assert example in hint
        await pilot.press("down", "down", "enter")  # tomorrow 09:00
        await until(pilot, lambda: state(service, jane_message(11))[1] is not None)
        line = screen.query_one("#message-state", Static)
        await until(pilot, lambda: "snoozed" in plain(line), what="the state line")
        await pilot.pause()
        drawn = line.render_line(0).text.rstrip()
        assert "in_app" in drawn or drawn.endswith("…"), drawn
        assert "until" in drawn and "T09:00" not in drawn, "a date people read"
        said = notices.saying("Snoozed 1 message until ")
        assert said and "09:00" in said[0].message and "T09" not in said[0].message
