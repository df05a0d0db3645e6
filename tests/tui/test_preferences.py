"""The Preferences view (`5`) at 80x24 on the real service: did Ada opt out of order
emails, turning it back on (confirmed, then "don't ask again"), critical workflows
locked (a hostile name shown as text), undo from History, her quiet hours with the
editor, and opening on a given workflow and channel. A
notification's context beside no context, and `c`: the demo's walk of Ada's preference
stories (tests/tui/test_activity.py)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.preferences.confirm import PreferenceConfirm
from inboxdesk.tui.preferences.grid import PreferenceGrid
from inboxdesk.tui.preferences.opening import open_preferences
from inboxdesk.tui.preferences.schedule_editor import ScheduleEditor
from inboxdesk.tui.preferences.screen import PreferencesScreen
from tests.conftest import Service, ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.tui.conftest import Notices, app_for, plain, until, view_listing

SMALL = (80, 24)
# A critical workflow's name from the service: markup and an escape, shown as text.
HOSTILE = "[b]Alert[/b] \x1b[31malert"


def ada_s_fixture() -> dict[str, Any]:
    """The preference tests' data, Ada in London, the critical workflow named hostilely
    (its identifier stays security-alert)."""
    fixture = preference_fixture()
    environment = fixture["environments"][0]
    environment["subscribers"][0]["timezone"] = "Europe/London"
    environment["workflows"][2]["name"] = HOSTILE
    return fixture


def schedule_at(service: Service) -> Any:
    with service.http() as http:
        body = http.get("/v2/subscribers/ada.lovelace/preferences").json()["data"]
    return body["global"].get("schedule")


def schedule_said(app: InboxdeskApp) -> str:
    screen = app.screen
    if not isinstance(screen, PreferencesScreen) or screen.table is None:
        return ""
    return plain(screen.query_one("#preference-schedule", Static))


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
    asked once, off again unasked, undone from History; her quiet hours set with the
    editor; another view opens the grid on a workflow and channel, and on another
    subscriber."""
    service = make_service(ada_s_fixture())
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
        critical = str(grid.get_cell("security-alert", "workflow"))
        assert "[critical]" in critical
        assert "[b]Alert[/b]" in critical and "\x1b" not in critical, "plain text"
        # Every column in view at 80 columns.
        await until(pilot, lambda: grid.size.width > 0, what="the grid laid out")
        assert grid.virtual_size.width <= grid.size.width

        start = grid.cursor_coordinate
        await pilot.press("G", "right", "right")  # Security alert · email
        assert "always sent" in said(app)
        assert "[b]Alert[/b]" in said(app) and "\x1b" not in said(app)
        await pilot.press("space")
        await until(pilot, lambda: notices.saying("is critical"), what="refused")
        assert "\x1b" not in notices.saying("is critical")[0].message
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

        await view_listing(pilot, "3", HistoryScreen, HistoryTable, 2, "both writes in History")
        detail = plain(app.screen.query_one("#history-entry", Static))
        assert "email off for Order shipped" in detail
        assert "on (the subscriber's choice) → off (the subscriber's choice)" in detail
        await pilot.press("z")
        await until(pilot, lambda: order_email(service), what="undone at the service")
        await until(pilot, lambda: notices.saying("no longer follows the workflow's default"))
        await pilot.press("5")
        await until(pilot, lambda: shown(app) and cell(app, "order-shipped", "email") == "on *")

        # Her quiet hours, set with the editor (a mistake said in it, nothing sent), shown
        # in her timezone.
        assert "Quiet hours: off" in schedule_said(app)
        await pilot.press("Q")
        await until(pilot, lambda: isinstance(app.screen, ScheduleEditor), what="the editor")
        box = app.screen.query_one(Input)
        assert box.value == "off"
        box.value = "mon-fri 9am-5pm"
        await pilot.press("enter")
        problem = app.screen.query_one("#schedule-problem", Static)
        await until(pilot, lambda: "is not a time" in plain(problem), what="the mistake")
        assert box.value == "mon-fri 9am-5pm" and schedule_at(service) is None
        box.value = "mon-fri 09:05-17:30; sat 10:00-12:00"
        await pilot.press("enter")
        await until(pilot, lambda: schedule_at(service) is not None, what="sent")
        stored = schedule_at(service)
        assert stored["weeklySchedule"]["monday"]["hours"] == [
            {"start": "09:05 AM", "end": "05:30 PM"}
        ]
        await until(pilot, lambda: "Europe/London" in schedule_said(app), what="redrawn")
        assert "mon  09:05-17:30" in schedule_said(app) and "sun  closed" in schedule_said(app)
        # (Its undo, off again as there was none before, is History's `z` above on the
        # schedule's kind: tests/client/test_cli_schedule.py, whose undo is the app's.)

        # Another view opens it, built already, on another subscriber's workflow and
        # channel. (On a cell of the same subscriber's, from an Activity row and from a
        # timeline: tests/tui/test_activity.py, Ada's stories in the demo.)
        await pilot.press("1")
        await until(pilot, lambda: app.screen.id == "inbox")
        open_preferences(app, app.context, "grace.hopper", "order-shipped", "sms")
        await until(pilot, lambda: shown(app) and "Order shipped · sms: on" in said(app))
        moved: Any = prefs(app)
        assert moved.subscriber_id == "grace.hopper"
