"""Copies and credential names from a hostile service: the clipboard
gets the cleaned form and the notice says so; a credential's name is text, never a
terminal sequence."""

from __future__ import annotations

import copy as deep
import json
import webbrowser

import pytest

from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.integrations.table import IntegrationTable
from tests.conftest import EXAMPLE, ServiceFactory
from tests.hostile import HOSTILE_KEY, hostile_fixture
from tests.tui.conftest import SIZE, Notices, app_for, plain, until
from tests.tui.test_hostile import leaks, recording

# What a pasted value must never carry: the end of a bracketed paste and a new line.
PASTE_ATTACK = "\x1b[201~\nrm -rf ~\n"
SUBSCRIBER = f"jane{PASTE_ATTACK}"
URL = f"https://shop.example.test/{PASTE_ATTACK}"


def fixture() -> dict[str, object]:
    data = json.loads(EXAMPLE.read_text())
    env = data["environments"][0]
    env["subscribers"].append({"subscriberId": SUBSCRIBER, "firstName": "Mallory"})
    message = deep.deepcopy(env["messages"][0])
    message.update(
        _id="65f0000000000000000aaaaa",
        subscriberId=SUBSCRIBER,
        transactionId="txn-paste",
        cta={"type": "redirect", "data": {"url": URL}},
    )
    env["messages"].append(message)
    return data


async def test_each_copy_key_copies_the_cleaned_form(
    make_service: ServiceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_browser(*args: object) -> object:
        raise webbrowser.Error("no browser")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    service = make_service(fixture())
    app = app_for(service, subscriber=SUBSCRIBER)
    notices = Notices()
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, InboxScreen)
                and app.screen.query_one(MessageTable).row_count == 1
            ),
            what="the inbox",
        )
        await pilot.press("c")
        await until(pilot, lambda: len(notices) >= 1, what="copy notice")
        assert app.clipboard == "65f0000000000000000aaaaa"
        assert (
            "cleaned" not in notices[-1].message and "terminal's clipboard" in notices[-1].message
        )
        await pilot.press("C")
        await until(pilot, lambda: app.clipboard.startswith("jane"), what="subscriberId")
        assert app.clipboard == "jane[201~rm -rf ~"
        assert "cleaned" in notices[-1].message
        await pilot.press("o")
        await until(pilot, lambda: app.clipboard.startswith("https"), what="the link")
        assert app.clipboard == "https://shop.example.test/[201~rm -rf ~"
        assert "cleaned" in notices[-1].message and "no browser" in notices[-1].message
        for text in (app.clipboard, *(n.message for n in notices)):
            assert "\x1b" not in text and "\n" not in text


async def test_credential_names_reach_the_terminal_as_text(make_service: ServiceFactory) -> None:
    """Older deployments send credentials; their names are wire text like their values."""
    data = hostile_fixture()
    for env in data["environments"]:
        for integration in env.get("integrations", []):
            # Only the name is hostile: whatever of it shows must come from the name.
            integration["credentials"] = {"name-\x1b]52;c;ZXZpbA==\x07": "plain", "from": "x"}
    service = make_service(data, send_credentials=True)
    app = app_for(service, key=HOSTILE_KEY, subscriber=None)
    written = recording(app)
    async with app.run_test(size=(200, 60)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
        await pilot.press("2")
        await until(
            pilot,
            lambda: (
                bool(app.screen.query(IntegrationTable))
                and app.screen.query_one(IntegrationTable).row_count > 0
            ),
            what="integrations",
        )
        await pilot.pause()
        body = plain(app.screen.query_one("#integration-body"))
        shown = body[body.index("Credentials") :]
        assert "name-" in shown and "␛]52;" in shown, "the name is shown, made visible"
        assert "\x1b" not in body
    assert leaks(written) == []
