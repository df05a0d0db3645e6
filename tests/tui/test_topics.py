"""Topics in the app (decision 124), on the real service: the Subscriber view lists Ada's
subscriptions with their conditions in words and says a subscription that filtered
leaves no trace; the timeline of the deploy that came through a topic names the topic,
the subscription and its condition."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from inboxdesk.core.delivery.topics import NO_TRACE
from inboxdesk.tui.activity.timeline import TimelineView
from inboxdesk.tui.subscriber.screen import SubscriberScreen
from tests.conftest import ServiceFactory
from tests.topic_fixture import topic_fixture
from tests.tui.conftest import SIZE, app_for, first_timeline, plain, until

ADA = "ada.lovelace"


def table_text(screen: SubscriberScreen) -> str:
    table = screen.query_one("#subscriber-table", DataTable)
    return "\n".join(" ".join(str(c) for c in table.get_row_at(n)) for n in range(table.row_count))


async def test_the_subscriber_view_and_the_timeline_name_topics_and_subscriptions(
    make_service: ServiceFactory,
) -> None:
    """The Subscriber view lists Ada's subscriptions and their conditions; a
    notification's timeline names the topic and the subscription it came through."""
    fixture = topic_fixture()
    # The service's text: markup and a control character shown as the text they are.
    fixture["environments"][0]["topics"][2]["name"] = "Status [b]page[/b]\x1b[2J"
    service = make_service(fixture)
    app = app_for(service, subscriber=ADA)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("i")
        await until(
            pilot,
            lambda: isinstance(app.screen, SubscriberScreen) and app.screen.topics is not None,
            what="the subscriber and the topics Ada follows",
        )
        screen = app.screen
        assert isinstance(screen, SubscriberScreen)
        text = table_text(screen)
        assert "4 subscriptions · one that filtered a notification leaves no trace" in text
        assert 'Deploy finished: passes only when payload.project is "Atlas"' in text
        assert "Invoice ready: passes only when payload.amount > 1000" in text
        assert "Invoice ready: never passes (turned off)" in text
        assert "(no identifier) · every workflow passes: without an identifier" in text
        assert "Status [b]page[/b]" in text and "\x1b" not in text
        # The invoices subscription, highlighted: the whole of it, and the sentence.
        table = screen.query_one("#subscriber-table", DataTable)
        keys = [str(k.value) for k in table.rows]
        table.move_cursor(row=keys.index("topic:0"))
        said = screen.query_one("#subscriber-row", Static)
        await until(pilot, lambda: "invoices-eu (EU invoices)" in plain(said), what="the row")
        words = " ".join(plain(said).split())  # drawn wrapped
        assert "subscription ada-invoices-eu (no context)" in words
        assert "passes only when payload.amount > 1000" in words and NO_TRACE in words

        # The timeline of the deploy names the topic and the subscription.
        await pilot.press("1")
        await first_timeline(pilot, "the deploy in Activity")
        text = app.screen.query_one(TimelineView).text
        assert (
            "topic  came through topic deploys; subscription ada-deploys let it through "
            '(condition: payload.project is "Atlas")'
        ) in text
