"""Fixes from a new user's trial of the app: what archive and snooze say they changed,
the journal's detail of them, and where a refresh leaves the cursor."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.screens.snooze import SnoozeScreen
from tests.conftest import Service, jane_message
from tests.tui.conftest import Notices, app_for, plain, settled, until
from tests.tui.test_inbox import opened, shown_ids
from tests.tui.test_inbox_v2 import archive, header, real_now, state


@pytest.mark.slow
async def test_archive_says_what_it_changed_and_a_refresh_keeps_the_cursor_on_its_message(
    service: Service, notices: Notices
) -> None:
    """At 120 columns: the header names the environment once loaded, without a write
    first; archive says what it changed (one already archived is named apart) and
    History shows the state; a refresh drops what was archived above the cursor, by
    this app or by someone else, and keeps the cursor on its message; `z` brings a row
    back; a snooze says its end as a date people read."""
    now = real_now()  # the service checks a snooze's end against its own clock
    app = app_for(service, clock=lambda: now)
    async with app.run_test(size=(120, 40), message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        table = screen.table
        await until(pilot, lambda: app.scope is not None, what="the environments")
        await until(pilot, lambda: "Staging" in header(screen), what="the header's environment")
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

        await pilot.press("1")
        await until(pilot, lambda: app.screen is screen, what="the inbox again")
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}
        await pilot.press("j")  # message 7, below the archived rows kept in place
        assert table.cursor_key == jane_message(7)
        archive(service, jane_message(8))  # above it, by someone else
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(8) not in shown_ids(table), what="refreshed")
        assert not {jane_message(n) for n in (11, 10, 9)} & set(shown_ids(table))
        assert table.cursor_key == jane_message(7)
        # The archived three are listed no more: unselected, so `e` acts on the cursor's
        # row alone, never on messages out of sight.
        assert not screen.selected
        assert notices.saying("3 selected messages are no longer listed here: unselected.")
        await pilot.press("e")  # 7
        await until(pilot, lambda: state(service, jane_message(7))[0], what="archived")
        await until(pilot, lambda: len(notices.saying("Archived 1 message.")) == 2)
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(7) not in shown_ids(table), what="refreshed")
        await settled(pilot)
        await pilot.press("z")
        await until(pilot, lambda: not state(service, jane_message(7))[0], what="undone")
        await until(pilot, lambda: jane_message(7) in shown_ids(table), what="listed again")

        await snooze_says_a_date_people_read(pilot, service, notices, now)


async def snooze_says_a_date_people_read(
    pilot: Pilot[None], service: Service, notices: Notices, now: datetime
) -> None:
    """The snooze dialog's ISO example is tomorrow and its hints agree; at 120 columns
    the snoozed message's state line is clipped with an ellipsis."""
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    target = screen.table.cursor_key
    assert target is not None
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
    await until(pilot, lambda: state(service, target)[1] is not None, what="snoozed")
    line = screen.query_one("#message-state", Static)
    await until(pilot, lambda: "snoozed" in plain(line), what="the state line")
    await pilot.pause()
    drawn = line.render_line(0).text.rstrip()
    assert "in_app" in drawn or drawn.endswith("…"), drawn
    assert "until" in drawn and "T09:00" not in drawn, "a date people read"
    said = notices.saying("Snoozed 1 message until ")
    assert said and "09:00" in said[0].message and "T09" not in said[0].message
