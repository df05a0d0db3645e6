"""Topics in the app (decision 124), on the real service, without booting the app: what
the Subscriber view lists of Ada's subscriptions (their conditions in words, a
subscription that filtered leaves no trace), and what the timeline of the deploy that
came through a topic says (the topic, the subscription and its condition). That the
Subscriber view lists a topic: its walk (tests/tui/test_subscriber_view.py); that the
demo holds these stories: the demo's walk of Ada's stories (tests/tui/test_activity.py),
whose timelines draw their lines."""

from __future__ import annotations

import asyncio

from inboxdesk.client import InboxClient
from inboxdesk.client.activity import ActivityFilter
from inboxdesk.core.delivery.topics import NO_TRACE
from inboxdesk.tui.activity.timeline import lines, plain
from inboxdesk.tui.subscriber.topics import Subscriptions, read_subscriptions
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.topic_fixture import topic_fixture

ADA = "ada.lovelace"


def test_ada_s_subscriptions_and_the_deploy_s_timeline_name_topics(
    make_service: ServiceFactory,
) -> None:
    fixture = topic_fixture()
    # The service's text: markup and a control character shown as the text they are.
    fixture["environments"][0]["topics"][2]["name"] = "Status [b]page[/b]\x1b[2J"
    service = make_service(fixture)

    async def read() -> tuple[Subscriptions, list[str]]:
        async with InboxClient(service.url, STAGING_KEY) as client:
            subscriptions = await read_subscriptions(client, ADA)
            page = await client.activity(ActivityFilter(subscriber_ids=[ADA]), limit=50)
            deploy = next(n for n in page.data if n.workflow_name == "Deploy finished")
            return subscriptions, [plain(line) for line in lines(deploy)]

    subscriptions, timeline = asyncio.run(read())
    rows = subscriptions.rows()
    text = "\n".join(f"{label} {words}" for _, label, words in rows)
    assert "4 subscriptions · one that filtered a notification leaves no trace" in text
    assert 'Deploy finished: passes only when payload.project is "Atlas"' in text
    assert "Invoice ready: passes only when payload.amount > 1000" in text
    assert "Invoice ready: never passes (turned off)" in text
    assert "(no identifier) · every workflow passes: without an identifier" in text
    assert "Status [b]page[/b]" in text and "\x1b" not in text
    # The invoices subscription, highlighted: the whole of it, and the sentence.
    said = subscriptions.said("topic:0")
    assert "invoices-eu (EU invoices)" in said
    assert "subscription ada-invoices-eu (no context)" in said
    assert "passes only when payload.amount > 1000" in said and NO_TRACE in said

    assert (
        "topic  came through topic deploys; subscription ada-deploys let it through "
        '(condition: payload.project is "Atlas")'
    ) in "\n".join(timeline)
