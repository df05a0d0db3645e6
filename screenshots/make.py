"""Make the README's screenshots: the app on the demo data, at a fixed size and time.

Each view at 120 columns, and the inbox at 80x24 too, where the detail pane sits below
the list. web-inbox.png is `inboxdesk demo --web` in headless Chromium, taken by the
browser test itself (tests/web/test_web_demo.py), so the picture is what the test checks.

Run: .venv/bin/python screenshots/make.py   (writes screenshots/*.svg and web-inbox.png;
--web makes only the PNG, --svg only the SVGs; scene names make only those)
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.pilot import Pilot

# Run as a script: the repository's root, for the helpers it shares with the tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.waiting import until

from inboxdesk.config import Settings
from inboxdesk.config.models import EnvironmentKey
from inboxdesk.server.demo import demo_fixture
from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.integrations.screen import IntegrationsScreen
from inboxdesk.tui.integrations.table import IntegrationTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.help import HelpScreen
from inboxdesk.writes import WriteStore

OUT = Path(__file__).resolve().parent
ROOT = OUT.parent
NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)
SIZE = (120, 40)
NARROW = (80, 24)


async def inbox(pilot: Pilot[None]) -> None:
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, InboxScreen)
            and any(t.row_count > 0 for t in app.screen.query(MessageTable))
            and app.screen.counts is not None
        ),
    )


async def detail(pilot: Pilot[None]) -> None:
    await inbox(pilot)
    await pilot.press("space", "space", "j", "j")
    await pilot.pause(0.3)


async def integrations(pilot: Pilot[None]) -> None:
    await inbox(pilot)
    await pilot.press("2")
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, IntegrationsScreen)
            and any(t.row_count > 0 for t in app.screen.query(IntegrationTable))
        ),
    )
    await pilot.press("j", "j")


async def confirm(pilot: Pilot[None]) -> None:
    await integrations(pilot)
    await pilot.press("p")
    await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))


async def help_screen(pilot: Pilot[None]) -> None:
    await inbox(pilot)
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


async def history(pilot: Pilot[None]) -> None:
    """A few writes of each kind, then the History view on the oldest."""
    from inboxdesk.tui.history.screen import HistoryScreen
    from inboxdesk.tui.history.table import HistoryTable

    await inbox(pilot)
    app = pilot.app
    await pilot.press("space", "space", "r")
    await pilot.pause(0.3)
    await pilot.press("escape", "j", "S")
    await pilot.pause(0.3)
    await confirm(pilot)
    await pilot.press("y")
    await pilot.pause(0.5)
    await pilot.press("3")
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, HistoryScreen)
            and any(t.row_count >= 3 for t in app.screen.query(HistoryTable))
        ),
    )


async def all_tab(pilot: Pilot[None]) -> None:
    """The All tab: archived (▣) and snoozed (☾) rows among the rest."""
    await inbox(pilot)
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    await pilot.press(*"fffff")  # Unread, Unseen, Archived, Snoozed, All
    await until(pilot, lambda: screen.tab.value == "all" and screen.feed.answered)
    await pilot.pause(0.3)


async def snooze(pilot: Pilot[None]) -> None:
    """Two messages selected, and the snooze window asking until when."""
    from inboxdesk.tui.screens.snooze import SnoozeScreen

    await inbox(pilot)
    await pilot.press("space", "space", "b")
    await until(pilot, lambda: isinstance(pilot.app.screen, SnoozeScreen))


async def activity(pilot: Pilot[None]) -> None:
    """Activity (`4`): Ada's notifications on every channel, with the cause in words."""
    from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable

    await inbox(pilot)
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    app.open_subscriber("ada.lovelace")  # the demo's subscriber with every story
    await until(pilot, lambda: getattr(app.screen, "subscriber_id", "") == "ada.lovelace")
    await inbox(pilot)
    await pilot.press("4")
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, ActivityScreen)
            and app.screen.query_one(ActivityTable).row_count >= 10
        ),
    )


async def grouped(pilot: Pilot[None]) -> None:
    """Activity across every subscriber of Development (`a`), grouped by cause (`b`)."""
    from inboxdesk.tui.activity.screen import GroupTable

    await activity(pilot)
    app = pilot.app
    await pilot.press("a", "b")
    await until(
        pilot,
        lambda: (
            app.screen.query_one(GroupTable).row_count >= 4
            and "scanned" in str(app.screen.query_one("#activity-state").render())
        ),
        timeout=30,
    )


