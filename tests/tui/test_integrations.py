"""The integrations view through Pilot: set primary, confirmed, and where it does not apply."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from tests.client.faults import FaultTransport, connection_refused
from tests.conftest import INBOX, MAILGUN, SENDGRID, SLACK, Service, ServiceFactory
from tests.tui.conftest import ORG_WIDE, SIZE, Notices, app_for, plain, settled, until
from tests.tui.test_inbox import opened


@pytest.fixture
def service(org_wide_service: Service) -> Service:
    """The view lists every environment's integrations, as an older deployment's key
    reads them."""
    return org_wide_service


async def integrations(pilot: Pilot[None]) -> IntegrationsScreen:
    app = pilot.app
    await opened(pilot)
    await pilot.press("2")
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, IntegrationsScreen)
            and app.screen.query_one(IntegrationTable).row_count == 10
        ),
        what="integrations",
    )
    assert isinstance(app.screen, IntegrationsScreen)
    return app.screen


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
    here both change cells, never rebuild rows; a switch while the service is away
    fails, said each time, never queued."""
    # Credentials as an older deployment sends them (production omits them for API keys).
    service = make_service(send_credentials=True, **ORG_WIDE)
    transport = FaultTransport()
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await integrations(pilot)
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
        assert [r for r in transport.seen if r.method == "POST"] == []
        await until(pilot, lambda: set_primary_key(screen).has_class("-disabled"))
        greyed = set_primary_key(screen)
        await go_to(pilot, screen, MAILGUN)
        assert screen.check_action("set_primary", ()) is True
        await until(
            pilot,
            lambda: not set_primary_key(screen).has_class("-disabled"),
            what="the footer offering p",
        )
        # Turned on in place: the footer is not composed again for a key's state.
        assert set_primary_key(screen) is greyed
        assert "(the API key's own environment)" in plain(
            screen.query_one("#integration-body", Static)
        )

        # `n` changes nothing.
        before = service.snapshot()
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert service.snapshot() == before

        # `y`: the question names the demotion; both rows redrawn from the answer.
        await pilot.press("p")
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


def set_primary_key(screen: IntegrationsScreen) -> Widget:
    """The footer's key for set primary (greyed out with the class -disabled)."""
    return next(k for k in screen.query("FooterKey") if "Set primary" in str(k.description))  # type: ignore[attr-defined]


async def test_another_environments_switch_asks_for_its_name(service: Service) -> None:
    """A switch outside the key's environment is confirmed by typing
    that environment's name; a wrong name changes nothing."""
    from textual.widgets import Input

    from inboxdesk.tui.screens.confirm import TypedConfirmScreen
    from tests.conftest import OTHER_SMTP, POSTMARK

    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await integrations(pilot)
        await until(pilot, lambda: "Staging" in str(app.title), what="header names the env")
        assert str(app.title).startswith("inboxdesk · ")
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
        await until(
            pilot,
            lambda: (
                service.row("SELECT is_primary FROM integrations WHERE id = ?", OTHER_SMTP)[0] == 1
            ),
        )
        assert service.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)[0] == 0
        assert service.row("SELECT is_primary FROM integrations WHERE id = ?", SENDGRID)[0] == 1
        await until(
            pilot,
            lambda: "★" in primary_cell(screen, OTHER_SMTP) and not primary_cell(screen, POSTMARK),
            what="rows updated",
        )
        # History files the switch under the environment it acted in, and its undo (a
        # switch back there) asks for that environment's name too.
        from inboxdesk.tui.history.screen import HistoryScreen
        from inboxdesk.tui.history.table import HistoryTable

        await pilot.press("3")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), what="history")
        history = app.screen
        await until(pilot, lambda: history.query_one(HistoryTable).row_count == 1)
        entry = next(iter(history.entries.values()))  # type: ignore[attr-defined]
        with service.http() as http:
            other = next(
                e["_id"]
                for e in http.get("/v1/environments").json()["data"]
                if e["name"] == "Other"
            )
        assert entry.where.environment == other
        await pilot.press("z")
        await until(pilot, lambda: isinstance(app.screen, TypedConfirmScreen), what="typed")
        undo = app.screen
        assert "Other is not the API key's own environment" in plain(
            undo.query_one("#detail", Static)
        )
        undo.query_one(Input).value = "other"
        await pilot.press("enter")
        await until(
            pilot,
            lambda: (
                service.row("SELECT is_primary FROM integrations WHERE id = ?", POSTMARK)[0] == 1
            ),
            what="Postmark primary again",
        )
