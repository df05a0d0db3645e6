"""The `:` line in the app (decision 122): every failed SMS in the last hour is one line,
and its groups name each cause with counts; `:view save` writes the view to the config
file and `:NAME` opens it again; a bad line says what it expected and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from inboxdesk.config.file import ConfigFile
from inboxdesk.tui.activity.screen import ActivityScreen, GroupTable
from inboxdesk.tui.command_line import CommandLine
from tests.conftest import Service, ServiceFactory
from tests.feed_fixture import feed_fixture
from tests.tui.conftest import NOW, SIZE, Notices, app_for, until
from tests.tui.test_inbox import opened

KEYS = {" ": "space", ":": "colon", "-": "minus"}


async def line(pilot: Pilot[None], text: str) -> None:
    """Type a `:` line as a user does, key by key, and Enter."""
    await pilot.press("colon")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandLine), what="the : line")
    await pilot.press(*(KEYS.get(c, c) for c in text.removeprefix(":")), "enter")
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


async def test_every_failed_sms_in_the_last_hour_is_one_line(
    make_service: ServiceFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, notices: Notices
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[aliases]\nsmsfail = ":activity failed sms 1h by:cause"\n')
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    service: Service = make_service(feed_fixture(NOW))
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot, rows=1)
        # A bad line says what it expected, and the inbox stays as it was.
        await line(pilot, ":activity fax")
        assert notices.saying("expected failed, a channel")
        assert app.screen.id == "inbox"

        await line(pilot, ":smsfail")
        expected = [
            ("4", "provider error", "21610"),
            ("2", "provider error", "21211"),
            ("1", "missing address", ""),
        ]
        await until(pilot, lambda: _groups(app) == expected, what="three causes with counts")
        assert "last 1 h" in str(app.screen.query_one("#activity-state").render())

        await line(pilot, ":view save sms-hour")
        saved = ConfigFile.load().views()["sms-hour"]
        assert saved["failed"] and saved["channel"] == "sms" and saved["window"] == "1h"
        assert saved["grouping"] == "cause" and saved["everyone"]
        # The palette lists the saved view and the alias.
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Open view: sms-hour" in titles and "Run alias: smsfail" in titles

        await line(pilot, ":sub jane")
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        # The suggester completes a saved view's name as it is typed.
        await pilot.press("colon", "s", "m")
        box = app.screen.query_one(Input)
        assert box.value == ":sm" and box.suggester is not None
        assert await box.suggester.get_suggestion(box.value) == ":sms-hour"
        await pilot.press("escape")
        await line(pilot, ":sms-hour")
        await until(pilot, lambda: len(_groups(app)) == 3, what="the saved view again")
