"""The app over a hostile fixture: text from the wire stays inert, visible text.

Every string field of the messages, subscribers and integrations holds markup,
`[@click=…]` actions, hyperlinks, escape sequences, controls, bidi overrides and huge
values (tests/hostile.py). Driven through Pilot over the real service, the app must not
crash, run an action or change anything, must show the text literally, and must write
none of those sequences to the terminal.

The fixture also holds mallory's notifications (tests/hostile.py's
hostile_delivery_fixture): every view's title and sub-title shows its text inert (the
workflow's name once reached the terminal raw as the delivery timeline's sub-title), and
the timelines of provider answers nested 100,000 and 600 deep neither crash nor freeze
the app. The service lists things twice, as production may (an Activity page names a
notification twice, Preferences has a workflow in both the critical and the changeable
listings and one without an identifier): each is shown once, and what was left out said.

What reaches the terminal is caught by a driver: Textual's headless driver, told it is
not headless, so the app renders exactly as for a real terminal, into a list.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import ClassVar

import pytest
from textual.drivers.headless_driver import HeadlessDriver
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.preferences.grid import PreferenceGrid
from inboxdesk.tui.preferences.screen import PreferencesScreen
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.screens.problem import ProblemScreen
from inboxdesk.tui.widgets.app_header import AppHeader
from tests.conftest import Service, ServiceFactory
from tests.hostile import (
    ALL,
    ATTACKS,
    HOSTILE_KEY,
    SUBSCRIBER,
    VISIBLE_MARKER,
    hostile_delivery_fixture,
    listed_twice,
)
from tests.production_shaped import production_shaped
from tests.tui.conftest import (
    DETAIL_PARTS,
    Notices,
    app_for,
    detail_text,
    plain,
    problem_shown,
    until,
    view_listing,
)

MESSAGES = len(ATTACKS) + 2  # one per attack, the 10,000-character title, the blocks
SIZE = (220, 50)  # wide: the detail pane at its widest, so fewer lines to click
# Sequences from the data that must never reach the terminal. Textual writes its own
# CSI sequences (colours, cursor moves), but never these.
FORBIDDEN = {
    "OSC 0 (window title)": "\x1b]0;",
    "OSC 8 (hyperlink)": "\x1b]8;",
    "OSC 52 (clipboard)": "\x1b]52;",
    "CSI 2J (clear screen)": "\x1b[2J",
    "BEL": "\x07",
    "NUL": "\x00",
    "C1 CSI": "\x9b",
    "C1 ST": "\x9c",
    "C1 OSC": "\x9d",
    "RLO (bidi override)": "\u202e",
}
# Textual's own: the mouse pointer's shape (OSC 22), ended by BEL.
POINTER_SHAPE = re.compile(r"\x1b\]22;[a-z-]*\x07")
CSI = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]")
MAX_PAGES = 60  # the 10,000-character title alone wraps to some 200 lines


class Terminal(HeadlessDriver):
    """A headless driver that keeps what the app would write to a real terminal."""

    written: ClassVar[list[str]] = []

    @property
    def is_headless(self) -> bool:
        return False  # so that the app renders and writes, as for a real terminal

    def write(self, data: str) -> None:
        self.written.append(data)


def recording(app: InboxdeskApp) -> list[str]:
    """Record what `app` writes to the terminal; returns the list it is written to."""
    written: list[str] = []
    app.driver_class = type("RecordingTerminal", (Terminal,), {"written": written})
    return written


def leaks(written: list[str]) -> list[str]:
    """The forbidden sequences in what the app wrote, beside Textual's own."""
    output = POINTER_SHAPE.sub("", "".join(written))
    return [name for name, sequence in FORBIDDEN.items() if sequence in output]


def visible(written: list[str]) -> str:
    """The text the app wrote, without Textual's own CSI sequences."""
    return CSI.sub("", "".join(written))


