"""The `:` line in the app (decision 121 and 122), on a real config file under a temp
HOME: a bad line says what it expected and changes nothing; every failed SMS in the last
hour is one line, whose groups name each cause with counts; `:view save` writes the view
to the config file, the palette and the line's completion offer it, an alias runs its
line; the view reopens with `:NAME`, read from the file as every line reads it, and in
the next process on the command line with `activity --view NAME`."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from inboxdesk.config import ConfigFile, resolve
from inboxdesk.tui.activity.screen import ActivityScreen, GroupTable
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.command_line import CommandLine
from inboxdesk.writes import WriteStore
from tests.client.conftest import run
from tests.command_line import real_profile
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import feed_fixture
from tests.tui.conftest import SIZE, Notices, until
from tests.tui.test_inbox import opened

SMS_GROUPS = [
    ("4", "provider error", "21610"),
    ("2", "provider error", "21211"),
    ("1", "missing address", ""),
]


async def line(pilot: Pilot[None], text: str) -> None:
    """Open the `:` line with its key, put `text` in it and Enter. (The line as typed
    key by key, and its completion: the suggester's steps below.)"""
    await pilot.press("colon")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandLine), what="the : line")
    pilot.app.screen.query_one(Input).value = ":" + text.removeprefix(":")
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(pilot.app.screen, CommandLine), what="line gone")


def _groups(app: object) -> list[tuple[str, str, str]]:
    screen = app.screen  # type: ignore[attr-defined]
    if not isinstance(screen, ActivityScreen) or not screen.query_one(GroupTable).display:
        return []
    table = screen.query_one(GroupTable)
    return [
        tuple(str(table.get_cell(k, c)) for c in ("count", "cause", "code"))  # type: ignore[misc]
        for k in table.rows
    ]


@pytest.fixture
def profile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory) -> Path:
    """A real profile: the config file where the user's own lives, under a temp HOME,
    holding the profile `real` (the default) and an alias; nothing in the environment
    chooses."""
    service: Service = make_service(feed_fixture())  # times relative to now: the app's clock
    config = real_profile(monkeypatch, tmp_path, service.url, STAGING_KEY)
    with config.path.open("a") as file:
        file.write('[aliases]\nsmsfail = ":activity failed sms 1h by:cause"\n')
    return config.path


def started() -> InboxdeskApp:
    """The app as `inboxdesk` starts it: its settings resolved from the file anew."""
    app = make_app(resolve({}), subscriber_id="jane", writes=WriteStore(None))
    app.animation_level = "none"
    return app


async def test_every_failed_sms_in_the_last_hour_is_one_line_saved_and_reopened(
    profile: Path, notices: Notices, capsys: pytest.CaptureFixture[str]
) -> None:
    first = started()
    async with first.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot, rows=1)
        # A bad line says what it expected, and the inbox stays as it was.
        await line(pilot, ":activity fax")
        assert notices.saying("expected failed, a channel")
        assert first.screen.id == "inbox"

        await line(pilot, ":activity failed sms 1h by:cause")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="three causes with counts")
        await line(pilot, ":view save sms-hour")
        await until(pilot, lambda: "sms-hour" in ConfigFile.load().views(), what="saved")
        saved = ConfigFile.load().views()["sms-hour"]
        assert saved["failed"] and saved["channel"] == "sms" and saved["window"] == "1h"
        assert saved["grouping"] == "cause" and saved["everyone"]
        # The palette lists the saved view and the alias.
        titles = [c.title for c in first.get_system_commands(first.screen)]
        assert "Open view: sms-hour" in titles and "Run alias: smsfail" in titles

        # The suggester completes a saved view's name as it is typed. (`:sub` switches
        # the subscriber in the Subscriber view's walk.)
        await pilot.press("colon", "s", "m")
        box = first.screen.query_one(Input)
        assert box.value == ":sm" and box.suggester is not None
        assert await box.suggester.get_suggestion(box.value) == ":sms-hour"
        await pilot.press("escape")

        # The alias runs its line.
        await line(pilot, ":smsfail")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="the alias's groups")
        assert "last 1 h" in str(first.screen.query_one("#activity-state").render())

        # The saved view, read from the file as every line reads it, over an Activity
        # changed meanwhile: its groups again.
        await line(pilot, ":activity")
        await until(pilot, lambda: not _groups(first), what="Activity flat, jane's")
        await line(pilot, ":sms-hour")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="the view again")
        assert "last 1 h" in str(first.screen.query_one("#activity-state").render())
    assert stat.S_IMODE(profile.stat().st_mode) == 0o600
    saved = ConfigFile.load().views()["sms-hour"]
    assert saved["profile"] == "real" and saved["everyone"] and saved["window"] == "1h"
    assert saved["environment_id"]  # the key's environment, learned on connecting

    # The command line runs the view the app saved: the same groups (in a thread of its
    # own, as it runs its own event loop).
    code, out, err = await asyncio.to_thread(run, capsys, "activity", "--view", "sms-hour")
    assert code == 0, err
    rows = [line.split()[:6] for line in out.splitlines()[1:4]]
    assert rows[0] == ["4", "provider", "error", "sms", "twilio", "21610"]
    assert rows[1] == ["2", "provider", "error", "sms", "twilio", "21211"]
    assert rows[2][:3] == ["1", "missing", "address"]
