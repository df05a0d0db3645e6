"""The message detail pane shows a full Message in full and a feed item's subset as is.

A feed item (the feed's NotificationFeedItemDto) carries a subset of the subscriber
(`_id`, names, avatar, subscriberId) and of the workflow (`_id`, tags): the pane must
show what is there and nothing it would have to invent. The subset objects here stand
in for the client's feed models; the pane reads fields by name, so any model with those
fields shows the same. What the pane shows is built by `render_message` alone (the pane
puts it in its body): checked here without the app; the older service's walk
(tests/tui/test_inbox_v2.py) shows feed items in the pane itself.
"""

from __future__ import annotations

import io

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult

from inboxdesk.client import InboxClient
from inboxdesk.tui.inbox.detail import render_message
from tests.conftest import STAGING_KEY, Service
from tests.tui.conftest import NOW


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


def drawn(body: RenderableType) -> str:
    """The body as the pane draws it, as plain text on one line."""
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(body)
    return " ".join(console.export_text().split())


async def test_full_message_then_feed_item_subset(service: Service) -> None:
    # A full Message of jane, as /v1/messages gives it.
    async with InboxClient(service.url, STAGING_KEY) as client:
        page = await client.list_messages(limit=1, channel="in_app", subscriber_id="jane")
    shown = page.data[0]
    full = drawn(render_message(shown, NOW))
    assert "email jane@example.test" in full and "Workflow: Order shipped" in full
    assert "• Wait" in full

    subset = shown.model_copy(
        update={
            "subscriber": FeedSubscriber(_id="s1", firstName="Jane", subscriberId="jane"),
            "template": FeedTemplate(_id="w1", tags=["commerce"]),
        }
    )
    feed = drawn(render_message(subset, NOW))
    assert "name Jane subscriberId jane" in feed
    assert "jane@example.test" not in feed.split("Subscriber")[1], "no invented email"
    assert "Workflow id w1 tags commerce" in feed and "• Wait" not in feed


class Counted:
    """A renderable that counts how often it is drawn."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner
        self.drawn = 0

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        self.drawn += 1
        yield self.inner


async def test_a_body_is_drawn_once_and_as_textual_draws_it(service: Service) -> None:
    """The pane's body is drawn once per message shown (Textual draws a Rich renderable
    once for its height and again to show it: each cursor move paid twice), and its
    lines are those Textual's own drawing makes."""
    from textual.app import App, ComposeResult
    from textual.visual import RichVisual
    from textual.widgets import Static

    from inboxdesk.tui.widgets.drawn_once import DrawnOnce

    async with InboxClient(service.url, STAGING_KEY) as client:
        page = await client.list_messages(limit=1, channel="in_app", subscriber_id="jane")
    body = Counted(render_message(page.data[0], NOW))

    class Pane(App[None]):
        def compose(self) -> ComposeResult:
            yield Static(id="body")

    app = Pane()
    async with app.run_test(size=(60, 40)) as pilot:
        static = app.query_one("#body", Static)
        static.update(DrawnOnce(static, body))
        await pilot.pause()
        assert static.size.height > 20 and body.drawn == 1, "measured and shown from one draw"
        width, style = static.size.width, static.visual_style
        ours = static.visual.render_strips(width, None, style, None)  # type: ignore[arg-type]
        textual = RichVisual(static, body.inner).render_strips(width, None, style, None)  # type: ignore[arg-type]
        assert ours == textual and len(ours) == static.size.height


