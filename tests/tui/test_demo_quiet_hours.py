"""Ada's quiet-hours stories in the demo, in the app: `:txn` opens each timeline, which
says the email was skipped outside her schedule, or held for her next open window; and
`5` from her tenant's notification opens Preferences on that context."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView
from inboxdesk.tui.command_line import CommandLine
from inboxdesk.tui.preferences.screen import PreferencesScreen
from tests.conftest import ServiceFactory
from tests.tui.conftest import SIZE, app_for, demo_at_now, plain, until

KEY = "demo-quiet-hours-key-0123456789"


def _demo_fixture() -> dict[str, Any]:
    """The same data as test_demo_stories', so one template serves both."""
    return demo_at_now()


KEYS = {" ": "space", "_": "underscore"}


def _transactions() -> dict[str, str]:
    development = _demo_fixture()["environments"][0]
    return {
        n["payload"]["story"]: n["transactionId"]
        for n in development["notifications"]
        if n["subscriberId"] == "ada.lovelace" and "story" in n["payload"]
    }


async def _timeline(pilot: Pilot[None], transaction: str, words: str) -> None:
    await pilot.press("colon")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandLine), what="the : line")
    await pilot.press(*(KEYS.get(c, c) for c in f"txn {transaction}"), "enter")
    await until(
        pilot,
        lambda: (
            isinstance(pilot.app.screen, TimelineScreen)
            and words in pilot.app.screen.query_one(TimelineView).text
        ),
        what=words,
    )


async def test_skipped_and_extended_in_the_timeline(make_service: ServiceFactory) -> None:
    service = make_service(_demo_fixture(), context_preferences=True)
    development = next(e for e in service.store.environments() if e["name"] == "Development")
    service.store.add_api_key(development["id"], KEY)
    stories = _transactions()
    app = app_for(service, key=KEY, subscriber="ada.lovelace")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await _timeline(
            pilot,
            stories["Email skipped outside Ada's quiet hours"],
            "email: canceled, outside the subscriber's schedule",
        )
        await pilot.press("escape")
        await _timeline(
            pilot,
            stories["Email held for Ada's next open hours"],
            "waiting for the subscriber's schedule to open; it will arrive then (next open "
            "window: 2026-11-23T09:00:00.000Z, Europe/London)",
        )
        await pilot.press("escape")
        await _timeline(
            pilot,
            stories["Comment email canceled by Ada's preference for tenant acme-eu"],
            "decided by this context's preferences where your organization has context "
            "preferences on, else by the no-context ones: 5 shows both",
        )
        assert "     context  tenant:acme-eu" in app.screen.query_one(TimelineView).text
        await pilot.press("5")
        await until(
            pilot,
            lambda: isinstance(app.screen, PreferencesScreen) and app.screen.table is not None,
            what="her preferences",
        )
        screen = app.screen
        assert isinstance(screen, PreferencesScreen)
        assert screen.context_keys == ("tenant:acme-eu",)
        title = plain(screen.query_one("#preference-title", Static)).strip()
        assert title == "Preferences of ada.lovelace · context tenant:acme-eu"
        beside = plain(screen.query_one("#preference-context", Static))
        assert "Comment on your post · email: OFF here, on without a context" in beside
