"""A service that lists things twice never crashes the app: an Activity page naming a
notification twice shows it once and says so; Preferences with a workflow in both the
critical and the changeable listings, and one without an identifier, show each workflow
once (the critical one, locked) and say what was left out."""

from __future__ import annotations

from inboxdesk.config import Settings
from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
from inboxdesk.tui.app import make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.preferences.grid import PreferenceGrid
from inboxdesk.tui.preferences.screen import PreferencesScreen
from inboxdesk.writes import WriteStore
from tests.conftest import ServiceFactory
from tests.hostile import HOSTILE_KEY, SUBSCRIBER, hostile_delivery_fixture, listed_twice
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, until


async def test_what_the_service_lists_twice_is_shown_once(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service(hostile_delivery_fixture())
    with production_shaped(service.url, rewrite=listed_twice) as url:
        settings = Settings(base_url=url, api_key=HOSTILE_KEY)
        app = make_app(settings, subscriber_id=SUBSCRIBER, writes=WriteStore(None))
        app.animation_level = "none"
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
            await pilot.press("4")
            await until(pilot, lambda: isinstance(app.screen, ActivityScreen), what="activity")
            table = app.screen.query_one(ActivityTable)
            await until(pilot, lambda: table.row_count == 3, what="each notification once")
            await until(pilot, lambda: notices.saying("twice on one page"), what="said")
            await pilot.press("f")  # failed only: the scan reads the same pages
            await until(pilot, lambda: table.row_count == 3, what="failed ones, once each")
            await pilot.press("5")
            await until(
                pilot,
                lambda: isinstance(app.screen, PreferencesScreen) and app.screen.table is not None,
                what="the preferences",
            )
            grid = app.screen.query_one(PreferenceGrid)
            assert "twice" in grid.rows and "[critical]" in str(grid.get_cell("twice", "workflow"))
            assert notices.saying("without an identifier or slug left out")
            assert notices.saying("twice more than once")
            assert app.is_running
