"""The integrations view through Pilot: set primary, confirmed, and where it does not apply;
in another environment, typed; undone from History."""

from __future__ import annotations

import pytest
from textual.color import Color
from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import Input, Static

from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen, TypedConfirmScreen
from inboxdesk.tui.widgets.app_footer import AppFooter, Placed
from tests.client.faults import FaultTransport, connection_refused
from tests.conftest import (
    INBOX,
    MAILGUN,
    OTHER_SMTP,
    POSTMARK,
    SENDGRID,
    SLACK,
    Service,
    ServiceFactory,
)
from tests.tui.conftest import (
    ORG_WIDE,
    Notices,
    answered_no,
    app_for,
    footer_line,
    plain,
    settled,
    until,
    view_listing,
)
from tests.tui.test_inbox import opened


async def integrations(pilot: Pilot[None]) -> IntegrationsScreen:
    await opened(pilot)
    return await view_listing(pilot, "2", IntegrationsScreen, IntegrationTable, 10, "integrations")


async def go_to(pilot: Pilot[None], screen: IntegrationsScreen, integration_id: str) -> None:
    table = screen.query_one(IntegrationTable)
    table.move_cursor(row=table.get_row_index(integration_id))
    await pilot.pause()
    assert screen.current is not None and screen.current.id == integration_id


def primary_cell(screen: IntegrationsScreen, integration_id: str) -> str:
    return str(screen.query_one(IntegrationTable).get_cell(integration_id, "primary"))


