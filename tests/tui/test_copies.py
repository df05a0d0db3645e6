"""Copies from a hostile service: the clipboard gets the cleaned form and the notice says
so. (A credential's name is text, never a terminal sequence: the hostile walk in
tests/tui/test_hostile.py.)"""

from __future__ import annotations

import copy as deep
import json
import webbrowser

import pytest

from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from tests.conftest import EXAMPLE, ServiceFactory
from tests.tui.conftest import SIZE, Notices, app_for, until

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
