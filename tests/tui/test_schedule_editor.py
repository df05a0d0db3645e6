"""Quiet hours in the Preferences view on the real service: shown off, changed with
the editor (a mistake said in the dialog, nothing sent), shown in the subscriber's
timezone, undone from History. Read-only binds no editor: the read-only walk of
tests/tui/test_resend_follow.py."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Static

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.preferences.schedule_editor import ScheduleEditor
from inboxdesk.tui.preferences.screen import PreferencesScreen
from tests.conftest import Service, ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.tui.conftest import Notices, app_for, plain, until

SMALL = (80, 24)


def schedule_at(service: Service) -> Any:
    with service.http() as http:
        body = http.get("/v2/subscribers/ada.lovelace/preferences").json()["data"]
    return body["global"].get("schedule")


def said(app: InboxdeskApp) -> str:
    screen = app.screen
    if not isinstance(screen, PreferencesScreen) or screen.table is None:
        return ""
    return plain(screen.query_one("#preference-schedule", Static))


def _fixture() -> dict[str, Any]:
    fixture = preference_fixture()
    fixture["environments"][0]["subscribers"][0]["timezone"] = "Europe/London"
    return fixture


async def test_ada_s_quiet_hours_set_in_the_editor_and_undone(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service(_fixture())
    app = app_for(service, subscriber="ada.lovelace")
    async with app.run_test(size=SMALL, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("5")
        await until(pilot, lambda: "Quiet hours: off" in said(app), what="the schedule")
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
        await until(pilot, lambda: "Europe/London" in said(app), what="redrawn")
        assert "mon  09:05-17:30" in said(app) and "sun  closed" in said(app)
        await pilot.press("3")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, HistoryScreen)
                and app.screen.query_one(HistoryTable).row_count == 1
            ),
            what="the write in History",
        )
        await pilot.press("z")
        await until(
            pilot,
            lambda: (schedule_at(service) or {}).get("isEnabled") is False,
            what="undone: off again, as there was none",
        )