def actions_in(widget: Widget) -> list[str]:
    """Every piece of `widget`'s lines whose style would run an action or open a link.

    Textual runs `@click` actions and opens links from the style under the mouse, so a
    line without either is inert however it is clicked. Every line is rendered, also
    those scrolled out of view (a pane's body is as tall as its content).
    """
    found = []
    for y in range(widget.size.height):
        for segment in widget.render_line(y):
            style = segment.style
            if style is not None and (style.link or "@click" in style.meta):
                found.append(f"line {y}: {segment.text!r} {style.link or style.meta}")
    return found


async def pages(pilot: Pilot[None], pane: Widget) -> AsyncIterator[int]:
    """Scroll `pane` from its top to its end a page at a time, yielding at each page."""
    pane.scroll_home(animate=False)
    for page in range(MAX_PAGES):
        await pilot.pause()
        yield page
        if pane.scroll_y >= pane.max_scroll_y:
            return
        pane.scroll_page_down(animate=False)


# Lines clicked per page. `actions_in` already proves every line inert (no link, no
# @click in any style); the clicks are a seeded sample that proves it the real way,
# sized to the suite's budget (decision 35): each page scrolled and clicked costs a
# frame, and a click about a tenth of a CPU-second (two a page: a sixth of the walk).
CLICKS_PER_PAGE = 1
SAMPLE_PAGES = 3


async def click_every_line(pilot: Pilot[None], pane: Widget, column: int = 15) -> None:
    """Click a fixed, seeded sample of `pane`'s lines, page by page (real Pilot clicks)."""
    sample = random.Random(f"{type(pane).__name__}:{pane.id}")
    async for page in pages(pilot, pane):
        if page >= SAMPLE_PAGES:
            return
        height = min(pane.content_region.height, pane.virtual_size.height)
        for y in sorted(sample.sample(range(height), min(CLICKS_PER_PAGE, height))):
            await pilot.click(pane, offset=(column, y))


SAMPLED_MESSAGES = 4


def clicked_row(lines: list[str]) -> int:
    """The row of the message whose link is the action that marked every message read."""
    return next(n for n, line in enumerate(lines) if "click_screen: " in line)


def sampled_rows(lines: list[str]) -> list[int]:
    """The rows whose detail the walk opens: the clicked link's and the longest title's,
    and a fixed, seeded sample of the others, top to bottom."""
    always = {
        clicked_row(lines),
        next(n for n, line in enumerate(lines) if "long: WWWW" in line),
    }
    others = sorted(set(range(len(lines))) - always)
    sample = random.Random("hostile messages").sample(others, SAMPLED_MESSAGES - len(always))
    return sorted(always | set(sample))


def body_of(screen: InboxScreen) -> Static:
    return screen.query_one("#message-body", Static)


def detail_parts(screen: InboxScreen) -> list[Static]:
    """Title, state line and body of the message detail pane."""
    return [screen.query_one(part, Static) for part in DETAIL_PARTS]


def assert_untouched(app: InboxdeskApp, service: Service, before: object) -> None:
    assert app.is_running, "an action from the data quit the app"
    assert service.snapshot() == before, "an action from the data changed the service"


async def hostile_app(
    pilot: Pilot[None], service: Service
) -> tuple[InboxdeskApp, InboxScreen, object]:
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, InboxScreen)
            and app.screen.query_one(MessageTable).row_count == MESSAGES
            and bool(app.screen.query("#message-body"))
            # the first message's detail is drawn after the first frame
            and "No message selected" not in detail_text(app.screen)
        ),
        what="the hostile inbox",
    )
    assert isinstance(app.screen, InboxScreen)
    return app, app.screen, service.snapshot()