@pytest.mark.slow
async def test_set_primary_asked_where_it_applies_cancelled_confirmed_and_merged_in_place(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """One walk of the view in the key's own environment: where `p` does not apply it is
    greyed out and sends nothing; credentials are masked; the plain confirmation, `n`
    changing nothing, `y` showing the demotion; a change made elsewhere and one made
    here both change cells, never rebuild rows; a switch in another environment,
    confirmed by typing its name, and its undo from History; a switch while the
    service is away fails, said each time, never queued. At 120 columns, where
    History's table keeps its outcome column."""
    # Credentials as an older deployment sends them (production omits them for API keys).
    service = make_service(send_credentials=True, **ORG_WIDE)
    transport = FaultTransport()
    app = app_for(service, transport=transport)
    async with app.run_test(size=(120, 40), message_hook=notices.hook) as pilot:
        screen = await integrations(pilot)
        await until(pilot, lambda: "Staging" in str(app.title), what="header names the env")
        assert str(app.title).startswith("inboxdesk · ")
        table = screen.query_one(IntegrationTable)
        rows = dict(table.rows)
        assert "★" in primary_cell(screen, SENDGRID) and not primary_cell(screen, MAILGUN)

        await go_to(pilot, screen, SENDGRID)
        detail = plain(screen.query_one("#integration-body", Static))
        assert "secret-sendgrid" not in detail and "••••3456" in detail

        notes = {
            INBOX: "in_app integrations have no primary",
            SLACK: "chat integrations have no",
            SENDGRID: "Already the primary email integration",
        }
        for integration_id, note in notes.items():
            await go_to(pilot, screen, integration_id)
            assert screen.check_action("set_primary", ()) is None, "greyed out in the footer"
            detail = plain(screen.query_one("#integration-body", Static))
            assert f"Set primary (p): {note}" in " ".join(detail.split())
            await pilot.press("p")
            await settled(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
        footer = screen.query_one(AppFooter)
        await until(pilot, lambda: not set_primary_key(screen).key.enabled, what="p greyed")
        greyed = set_primary_key(screen)
        assert drawn_dim(footer, greyed) is True, "greyed as Textual greys a key: dim"
        # Under the pointer a key is highlighted and its tooltip offered, as Textual's;
        # a click on a greyed key does nothing (Textual rings the bell).
        await pilot.hover(footer, offset=(greyed.x + 1, 0))
        await until(pilot, lambda: footer.hovered == "set_primary", what="p under the pointer")
        hover = footer.background_colors[1] + Color.parse(
            app.get_css_variables()["block-hover-background"]
        )
        assert drawn_backgrounds(footer, greyed) == {hover.rich_color}
        assert (
            footer.tooltip
            == "Make the highlighted email/sms integration the primary of its channel"
        )
        await pilot.click(footer, offset=(greyed.x + 1, 0))
        await settled(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert [r for r in transport.seen if r.method == "POST"] == []
        await go_to(pilot, screen, MAILGUN)
        assert screen.check_action("set_primary", ()) is True
        await until(
            pilot, lambda: set_primary_key(screen).key.enabled, what="the footer offering p"
        )
        # Turned on in place, in the same cells, drawn no longer dim: the footer has no
        # key widgets to compose again.
        assert set_primary_key(screen)[1:] == greyed[1:] and not footer.children
        assert drawn_dim(footer, set_primary_key(screen)) is False
        assert "(the API key's own environment)" in plain(
            screen.query_one("#integration-body", Static)
        )

        # `n` changes nothing.
        await answered_no(pilot, "p", service)

        # `y`: the question names the demotion; both rows redrawn from the answer. Asked
        # by a click on the footer's key, which runs it as its key does.
        placed = set_primary_key(screen)
        await pilot.click(footer, offset=(placed.x + placed.width - 1, 0))
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        question = plain(app.screen.query_one("#question", Static))
        detail = plain(app.screen.query_one("#detail", Static))
        assert "Make Mailgun (mailgun) the primary email integration of Staging?" in question
        assert "replaces SendGrid (sendgrid), the current email primary of Staging" in detail
        assert "1 condition will be cleared" in detail
        await pilot.press("y")
        await until(
            pilot,
            lambda: (
                service.row("SELECT is_primary FROM integrations WHERE id = ?", MAILGUN)[0] == 1
            ),
        )
        await until(
            pilot,
            lambda: "★" in primary_cell(screen, MAILGUN) and not primary_cell(screen, SENDGRID),
            what="rows updated",
        )
        assert service.row("SELECT is_primary FROM integrations WHERE id = ?", SENDGRID)[0] == 0
        assert screen.items[MAILGUN].conditions == []
        assert table.cursor_key == MAILGUN
        assert all(table.rows[key] is row for key, row in rows.items()), "rows rebuilt"

        # A change made elsewhere, found by a refresh: cells change, rows stay.
        with service.http() as http:
            http.post(f"/v1/integrations/{SENDGRID}/set-primary").raise_for_status()
        await pilot.press("ctrl+r")
        await until(
            pilot,
            lambda: "★" in primary_cell(screen, SENDGRID) and not primary_cell(screen, MAILGUN),
            what="the change made elsewhere",
        )
        assert all(table.rows[key] is row for key, row in rows.items()), "rows rebuilt"

        await another_environments_switch_and_its_undo_from_history(pilot, service, screen)

        # The service away: each try is said to have failed, and nothing is queued.
        await go_to(pilot, screen, MAILGUN)
        transport.before = [connection_refused() for _ in range(200)]
        for attempt in (1, 2):
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
            await pilot.press("y")
            await until(
                pilot,
                lambda n=attempt: len(notices.saying("Not switched")) == n,
                what=f"try {attempt} said",
            )
        said = notices.saying("Not switched")[-1]
        assert said.severity == "error" and "never queued" in said.message
        assert "make Mailgun primary failed" in said.message
        assert app.outbox.queued() == []
    assert service.row("SELECT is_primary FROM integrations WHERE id = ?", MAILGUN)[0] == 0


def set_primary_key(screen: IntegrationsScreen) -> Placed:
    """The footer's key for set primary, where it is drawn."""
    return next(p for p in screen.query_one(AppFooter).shown if p.key.action == "set_primary")


def drawn_dim(footer: AppFooter, placed: Placed) -> bool | None:
    """Whether each cell of a key is drawn dim (True), none is (False), or some are."""
    dim = {bool(segment.style and segment.style.dim) for segment in footer_line(footer, placed)}
    return dim.pop() if len(dim) == 1 else None


def drawn_backgrounds(footer: AppFooter, placed: Placed) -> set[object]:
    return {segment.style.bgcolor for segment in footer_line(footer, placed) if segment.style}


def is_primary(service: Service, integration_id: str) -> bool:
    return bool(service.row("SELECT is_primary FROM integrations WHERE id = ?", integration_id)[0])


async def another_environments_switch_and_its_undo_from_history(
    pilot: Pilot[None], service: Service, screen: IntegrationsScreen
) -> None:
    """A switch outside the key's environment is confirmed by typing that environment's
    name; a wrong name changes nothing. History files it under the environment it acted
    in, keeps its outcome column in view (What is clipped with an ellipsis), and its undo
    (a switch back there) asks for that environment's name too; Integrations, shown
    again, has the primary the undo restored."""
    app = pilot.app
    await go_to(pilot, screen, OTHER_SMTP)
    detail = plain(screen.query_one("#integration-body", Static))
    assert "in Other (not the API key's environment)" in detail
    before = service.snapshot()
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, TypedConfirmScreen), what="typed")
    dialog = app.screen
    assert "of Other?" in plain(dialog.query_one("#question", Static))
    assert "It replaces Postmark (postmark)" in plain(dialog.query_one("#detail", Static))
    dialog.query_one(Input).value = "Staging"
    await pilot.press("enter")
    await until(pilot, lambda: "not the environment" in plain(dialog.query_one("#mismatch")))
    assert service.snapshot() == before and app.screen is dialog
    dialog.query_one(Input).value = "OTHER"
    await pilot.press("enter")
    await until(pilot, lambda: is_primary(service, OTHER_SMTP), what="Other's switch")
    assert not is_primary(service, POSTMARK) and is_primary(service, SENDGRID)
    await until(
        pilot,
        lambda: "★" in primary_cell(screen, OTHER_SMTP) and not primary_cell(screen, POSTMARK),
        what="rows updated",
    )
    await settled(pilot)

    await pilot.press("3")
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen), what="history")
    history = app.screen
    assert isinstance(history, HistoryScreen)
    table = history.query_one(HistoryTable)
    await until(pilot, lambda: table.row_count == 2, what="both switches listed")
    with service.http() as http:
        other = next(
            e["_id"] for e in http.get("/v1/environments").json()["data"] if e["name"] == "Other"
        )
    newest = table.coordinate_to_cell_key(Coordinate(0, 0)).row_key.value
    assert newest is not None and history.entries[newest].where.environment == other
    table.move_cursor(row=0)
    await pilot.press("z")
    await until(pilot, lambda: isinstance(app.screen, TypedConfirmScreen), what="typed")
    undo = app.screen
    assert "Other is not the API key's own environment" in plain(undo.query_one("#detail", Static))
    undo.query_one(Input).value = "other"
    await pilot.press("enter")
    await until(pilot, lambda: is_primary(service, POSTMARK), what="Postmark primary again")
    await until(pilot, lambda: table.row_count == 3, what="the undo listed")
    await pilot.pause()
    widths = sum(c.get_render_width(table) for c in table.columns.values())
    assert widths <= table.scrollable_content_region.width
    what = str(table.get_cell_at(Coordinate(0, 3)))  # after Environment
    assert what.endswith("…") and str(table.get_cell_at(Coordinate(0, 1))) == "sent"
    await pilot.press("2")
    await until(
        pilot,
        lambda: (
            app.screen is screen
            and "★" in primary_cell(screen, POSTMARK)
            and not primary_cell(screen, OTHER_SMTP)
        ),
        what="the integrations with the undo's primary",
    )
