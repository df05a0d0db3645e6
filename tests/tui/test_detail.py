"""The message detail pane shows a full Message in full and a feed item's subset as is.

A feed item (the feed's NotificationFeedItemDto) carries a subset of the subscriber
(`_id`, names, avatar, subscriberId) and of the workflow (`_id`, tags): the pane must
show what is there and nothing it would have to invent. The subset objects here stand
in for the client's feed models; the pane reads fields by name, so any model with those
fields shows the same.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from inboxdesk.tui.inbox.detail import MessageDetail
from tests.conftest import Service
from tests.tui.conftest import NOW, SIZE, app_for, plain, until
from tests.tui.test_inbox import opened


class FeedSubscriber(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    id: str = Field(alias="_id")
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    avatar: str | None = None
    subscriber_id: str = Field(alias="subscriberId")


class FeedTemplate(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    id: str = Field(alias="_id")
    tags: list[str] = []


async def test_full_message_then_feed_item_subset(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await until(pilot, lambda: bool(screen.query("#message-body")), what="detail pane")
        pane = screen.query_one(MessageDetail)
        # A full Message of the same subscriber, as /v1/messages gives it.
        page = await app.client.list_messages(limit=1, channel="in_app", subscriber_id="jane")
        shown = page.data[0]
        pane.show(shown, NOW)
        await pilot.pause()
        full = " ".join(plain(screen.query_one("#message-body")).split())
        assert "email jane@example.test" in full and "Workflow: Order shipped" in full
        assert "• Wait" in full

        subset = shown.model_copy(
            update={
                "subscriber": FeedSubscriber(_id="s1", firstName="Jane", subscriberId="jane"),
                "template": FeedTemplate(_id="w1", tags=["commerce"]),
            }
        )
        pane.show(subset, NOW)
        await pilot.pause()
        feed = " ".join(plain(screen.query_one("#message-body")).split())
        assert "name Jane subscriberId jane" in feed
        assert "jane@example.test" not in feed.split("Subscriber")[1], "no invented email"
        assert "Workflow id w1 tags commerce" in feed and "• Wait" not in feed