@pytest.mark.slow
async def test_messages_detail_picker_integrations_and_palette_stay_inert_text(
    make_service: ServiceFactory,
) -> None:
    """One walk over the hostile fixture: every row of the list, a seeded sample of
    messages' details, then the picker, the integrations (their credentials' names
    included) and their confirmation, a problem screen and the palette; then every
    other view's title (History, Activity and its timelines, Preferences) and what the
    service lists twice."""
    # An older deployment's integrations carry their credentials: their names are wire
    # text too. The service lists things twice, as production may.
    service = make_service(fixture=hostile_delivery_fixture(), send_credentials=True)
    with production_shaped(service.url, rewrite=listed_twice) as url:
        app = app_for(replace(service, url=url), key=HOSTILE_KEY, subscriber=SUBSCRIBER)
        written = recording(app)
        notices = Notices()
        async with app.run_test(
            headless=False, size=SIZE, notifications=True, message_hook=notices.hook
        ) as pilot:
            await hostile_walk(pilot, service, notices, written)
    assert not leaks(written), leaks(written)
    assert VISIBLE_MARKER in visible(written)


async def hostile_walk(
    pilot: Pilot[None], service: Service, notices: Notices, written: list[str]
) -> None:
    app, screen, before = await hostile_app(pilot, service)
    await until(pilot, lambda: (app.screen.sub_title or "").startswith("first"), what="her name")
    assert_inert(app, "inbox")
    # The list: every row drawn as plain visible text, no markup run.
    table = screen.table
    lines = [table.row_text(i) for i in range(table.row_count)]
    assert any("[@click=app.quit]" in line or "[bold red]" in line for line in lines)
    drawn = "".join(
        segment.text for y in range(table.size.height) for segment in table.render_line(y)
    )
    assert "\x1b" not in drawn and "\x9b" not in drawn and "\u202e" not in drawn
    assert not actions_in(table)
    # The detail pane of a fixed, seeded sample of messages (decision 35): always the
    # one whose link once marked every message read, and the 10,000-character word.
    # Every message's detail, as the pane builds it, is checked without the app in
    # test_every_message_detail_is_built_inert.
    pane = screen.query_one("#detail")
    shown: set[str] = set()
    for n in sampled_rows(lines):
        if n != table.cursor_row:
            previous = body_of(screen).content
            table.move_to(n)
            await until(
                pilot,
                lambda: body_of(screen).content is not previous,  # noqa: B023
                what=f"message {n} in the detail pane",
            )
        body = detail_text(screen)
        shown.add(body)
        assert VISIBLE_MARKER in body and "␛" in body
        assert "<U+200B>" in body and "\u200b" not in body, "zero-width shown, not hidden"
        for part in detail_parts(screen):
            assert not actions_in(part), f"message {n}: {actions_in(part)}"
        if n == clicked_row(lines):
            # The CTA URL that marked every message read when clicked.
            await click_every_line(pilot, pane)
        assert_untouched(app, service, before)
    assert len(shown) == SAMPLED_MESSAGES
    assert isinstance(app.screen, InboxScreen), "a click ran an action"
    assert not [n for n in notices if n.message.startswith(("Marked", "Unexpected error"))]

    # The picker, the integrations, their confirmation, a problem screen and the
    # palette, in the same app.
    await pilot.press("p")
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, SubscriberPicker)
            and app.screen.query_one(OptionList).option_count == 3
        ),
        what="the picker's hostile subscribers",
    )
    assert "[link=file:///etc/passwd]open me[/link]" in visible(written)
    assert not actions_in(app.screen.query_one(OptionList))
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, InboxScreen))

    screen = await view_listing(
        pilot, "2", IntegrationsScreen, IntegrationTable, 3, "the hostile integrations"
    )
    table = screen.query_one(IntegrationTable)
    credentials = 0
    for n in range(3):
        if n:
            table.focus()
            await pilot.press("j")
        await pilot.pause()
        body = plain(screen.query_one("#integration-body"))
        assert "[@click=app.quit]quit[/]" in body and "\x1b" not in body
        held = body[body.index("Credentials") :]
        assert not actions_in(screen.query_one("#integration-body"))
        assert not actions_in(table)
        if "none shown" not in held:
            # A credential's name, made visible: "cred-title" is in that name alone.
            assert "␛]0;cred-title\\x07name" in held, held
            credentials += 1
            # The longest detail (credentials, configurations) is clicked: a seeded
            # sample of its lines, as the message's; every line of all three is
            # proved inert by actions_in.
            await click_every_line(pilot, screen.query_one("#integration-detail"))
    assert credentials == 1, "the integration with credentials shows their names"
    await click_every_line(pilot, table)
    assert_untouched(app, service, before)
    assert isinstance(app.screen, IntegrationsScreen), "a click ran an action"

    # The confirmation names the hostile integration (the non-primary email one).
    table.move_cursor(row=0)
    await pilot.pause()
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
    question = plain(app.screen.query_one("#question", Static))
    assert "Make [@click=app.quit]quit[/] (mailgun) the primary email integration" in question
    assert "\x1b" not in question and "␛" in question, "the environment's name is safe"
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, IntegrationsScreen))

    # A problem screen quoting the service (an error message or hint).
    app.push_screen(ProblemScreen("The service answered with an error", ALL, ALL))
    await problem_shown(pilot)
    message = plain(app.screen.query_one("#problem-message", Static))
    assert VISIBLE_MARKER in message and "␛" in message
    app.pop_screen()
    await until(pilot, lambda: isinstance(app.screen, IntegrationsScreen))

    await pilot.press("ctrl+p")
    await until(pilot, lambda: bool(app.screen.query("CommandInput")), what="the palette")
    # The query in one change (the palette searches again on every key typed).
    app.screen.query_one("CommandInput", Input).value = "open inbox"
    await until(
        pilot,
        lambda: "Open inbox: first [@click=app.quit]quit[/]" in visible(written),
        what="the palette's hostile subscriber",
    )
    await pilot.press("escape")
    await until(pilot, lambda: isinstance(app.screen, IntegrationsScreen))
    assert_untouched(app, service, before)
    await every_view(pilot, app, notices)
    assert_untouched(app, service, before)
    assert not [n for n in notices if n.message.startswith(("Marked", "Unexpected error"))]


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


