"""The inbox over a service whose pages go wrong (tests/hostile.py's
inbox_listed_badly): the app lists each readable message once, leaves out the one it
cannot read and says so, opens the message carrying data nested 190 deep, and `G`
still reaches the true last message."""

from __future__ import annotations

from inboxdesk.config import Settings
from inboxdesk.tui.app import make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.writes import WriteStore
from tests.conftest import STAGING_KEY, ServiceFactory, jane_message
from tests.hostile import inbox_listed_badly
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, detail_text, until

UNREADABLE, DEEP = jane_message(7), jane_message(9)


async def test_a_bad_inbox_page_costs_its_bad_message_only(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service()
    with production_shaped(service.url, rewrite=inbox_listed_badly(UNREADABLE, DEEP)) as url:
        settings = Settings(base_url=url, api_key=STAGING_KEY)
        app = make_app(settings, subscriber_id="jane", writes=WriteStore(None))
        app.animation_level = "none"
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
            screen = app.screen
            assert isinstance(screen, InboxScreen)
            await until(pilot, lambda: screen.feed.answered, what="the first page")
            await until(pilot, lambda: notices.saying("could not be read"), what="said")
            assert notices.saying("twice on one page")
            assert screen.feed.get(UNREADABLE) is None and screen.feed.get(DEEP) is not None
            assert screen.feed.message(DEEP) is not None
            table = screen.table
            await until(pilot, lambda: table.row_count > 0, what="the rows")
            deep = screen.feed.index_of(DEEP)
            assert deep is not None
            table.move_to(deep)
            await until(pilot, lambda: table.cursor_key == DEEP, what="the deep message")
            await until(pilot, lambda: DEEP in detail_text(screen), what="its detail")
            await pilot.press("enter")
            await pilot.press("G")
            await until(pilot, lambda: table.cursor_key == jane_message(0), what="the last")
            assert app.is_running
