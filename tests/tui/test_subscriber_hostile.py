"""The Subscriber view over a hostile device token: the masked list `d` picks from
passes the token's last characters through the one safe function, so an escape
sequence at a token's end reaches no terminal."""

from __future__ import annotations

from textual.widgets import OptionList

from inboxdesk.tui.subscriber.edit import TokenPicker
from inboxdesk.tui.subscriber.opening import open_subscriber_view
from tests.conftest import ServiceFactory
from tests.subscriber_fixture import subscriber_fixture
from tests.tui.conftest import app_for, until
from tests.tui.test_subscriber_view import SMALL, row_key, view

HOSTILE_TOKEN = "tok-hostile-\x1b[2J"


async def test_a_token_ending_in_an_escape_is_listed_safe(make_service: ServiceFactory) -> None:
    fixture = subscriber_fixture()
    for environment in fixture["environments"]:
        for subscriber in environment.get("subscribers", []):
            for channel in subscriber.get("channels", []):
                tokens = channel.get("credentials", {}).get("deviceTokens")
                if tokens:
                    tokens[-1] = HOSTILE_TOKEN
    service = make_service(fixture)
    app = app_for(service, subscriber="ada.lovelace")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        open_subscriber_view(app, app.context, "ada.lovelace", "deviceTokens:fcm")
        await until(pilot, lambda: view(app) is not None, what="the subscriber view")
        assert row_key(app).startswith("cred:fcm")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, TokenPicker), what="the token list")
        options = app.screen.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(2)]
        assert all("\x1b" not in p for p in prompts), prompts
