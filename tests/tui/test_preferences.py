"""The Preferences view (`5`) at 80x24 on the real service: did Ada opt out of order
emails, turning it back on (confirmed, then "don't ask again"), critical workflows
locked, undo from History, and opening on a given workflow and channel."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.preferences.confirm import PreferenceConfirm
from inboxdesk.tui.preferences.context_picker import ContextPicker
from inboxdesk.tui.preferences.grid import PreferenceGrid
from inboxdesk.tui.preferences.opening import open_preferences
from inboxdesk.tui.preferences.screen import PreferencesScreen
from tests.conftest import Service, ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.tui.conftest import Notices, app_for, plain, until

SMALL = (80, 24)


def order_email(service: Service, context: tuple[str, ...] = ()) -> bool:
    with service.http() as http:
        path = "/v2/subscribers/ada.lovelace/preferences"
        body = http.get(path, params=[("contextKeys", k) for k in context]).json()["data"]
    (order,) = [w for w in body["workflows"] if w["workflow"]["identifier"] == "order-shipped"]
    return bool(order["channels"]["email"])


def prefs(app: InboxdeskApp) -> PreferencesScreen | None:
    screen = app.screen
    return screen if isinstance(screen, PreferencesScreen) else None


def cell(app: InboxdeskApp, row: str, channel: str) -> str:
    screen = prefs(app)
    assert screen is not None
    grid = screen.query_one(PreferenceGrid)
    return str(grid.get_cell(row, channel))


def said(app: InboxdeskApp) -> str:
    screen = prefs(app)
    assert screen is not None
    return plain(screen.query_one("#preference-cell", Static))


def shown(app: InboxdeskApp) -> bool:
    screen = prefs(app)
    return screen is not None and screen.table is not None


async def test_ada_turns_order_emails_back_on_and_undoes_it_from_history(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """One walk of Ada's preferences: a critical workflow is locked and a channel the
    workflow does not send says so (nothing written); order emails turned back on,
    asked once, off again unasked, undone from History; another view opens the grid on
    a workflow and channel, and on another subscriber."""
    service = make_service(preference_fixture())
    app = app_for(service, subscriber="ada.lovelace")
    async with app.run_test(size=SMALL, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("5")
        await until(pilot, lambda: shown(app), what="the preferences")
        screen = prefs(app)
        assert screen is not None
        grid = screen.query_one(PreferenceGrid)
        assert grid.channels == ["in_app", "email", "sms", "tool"]
        assert cell(app, "order-shipped", "email") == "OFF *"
        assert cell(app, "(global)", "sms") == "OFF *"
        assert cell(app, "weekly-digest", "email") == "OFF"  # the workflow's default
        assert "[critical]" in str(grid.get_cell("security-alert", "workflow"))
        # Every column in view at 80 columns.
        assert grid.virtual_size.width <= grid.size.width

        start = grid.cursor_coordinate
        await pilot.press("G", "right", "right")  # Security alert · email
        assert "always sent" in said(app)
        await pilot.press("space")
        await until(pilot, lambda: notices.saying("is critical"), what="refused")
        await pilot.press("k", "right")  # Weekly digest · sms: none
        assert "Weekly digest sends no sms" in said(app)
        await pilot.press("space")
        await until(pilot, lambda: len(notices.saying("Weekly digest sends no sms")) == 1)
        assert not isinstance(app.screen, PreferenceConfirm)
        assert service.store.read().execute("SELECT COUNT(*) FROM preferences").fetchone()[0] == 2

        grid.cursor_coordinate = start
        await pilot.press("j", "right", "right")  # Order shipped · email
        assert "Order shipped · email: off (the subscriber's choice)" in said(app)
        await pilot.press("space")
        await until(pilot, lambda: isinstance(app.screen, PreferenceConfirm), what="asks")
        asked = plain(app.screen.query_one("#detail", Static))
        assert "future notifications only" in asked
        await pilot.press("a", "y")  # and do not ask again this session
        await until(pilot, lambda: order_email(service), what="email on at the service")
        await until(pilot, lambda: cell(app, "order-shipped", "email") == "on *", what="redrawn")
        assert notices.saying("email on for Order shipped")

        await pilot.press("space")  # no question this time
        await until(pilot, lambda: not order_email(service), what="email off again")
        assert not isinstance(app.screen, PreferenceConfirm)

        await pilot.press("3")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, HistoryScreen)
                and app.screen.query_one(HistoryTable).row_count == 2
            ),
            what="both writes in History",
        )
        detail = plain(app.screen.query_one("#history-entry", Static))
        assert "email off for Order shipped" in detail
        assert "on (the subscriber's choice) → off (the subscriber's choice)" in detail
        await pilot.press("z")
        await until(pilot, lambda: order_email(service), what="undone at the service")
        await until(pilot, lambda: notices.saying("no longer follows the workflow's default"))
        await pilot.press("5")
        await until(pilot, lambda: shown(app) and cell(app, "order-shipped", "email") == "on *")

        # Another view opens it on a workflow and channel; built already, it moves to
        # the cell asked for, and to another subscriber.
        await pilot.press("1")
        await until(pilot, lambda: app.screen.id == "inbox")
        open_preferences(app, app.context, "ada.lovelace", "weekly-digest", "tool")
        await until(pilot, lambda: shown(app), what="the preferences")
        await until(pilot, lambda: "Weekly digest · tool: on" in said(app), what="on the cell")
        await pilot.press("1")
        await until(pilot, lambda: app.screen.id == "inbox")
        open_preferences(app, app.context, "grace.hopper", "order-shipped", "sms")
        await until(pilot, lambda: shown(app) and "Order shipped · sms: on" in said(app))
        moved: Any = prefs(app)
        assert moved.subscriber_id == "grace.hopper"


async def test_a_hostile_workflow_name_stays_plain_text(
    make_service: ServiceFactory,
) -> None:
    fixture = preference_fixture()
    hostile = "[b]Order[/b] \x1b[31mshipped"
    fixture["environments"][0]["workflows"][0]["name"] = hostile
    fixture["environments"][0]["preferences"][0]["workflow"] = hostile
    service = make_service(fixture)
    app = app_for(service, subscriber="ada.lovelace")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("5")
        await until(pilot, lambda: shown(app), what="the preferences")
        grid = app.screen.query_one(PreferenceGrid)
        name = str(grid.get_cell("order-shipped", "workflow"))
        assert "[b]Order[/b]" in name and "\x1b" not in name
        await pilot.press("j", "right", "right")
        assert "\x1b" not in said(app) and "[b]Order[/b]" in said(app)


async def test_a_notifications_context_shows_beside_no_context_and_c_switches(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service(preference_fixture(), context_preferences=True)
    with service.http() as http:
        done = http.patch(
            "/v2/subscribers/ada.lovelace/preferences",
            json={
                "channels": {"email": True},
                "workflowId": "order-shipped",
                "context": {"tenant": "acme"},
            },
        )
        assert done.status_code == 200, done.text
    app = app_for(service, subscriber="ada.lovelace")
    async with app.run_test(size=(100, 30), message_hook=notices.hook) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        # As the timeline's `5` opens it on a notification of tenant:acme.
        open_preferences(
            app, app.context, "ada.lovelace", "order-shipped", "email", ("tenant:acme",)
        )
        await until(pilot, lambda: shown(app), what="the context's preferences")
        screen: Any = prefs(app)
        assert "ada.lovelace · context tenant:acme" in screen.sub_title
        beside = plain(screen.query_one("#preference-context", Static))
        assert "context records apply only where your organization has context" in beside
        assert "Order shipped · email: on here, OFF without a context" in beside
        assert cell(app, "order-shipped", "email") == "on *"
        await pilot.press("space")  # the change goes to tenant:acme's records
        await until(pilot, lambda: isinstance(app.screen, PreferenceConfirm), what="asks")
        asked = plain(app.screen.query_one("#question", Static))
        assert "in context tenant:acme?" in asked
        await pilot.press("y")
        await until(pilot, lambda: not order_email(service, ("tenant:acme",)), what="written")
        await until(pilot, lambda: shown(app) and cell(app, "order-shipped", "email") == "OFF *")
        assert not order_email(service), "the no-context record as it was"

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ContextPicker), what="the picker")
        await pilot.press("enter")  # the first choice: no context
        await until(pilot, lambda: shown(app) and cell(app, "order-shipped", "email") == "OFF *")
        assert "context" not in screen.sub_title
        assert screen.query_one("#preference-context").has_class("-none")

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ContextPicker), what="the picker")
        await pilot.click("#context-input")
        await pilot.press(*"acme", "enter")  # not type:id: said, nothing switched
        error = app.screen.query_one("#context-error", Static)
        await until(pilot, lambda: "is not a context key" in plain(error))
        app.screen.query_one("#context-input", Input).value = "tenant:acme"
        await pilot.press("enter")
        await until(pilot, lambda: shown(app) and screen.context_keys == ("tenant:acme",))
        assert cell(app, "order-shipped", "email") == "OFF *"
