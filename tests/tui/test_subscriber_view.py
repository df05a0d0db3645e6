"""The Subscriber view (`i`, `6`) on the real service: Grace's missing phone fixed from
the inbox (the form's refusals and warning) and undone from History; a token typed
unseen, never shown, and one ending in an escape listed safe; the topics Ada follows.
Landing on a cause's field: the Activity walk (tests/tui/test_activity.py). Read-only:
the read-only walk of tests/tui/test_resend_follow.py. A change made while the service
is away waits in the queue: tests/writes/test_subscriber_writes.py."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static

from inboxdesk.core.delivery.topics import NO_TRACE
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.subscriber.edit import EditField, SecretField, TokenPicker
from inboxdesk.tui.subscriber.opening import open_subscriber_view
from inboxdesk.tui.subscriber.screen import SubscriberScreen
from tests.conftest import Service, ServiceFactory
from tests.subscriber_fixture import SENTINEL, subscriber_fixture
from tests.tui.conftest import Notices, app_for, plain, ran, until, view_listing

SMALL = (100, 30)
# A token from the service that ends in an escape sequence: listed, masked, it reaches
# no terminal.
HOSTILE_TOKEN = "tok-hostile-\x1b[2J"


def fixture() -> dict[str, Any]:
    """The subscriber tests' data, Ada's second device token hostile; Ada follows a topic
    whose subscription passes only some notifications of a workflow."""
    data = subscriber_fixture()
    environment = data["environments"][0]
    environment["workflows"] = [
        {
            "name": "Invoice ready",
            "triggers": [{"type": "event", "identifier": "invoice", "variables": []}],
        }
    ]
    environment["topics"] = [
        {
            "key": "invoices-eu",
            "name": "EU invoices",
            "subscriptions": [
                {
                    "subscriberId": "ada.lovelace",
                    "identifier": "ada-invoices-eu",
                    "preferences": [
                        {
                            "workflow": "Invoice ready",
                            "condition": {">": [{"var": "payload.amount"}, 1000]},
                        }
                    ],
                }
            ],
        }
    ]
    for subscriber in data["environments"][0]["subscribers"]:
        for channel in subscriber.get("channels", []):
            tokens = channel.get("credentials", {}).get("deviceTokens")
            if subscriber["subscriberId"] == "ada.lovelace" and tokens:
                tokens[-1] = HOSTILE_TOKEN
    return data


def field(service: Service, who: str, name: str) -> Any:
    with service.http() as http:
        return http.get(f"/v2/subscribers/{who}").json()["data"].get(name)


def view(app: InboxdeskApp) -> SubscriberScreen | None:
    """The subscriber view once its subscriber is loaded and drawn into its rows."""
    screen = app.screen
    ok = (
        isinstance(screen, SubscriberScreen)
        and screen.subscriber is not None
        and screen.query_one("#subscriber-table", DataTable).row_count > 0
    )
    return screen if ok else None


def row_key(app: InboxdeskApp) -> str:
    screen = view(app)
    assert screen is not None
    table = screen.query_one("#subscriber-table", DataTable)
    return str(list(table.rows)[table.cursor_row].value)


def shown_text(app: InboxdeskApp) -> str:
    screen = app.screen
    table = screen.query_one("#subscriber-table", DataTable)
    return "\n".join(" ".join(str(c) for c in table.get_row_at(n)) for n in range(table.row_count))


def form_said(app: InboxdeskApp) -> str:
    return plain(app.screen.query_one("#field-said", Static))


async def test_grace_s_phone_fixed_and_ada_s_token_typed_unseen(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """One walk of the Subscriber view's changes: Grace's phone fixed with the checks,
    and undone from History. Then Ada's device tokens: one typed unseen, one removed,
    never shown; her provider's credentials removed; the topic she follows."""
    service = make_service(fixture())
    app = app_for(service, subscriber="grace.hopper")
    async with app.run_test(size=SMALL, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("i")
        await until(pilot, lambda: view(app) is not None, what="the subscriber view")
        text = shown_text(app)
        assert "sms has no phone number" in text and "push has no provider entry" in text
        # The email: a refusal keeps the form open and sends nothing.
        await pilot.press("j")
        assert row_key(app) == "email"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EditField), what="the form")
        assert "Now: grace@ex.com" in plain(app.screen.query_one("#field-before", Static))
        app.screen.query_one(Input).value = "grace@localhost"
        await pilot.press("enter")
        await until(pilot, lambda: "email must be an address" in form_said(app))
        await pilot.press("escape")
        await until(pilot, lambda: view(app) is not None, what="back")
        assert field(service, "grace.hopper", "email") == "grace@ex.com"
        # The phone: a warning first (not E.164), a second Enter sends it all the same.
        await pilot.press("j")
        assert row_key(app) == "phone"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EditField), what="the form")
        assert "Now: (none)" in plain(app.screen.query_one("#field-before", Static))
        app.screen.query_one(Input).value = "4155550100"
        await pilot.press("enter")
        await until(pilot, lambda: "not in E.164" in form_said(app))
        app.screen.query_one(Input).value = "+14155550100"
        await pilot.press("enter")
        await until(pilot, lambda: field(service, "grace.hopper", "phone") == "+14155550100")
        await until(pilot, lambda: "+14155550100" in shown_text(app), what="redrawn")
        assert "sms has no phone number" not in shown_text(app)

        await view_listing(pilot, "3", HistoryScreen, HistoryTable, 1, "the change in History")
        detail = plain(app.screen.query_one("#history-entry", Static))
        assert '"phone": null' in detail and '"phone": "+14155550100"' in detail
        await pilot.press("z")
        await until(pilot, lambda: field(service, "grace.hopper", "phone") is None)
        await pilot.press("6")
        await until(pilot, lambda: view(app) is not None and "sms has no phone" in shown_text(app))
        # (Fixed again with the service gone mid-change, the change waits in the queue
        # until it is back: tests/writes/test_subscriber_writes.py, the outbox every form
        # hands its change to.)

        # Ada's device tokens.
        await ran(pilot, ":sub ada.lovelace")
        await until(pilot, lambda: app.context.subscriber.value == "ada.lovelace", what="Ada")
        await ada_s_token_typed_unseen_and_never_shown(pilot, service, notices)


