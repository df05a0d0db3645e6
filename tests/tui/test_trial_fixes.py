"""Fixes from a new user's trial of the app: what archive and snooze say they changed,
and the journal's detail of them."""

from __future__ import annotations

from textual.widgets import Static

from tests.conftest import Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, plain, settled, until
from tests.tui.test_inbox import opened
from tests.tui.test_inbox_v2 import state


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