async def every_view(pilot: Pilot[None], app: InboxdeskApp, notices: Notices) -> None:
    """Every view's title and sub-title inert, from the inbox on: the timelines of
    notifications whose provider answers are nested 100,000 and 600 deep included; and
    what the service lists twice shown once, and said."""
    assert isinstance(app.screen, IntegrationsScreen)
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
    await until(
        pilot,
        lambda: (
            notices.saying("without an identifier or slug left out")
            and notices.saying("twice more than once")
        ),
        what="what was left out, said",
    )
    assert app.is_running


async def test_every_message_detail_is_built_inert(make_service: ServiceFactory) -> None:
    """Every hostile message's detail (title, state line and body), as the pane builds it
    and rich draws it: no link and no action in any style, none of the terminal's
    sequences in the text, the markup literal and the controls made visible. The walk
    above opens a seeded sample of these in the app itself."""
    from rich.console import Console

    from inboxdesk.client import InboxClient
    from inboxdesk.tui.inbox.notification import (
        notification_state,
        notification_title,
        render_notification,
    )
    from tests.tui.conftest import NOW

    service = make_service(fixture=hostile_delivery_fixture())  # the walk's, one template
    async with InboxClient(service.url, HOSTILE_KEY) as client:
        page = await client.notifications(SUBSCRIBER, limit=100)
    assert len(page.data) == MESSAGES
    console = Console(width=100, file=io.StringIO(), force_terminal=True)
    for item in page.data:
        parts = [
            notification_title(item),
            notification_state(item),
            render_notification(item, NOW),
        ]
        segments = [segment for part in parts for segment in console.render(part)]
        actions = [
            (segment.text, segment.style.link or segment.style.meta)
            for segment in segments
            if segment.style is not None and (segment.style.link or "@click" in segment.style.meta)
        ]
        assert not actions, (item.id, actions)
        text = "".join(segment.text for segment in segments)
        assert not [name for name, sequence in FORBIDDEN.items() if sequence in text], item.id
        assert "\x1b" not in text and VISIBLE_MARKER in text and "␛" in text, item.id
        assert "<U+200B>" in text and "\u200b" not in text, "zero-width shown, not hidden"