async def ada_s_token_typed_unseen_and_never_shown(
    pilot: Pilot[None], service: Service, notices: Notices
) -> None:
    """A token typed unseen from a cause's landing, removed, never shown (nor in
    History); one ending in an escape listed safe."""
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    # As a timeline whose cause is a push without tokens opens it.
    open_subscriber_view(app, app.context, "ada.lovelace", "deviceTokens:fcm")
    await until(
        pilot,
        lambda: view(app) is not None and row_key(app).startswith("cred:fcm"),
        what="Ada's view on her fcm tokens",
    )
    assert "tok-a1" not in shown_text(app) and "hooks.slack.test" not in shown_text(app)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, SecretField), what="the token form")
    assert app.screen.query_one(Input).password
    app.screen.query_one(Input).value = SENTINEL
    await pilot.press("enter")
    await until(pilot, lambda: view(app) is not None and "••••5b81" in shown_text(app))

    def tokens() -> list[str]:
        channels = field(service, "ada.lovelace", "channels")
        fcm = next(c for c in channels if c["providerId"] == "fcm")
        return list(fcm["credentials"]["deviceTokens"])

    assert tokens() == ["tok-a1", HOSTILE_TOKEN, SENTINEL]
    # One token removed (picked from the masked list; the others stay), and the
    # removal undone from History.
    await pilot.press("d")
    await until(pilot, lambda: isinstance(app.screen, TokenPicker), what="the token list")
    options = app.screen.query_one(OptionList)
    prompts = [str(options.get_option_at_index(n).prompt) for n in range(3)]
    assert SENTINEL not in prompts[2] and "5b81" in prompts[2], prompts
    assert all("\x1b" not in p for p in prompts), "the token's end made safe"
    await pilot.press("enter")
    await until(pilot, lambda: tokens() == [HOSTILE_TOKEN, SENTINEL], what="tok-a1 removed")
    # In History, the removal's entry never shows the token whole. (Its undo, restored
    # under the newest integration: tests/writes/test_subscriber_writes.py; History's `z`:
    # Grace's phone above.)
    await pilot.press("3")
    await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
    await pilot.press("g")  # the newest entry: the removal
    entry = app.screen.query_one("#history-entry", Static)
    await until(pilot, lambda: "5b81" in plain(entry), what="the removal's entry")
    assert SENTINEL not in plain(entry)
    await pilot.press("6")
    await until(pilot, lambda: view(app) is not None and "••••5b81" in shown_text(app))
    assert "credentials fcm" in shown_text(app)
    # The provider's credentials removed with `x`. (That removal undone, restored under
    # its integration and named: tests/client/test_cli_subscriber.py, the same undo.)
    await pilot.press("x")
    await until(pilot, lambda: "credentials fcm" not in shown_text(app), what="removed")
    assert SENTINEL not in " ".join(n.message for n in notices)

    # The topic she follows, its condition in words; highlighted, the sentence on a
    # subscription that filtered. (Every kind of subscription in words:
    # tests/tui/test_topics.py.)
    screen = view(app)
    assert screen is not None and screen.topics is not None
    table = screen.query_one("#subscriber-table", DataTable)
    shown = {str(k.value): " ".join(map(str, table.get_row(k))) for k in table.rows}
    assert "1 subscription · one that filtered a notification leaves no trace" in shown["topics"]
    invoices = next(k for k, words in shown.items() if "ada-invoices-eu" in words)
    assert "Invoice ready: passes only when payload.amount > 1000" in shown[invoices]
    table.move_cursor(row=list(shown).index(invoices))
    said = screen.query_one("#subscriber-row", Static)
    await until(pilot, lambda: NO_TRACE in " ".join(plain(said).split()), what="the row")
