"""The real app (through Pilot) on the real local service over loopback."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import pytest
from textual.message import Message
from textual.notifications import Notification, Notify
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import DataTable, Input

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.config import Settings
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.command_line import CommandLine, run_line
from inboxdesk.tui.widgets.app_footer import AppFooter, Placed
from inboxdesk.writes import WriteStore
from tests.client.faults import FaultTransport
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.templates import DEMO_NOW
from tests.waiting import until

# The app tests' present: the demo's moment, so that their demo is the run's one.
NOW = DEMO_NOW
SIZE = (150, 40)


def app_for(
    service: Service,
    key: str = STAGING_KEY,
    subscriber: str | None = "jane",
    transport: FaultTransport | None = None,
    clock: Callable[[], datetime] | None = None,
    writes: WriteStore | None = None,
    **settings: object,
) -> InboxdeskApp:
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=2, base=0.05, deadline=3))
    client = InboxClient(service.url, key, options, transport)
    config = Settings(base_url=service.url, api_key=key, **settings)  # type: ignore[arg-type]
    app = make_app(
        config,
        client=client,
        subscriber_id=subscriber,
        clock=clock or (lambda: NOW),
        writes=writes or WriteStore(None),
    )
    app.animation_level = "none"  # scrolling jumps, so Pilot need not wait for animations
    app.probe_seconds = 0.2  # a service that is back is found without a 2 s wait
    return app


S = TypeVar("S", bound=Screen[Any])


async def view_listing(
    pilot: Pilot[None],
    key: str,
    screen: type[S],
    table: type[DataTable[Any]],
    rows: int,
    what: str,
) -> S:
    """Press a view's key and wait for its screen with `rows` rows in its table."""
    app = pilot.app
    await pilot.press(key)
    await until(
        pilot,
        lambda: isinstance(app.screen, screen) and app.screen.query_one(table).row_count == rows,
        what=what,
    )
    shown = app.screen
    assert isinstance(shown, screen)
    return shown


async def answered_no(pilot: Pilot[None], key: str, service: Service) -> None:
    """Press `key`, answer its question `n`: back on the same screen, nothing stored
    changed."""
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    app = pilot.app
    screen = app.screen
    before = service.snapshot()
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
    await pilot.press("n")
    await until(pilot, lambda: app.screen is screen, what="the question gone")
    await settled(pilot)
    assert service.snapshot() == before, "answered no: nothing changed"


async def problem_shown(pilot: Pilot[None]) -> Screen[Any]:
    """Wait for a problem screen, composed (its title, message and hint come together)."""
    from inboxdesk.tui.screens.problem import ProblemScreen

    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, ProblemScreen) and bool(app.screen.query("#problem-message"))
        ),
        what="the problem screen",
    )
    return app.screen


async def settled(pilot: Pilot[None], timeout: float = 8.0) -> None:
    """Let the app finish what it started: every worker done and its messages handled.

    What to await before checking that something did *not* happen.
    """
    await until(
        pilot,
        lambda: not any(not worker.is_finished for worker in pilot.app.workers),
        timeout,
        "the app's workers to finish",
    )
    await pilot.pause()


class Notices(list[Notification]):
    """Every notification the app raised, seen through run_test's public message hook."""

    def hook(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.append(message.notification)

    def saying(self, text: str) -> list[Notification]:
        return [n for n in self if text in n.message]


# The app's Integrations view lists every environment of the organization, as a key of a
# deployment older than May 2026 sees them: its tests run on a service in that mode.
ORG_WIDE = {"org_wide_integrations": True}


@pytest.fixture
def org_wide_service(make_service: ServiceFactory) -> Service:
    return make_service(**ORG_WIDE)


@pytest.fixture
def notices() -> Notices:
    return Notices()


@pytest.fixture
def transport() -> FaultTransport:
    return FaultTransport()


def plain(static: object) -> str:
    """What a Static shows, as plain text (rich renderables included)."""
    from rich.console import Console
    from textual.widgets import Static

    assert isinstance(static, Static)
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(static.content)
    return console.export_text()


# The message detail pane's parts, top to bottom: title, state line (read, seen,
# status, channel), body.
DETAIL_PARTS = ("#message-title", "#message-state", "#message-body")


def detail_text(screen: object) -> str:
    """The whole message detail pane as plain text, title first."""
    from textual.widget import Widget

    assert isinstance(screen, Widget)
    return "".join(plain(screen.query_one(part)) for part in DETAIL_PARTS)


async def first_timeline(pilot: Pilot[None], what: str) -> None:
    """From the inbox: Activity (`4`), then the newest notification's timeline."""
    from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
    from inboxdesk.tui.activity.timeline import TimelineScreen

    app = pilot.app
    await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
    await pilot.press("4")
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, ActivityScreen)
            and app.screen.query_one(ActivityTable).row_count >= 1
        ),
        what=what,
    )
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="the timeline")


async def line(pilot: Pilot[None], text: str) -> None:
    """Open the `:` line with its key, put `text` in it and Enter. (The line as typed
    key by key, and its completion: the suggester's steps below.)"""
    await pilot.press("colon")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandLine), what="the : line")
    pilot.app.screen.query_one(Input).value = ":" + text.removeprefix(":")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(pilot.app.screen, CommandLine), what="line gone")


async def ran(pilot: Pilot[None], text: str) -> None:
    """What a line does once Enter hands it over: `run_line`, called on the app's loop
    as the `:` key's screen calls it, awaited to its end. The screen itself, opened,
    typed into and closed (two frames that prove nothing more each time): `line`, in
    the command line's walk (a bad line, an alias, the completion: test_command_line.py)."""
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    done: list[bool] = []

    async def run() -> None:
        await run_line(app, text)
        done.append(True)

    app.call_later(run)
    await until(pilot, lambda: bool(done), what=f"{text} run")


def footer_line(footer: AppFooter, placed: Placed | None = None) -> Strip:
    """The footer's line as drawn, or the cells of one key drawn in it."""
    line = footer.render_line(0)
    return line if placed is None else line.crop(placed.x, placed.x + placed.width)