async def test_a_message_shown_again_takes_the_lines_it_was_drawn_with(service: Service) -> None:
    """The cursor back on a message, or a new copy of it that shows the same: the pane's
    body takes the lines it was drawn with (not drawn again), which are Textual's own
    drawing of it; a body that shows anything else, a relative time included, is drawn."""
    from datetime import timedelta

    from textual.app import App, ComposeResult
    from textual.visual import RichVisual
    from textual.widgets import Static

    from inboxdesk.tui.inbox.detail import MessageDetail
    from inboxdesk.tui.widgets.fields import content_key

    async with InboxClient(service.url, STAGING_KEY) as client:
        page = await client.list_messages(limit=2, channel="in_app", subscriber_id="jane")
    first, second = page.data
    assert content_key(render_message(first, NOW)) == content_key(render_message(first, NOW))
    later = NOW + timedelta(days=30)  # every "… ago" it shows changes
    assert content_key(render_message(first, NOW)) != content_key(render_message(first, later))
    assert content_key(render_message(first, NOW)) != content_key(render_message(second, NOW))

    class Pane(App[None]):
        def compose(self) -> ComposeResult:
            yield MessageDetail(first, NOW, id="detail")

    app = Pane()
    async with app.run_test(size=(70, 40)) as pilot:
        pane = app.query_one(MessageDetail)
        body = pane.query_one("#message-body", Static)
        await pilot.pause()

        def lines() -> list[object]:
            width, style = body.size.width, body.visual_style
            return body.visual.render_strips(width, None, style, None)  # type: ignore[arg-type,union-attr]

        drawn = lines()
        pane.show(second, NOW)
        await pilot.pause()
        assert lines() != drawn
        pane.show(first.model_copy(), NOW)
        await pilot.pause()
        again = lines()
        assert all(a is b for a, b in zip(again, drawn, strict=True)), "drawn again"
        width, style = body.size.width, body.visual_style
        renderable = body.visual.renderable  # type: ignore[union-attr]
        assert again == RichVisual(body, renderable).render_strips(width, None, style, None)  # type: ignore[arg-type]
        pane.show(first.model_copy(), later)
        await pilot.pause()
        assert lines() != drawn, "another relative time: drawn"


def test_the_same_json_is_drawn_once_per_width_as_rich_draws_it() -> None:
    """A pane shows the same JSON again (the cursor back on a message, a mark's new copy
    of it): its lines are those of its first drawing at that width, and they are Rich's
    own `Syntax`'s, at every width."""
    from rich.measure import Measurement
    from rich.syntax import Syntax

    from inboxdesk.text import safe_json
    from inboxdesk.tui.widgets.fields import json_block

    payload = {"order": {"id": "A-17", "items": ["lamp", "desk"] * 4, "note": "fragile " * 12}}
    console = Console(width=60, file=io.StringIO())

    def lines(renderable: RenderableType, width: int) -> list[object]:
        return list(console.render(renderable, console.options.update_width(width)))

    def rich(width: int) -> list[object]:
        syntax = Syntax(
            safe_json(payload, indent=2), "json", word_wrap=True, background_color="default"
        )
        return lines(syntax, width)

    first = lines(json_block(payload), 60)
    again = lines(json_block(dict(payload)), 60)  # another message's payload, alike
    assert first == rich(60) and again == first
    assert all(a is b for a, b in zip(first, again, strict=True)), "highlighted again"
    narrow = lines(json_block(payload), 30)
    assert narrow == rich(30) and len(narrow) > len(first)
    syntax = Syntax(safe_json(payload, indent=2), "json")
    assert Measurement.get(console, console.options, json_block(payload)) == Measurement.get(
        console, console.options, syntax
    )


def test_a_v2_notification_carrying_data_nested_190_deep_is_drawn() -> None:
    """The v2 pane draws data nested as deep as a service may send it (the older
    service's walk opens such a message in the app: tests/tui/test_inbox_v2.py)."""
    from inboxdesk.models.inbox import InboxNotification
    from inboxdesk.tui.inbox.notification import render_notification
    from tests.hostile import DEEP_DATA

    item = InboxNotification.model_validate({"id": "n1", "data": DEEP_DATA})
    shown = drawn(render_notification(item, NOW))
    assert '"next"' in shown and "more characters not shown" in shown  # cut, said