async def timeline(pilot: Pilot[None]) -> None:
    """The timeline of Ada's bounced email, opened from Activity."""
    from inboxdesk.tui.activity.screen import ActivityTable
    from inboxdesk.tui.activity.timeline import TimelineScreen

    await activity(pilot)
    table = pilot.app.screen.query_one(ActivityTable)
    causes = [str(table.get_cell(key, "cause")) for key in table.rows]
    table.move_cursor(row=next(n for n, c in enumerate(causes) if "bounced" in c))
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, TimelineScreen))
    await pilot.app.screen.workers.wait_for_complete()


class Ticking:
    """A clock the scene moves by hand: the timeline follows a resend while it moves,
    and waits, live, once it stops."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now

    def tick(self) -> bool:
        self.now += timedelta(seconds=0.1)
        return False


async def followed(pilot: Pilot[None]) -> None:
    """Ada's bounced email resent with `R`: its new transaction followed live, waiting
    in the workflow's delay (the service's clock stands still)."""
    from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView

    await timeline(pilot)
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    screen = app.screen
    assert isinstance(screen, TimelineScreen)
    original = screen.notification.transaction_id
    clock = Ticking()
    app.clock = clock
    await pilot.press("R")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    await until(
        pilot,
        lambda: (
            clock.tick()
            or (
                screen.notification.transaction_id != original
                and "Step delayed" in screen.query_one(TimelineView).text
            )
        ),
    )


async def preferences(pilot: Pilot[None]) -> None:
    """Ada's preferences (`5`), the cursor on her opted-out order emails."""
    from inboxdesk.tui.preferences.opening import open_preferences
    from inboxdesk.tui.preferences.screen import PreferencesScreen

    await inbox(pilot)
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    open_preferences(app, app.context, "ada.lovelace", "order-shipped", "email")
    await until(
        pilot, lambda: isinstance(app.screen, PreferencesScreen) and app.screen.table is not None
    )


Scene = Callable[[Pilot[None]], Awaitable[None]]
# Name: how to get there, and the terminal size.
SCENES: dict[str, tuple[Scene, tuple[int, int]]] = {
    "inbox": (inbox, SIZE),
    "message-detail": (detail, SIZE),
    "integrations": (integrations, SIZE),
    "set-primary-confirmation": (confirm, SIZE),
    "help": (help_screen, SIZE),
    "history": (history, SIZE),
    "inbox-all-tab": (all_tab, SIZE),
    "snooze": (snooze, SIZE),
    "inbox-narrow": (detail, NARROW),
    "activity": (activity, SIZE),
    "activity-grouped": (grouped, SIZE),
    "delivery-timeline": (timeline, SIZE),
    "delivery-followed": (followed, SIZE),
    "preferences": (preferences, NARROW),
}


async def shoot(
    url: str, held: dict[str, EnvironmentKey], name: str, scene: Scene, size: tuple[int, int]
) -> None:
    # The demo's own profile, a key for each environment, as `inboxdesk demo` opens it; an
    # outbox of its own: no scene reads or writes the user's history.
    settings = Settings(base_url=url, profile="demo", environments=held)
    app: InboxdeskApp = make_app(settings, clock=lambda: NOW, writes=WriteStore(None))
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        await scene(pilot)
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", path=str(OUT))
    print(f"wrote {OUT / (name + '.svg')}")


def web_inbox() -> int:
    """The browser screenshot: the browser test, told where to save its screenshot."""
    target = OUT / "web-inbox.png"
    test = ROOT / "tests" / "web" / "test_web_demo.py::test_demo_in_a_browser"
    env = {**os.environ, "INBOXDESK_WEB_SCREENSHOT": str(target), "CI": "true"}
    done = subprocess.run([sys.executable, "-m", "pytest", str(test), "-q"], cwd=ROOT, env=env)
    if done.returncode == 0:
        print(f"wrote {target}")
    return done.returncode


async def main() -> int:
    if "--web" in sys.argv[1:]:
        return web_inbox()
    wanted = [a for a in sys.argv[1:] if not a.startswith("--")] or list(SCENES)
    with tempfile.TemporaryDirectory() as scratch:
        for name in wanted:
            scene, size = SCENES[name]
            # A fresh demo database per scene, so that no scene sees another's changes.
            db = Path(scratch) / f"{name}.db"
            store = Store(db)
            store.clock = lambda: NOW  # what the worker runs is stamped at the demo's time
            fixture = demo_fixture(NOW)
            loaded = load_fixture(store, fixture)
            held = {
                env.environment_id: EnvironmentKey(
                    name=env.name, type=doc.get("type"), api_key=env.api_key
                )
                for env, doc in zip(loaded, fixture["environments"], strict=True)
            }
            with ServiceThread(ServerSettings(db_path=db), store) as service:
                await shoot(service.url, held, name, scene, size)
    return 0 if "--svg" in sys.argv[1:] else web_inbox()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
