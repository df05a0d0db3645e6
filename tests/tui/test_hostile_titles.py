"""Every screen's title and sub-title over hostile text: the header and the window title
show it inert, and none of its sequences reaches the terminal.

The workflow's name holds ESC, OSC 52 (the clipboard), OSC 0 (the window title), BEL, C1
and bidi controls; once it reached the terminal raw as the delivery timeline's
sub-title. The subscriber's name (the inbox's sub-title) and the environment's (the app's
title) are hostile too. Two of the notifications carry provider answers nested 100,000
and 600 deep: opening their timelines neither crashes nor freezes the app.

The service lists things twice, as production may: an Activity page names a
notification twice, Preferences has a workflow in both the critical and the changeable
listings and one without an identifier; each is shown once, and what was left out said.
"""

from __future__ import annotations

from dataclasses import replace

from textual.pilot import Pilot

from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.preferences.grid import PreferenceGrid
from inboxdesk.tui.preferences.screen import PreferencesScreen
from inboxdesk.tui.widgets.app_header import AppHeader
from tests.conftest import ServiceFactory
from tests.hostile import HOSTILE_KEY, SUBSCRIBER, hostile_delivery_fixture, listed_twice
from tests.production_shaped import production_shaped
from tests.tui.conftest import Notices, app_for, until
from tests.tui.test_hostile import leaks, recording

# What no title may hold: ESC, BEL, NUL, C1 controls, bidi overrides and isolates.
RAW = {"\x1b", "\x07", "\x00", "\x9b", "\x9c", "\x9d", "\u202e", "\u2066", "\u200b"}


def titles(app: InboxdeskApp) -> list[str]:
    """The app's and the screen's title and sub-title, and the header as drawn."""
    screen = app.screen
    found = [app.title, app.sub_title, screen.title or "", screen.sub_title or ""]
    found += [header.format_title().plain for header in screen.query(AppHeader)]
    return found


def assert_inert(app: InboxdeskApp, where: str) -> None:
    for title in titles(app):
        assert not RAW & set(title), f"{where}: {title!r}"


async def shown(pilot: Pilot[None], key: str, kind: type, what: str) -> None:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), what=what)
    await pilot.pause()


async def test_every_title_and_sub_title_stays_inert(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """Every view's titles over hostile text; and, the service listing things twice (as
    production may), Activity and Preferences show each thing once and say so."""
    service = make_service(hostile_delivery_fixture())
    with production_shaped(service.url, rewrite=listed_twice) as url:
        app = app_for(replace(service, url=url), key=HOSTILE_KEY, subscriber=SUBSCRIBER)
        written = recording(app)
        async with app.run_test(headless=False, size=(120, 40), message_hook=notices.hook) as pilot:
            await walk(pilot, app, notices)
    assert not leaks(written), leaks(written)


async def walk(pilot: Pilot[None], app: InboxdeskApp, notices: Notices) -> None:
    await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
    await until(pilot, lambda: (app.screen.sub_title or "").startswith("first"), what="her name")
    assert_inert(app, "inbox")
    await shown(pilot, "2", IntegrationsScreen, "integrations")
    assert_inert(app, "integrations")
    await shown(pilot, "3", HistoryScreen, "history")
    assert_inert(app, "history")
    await shown(pilot, "4", ActivityScreen, "activity")
    table = app.screen.query_one(ActivityTable)
    # Each page names its first notification twice: shown once, and said.
    await until(pilot, lambda: table.row_count == 3, what="mallory's notifications, once each")
    await until(pilot, lambda: notices.saying("twice on one page"), what="said")
    assert_inert(app, "activity")
    # The plain answer, then those nested 600 and 100,000 deep, each shown as text.
    for n, raw in enumerate(["␛]52;", '{"a":{"a":', "[[[[[[[["]):
        table.move_cursor(row=n)
        await shown(pilot, "enter", TimelineScreen, f"timeline {n}")
        sub_title = app.screen.sub_title or ""
        assert sub_title.startswith("Delivery of ␛]52;c;ZXZpbA==\\x07␛]0;pwned")
        assert_inert(app, f"timeline {n}")
        view = app.screen.query_one(TimelineView)
        await until(pilot, lambda: raw in view.text, what=f"raw {n}")  # noqa: B023
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen))
    await pilot.press("f")  # failed only: the scan reads the same pages
    await until(pilot, lambda: table.row_count == 3, what="failed ones, once each")
    await shown(pilot, "5", PreferencesScreen, "preferences")
    assert_inert(app, "preferences")
    # A workflow in both the critical and the changeable listings, and one without an
    # identifier: each shown once (the critical one, locked), and what was left out said.
    screen = app.screen
    assert isinstance(screen, PreferencesScreen)
    await until(pilot, lambda: screen.table is not None, what="the preferences")
    grid = screen.query_one(PreferenceGrid)
    assert "twice" in grid.rows and "[critical]" in str(grid.get_cell("twice", "workflow"))
    assert notices.saying("without an identifier or slug left out")
    assert notices.saying("twice more than once")
    assert app.is_running
