"""Finding in the app: go to a message (ctrl+g), the filter as you type, the true end of
a long inbox (G) and the search of every page, the picker's unknown subscriberId, and
range select (J/K). Where a found message lands, and the go-to's search of a tab's
listing, are checked fast in tests/core/test_inbox_listing.py."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from textual import events
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, Tabs

from inboxdesk.server.fixtures import read_fixture
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.search import SearchScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.messages import OpenSubscriber
from inboxdesk.tui.screens.goto import GoToScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from tests.client.faults import FaultTransport
from tests.conftest import EXAMPLE, JOE_MESSAGES, Service, ServiceFactory, jane_message
from tests.core.inbox_fixture import CappingTransport, inbox_requests
from tests.tui.conftest import SIZE, Notices, app_for, detail_text, plain, settled, until
from tests.tui.test_inbox import opened, shown_ids

EMAIL = "65f000000000000000000200"  # jane's one email message: no inbox list shows it
MANY = 450  # five pages of the app's list
KEY_NAMES = {" ": "space", "#": "number_sign", "-": "minus"}


def long_inbox() -> dict[str, Any]:
    """The example with ada, whose MANY messages are numbered newest first."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    staging = fixture["environments"][0]
    staging["subscribers"].append({"subscriberId": "ada", "firstName": "Ada"})
    start = datetime(2026, 11, 1, tzinfo=UTC)
    staging["messages"] += [
        {
            "_id": f"66b{n:021x}",
            "subscriberId": "ada",
            "workflow": "Order shipped",
            "createdAt": (start - timedelta(minutes=n)).isoformat().replace("+00:00", "Z"),
            "title": "Needle in a haystack" if n in (7, 250) else f"Hay {n}",
            "transactionId": f"hay-{n}",
        }
        for n in range(MANY)
    ]
    return fixture


def listed(picker: SubscriberPicker) -> str:
    options = picker.query_one(OptionList)
    return "\n".join(
        str(options.get_option_at_index(n).prompt) for n in range(options.option_count)
    )


def said(screen: object, selector: str) -> str:
    from textual.screen import Screen

    assert isinstance(screen, Screen)
    return plain(screen.query_one(selector, Static))


async def go_to(pilot: Pilot[None], key: str) -> GoToScreen:
    await pilot.press("ctrl+g")
    await until(pilot, lambda: isinstance(pilot.app.screen, GoToScreen), what="the prompt")
    prompt = pilot.app.screen
    assert isinstance(prompt, GoToScreen)
    field = prompt.query_one(Input)
    await until(pilot, lambda: field.has_focus, what="the prompt's focus")
    # The focused field takes the text (typing an id key by key adds nothing but time).
    field.value = key
    await pilot.press("enter")
    return prompt


async def jane_walk(
    pilot: Pilot[None], screen: InboxScreen, service: Service, notices: Notices
) -> None:
    """Range select (J/K); the filter as you type, every key kept; the picker's unknown
    subscriberId. Then go to a message by any id it has: a miss is said and kept to
    correct; a message no list holds is shown alone; a transactionId opens the tab that
    lists it; another subscriber's id, their inbox."""
    app = pilot.app
    table = screen.query_one(MessageTable)
    # J and K: the highlighted message and its neighbour join the selection.
    await pilot.press("j", "J", "J")
    assert screen.selected == {jane_message(n) for n in (10, 9, 8)}
    assert table.cursor_row == 3
    await pilot.press("j", "j", "K")
    assert screen.selected == {jane_message(n) for n in (10, 9, 8, 7, 6)}
    assert table.cursor_row == 4
    await pilot.press("escape")
    assert not screen.selected
    # The filter applies as you type.
    await pilot.press("slash", *"#1005")
    await until(pilot, lambda: shown_ids(table) == [jane_message(5)], what="as typed")
    box = screen.query_one("#text-filter", Input)
    assert box.has_focus  # still typing
    await pilot.press("backspace")
    await until(pilot, lambda: table.row_count == 10)  # "#100": #1000 … #1009
    await pilot.press("backspace", "backspace")
    await until(pilot, lambda: table.row_count == 12)
    await pilot.press("escape")
    assert not screen.text
    # Keys come faster than the screen handles the box's changes (a paste, a busy
    # machine): every queued key reaches the box before the first change is handled,
    # and the box keeps them all, in order, and the list is filtered by all of them.
    await pilot.press("slash")
    await until(pilot, lambda: box.has_focus, what="the box's focus")
    # A long phrase, then a short one from a box just emptied (a first short one
    # from an empty box checked nothing more).
    for phrase in ("INV-1225 shipped via dhl", "#1005"):
        box.value = ""
        await until(pilot, lambda: not screen.text, what="an empty box")
        for char in phrase:
            app.post_message(events.Key(KEY_NAMES.get(char, char), char))
            await asyncio.sleep(0)  # the loop turns once between keys: a paste's pace
        await until(pilot, lambda p=phrase: box.value == p, what="every key in the box")
        await settled(pilot)
        assert box.value == phrase and screen.text == phrase
    assert shown_ids(table) == [jane_message(5)]
    await pilot.press("escape")
    await until(pilot, lambda: not screen.text and table.row_count == 12)
    # The picker lists the names it loads, not the app's older ones: jane renamed
    # since the app read its subscribers. Then it says an unknown subscriberId, and
    # the inbox stays as it was.
    with service.http() as http:
        renamed = http.patch("/v2/subscribers/jane", json={"firstName": "Janet"})
        assert renamed.status_code == 200, renamed.text
    await pilot.press("p")
    await until(pilot, lambda: isinstance(app.screen, SubscriberPicker), what="the picker")
    picker = app.screen
    await until(pilot, lambda: isinstance(picker.focused, Input), what="picker focus")
    await until(
        pilot,
        lambda: "Janet" in listed(picker) and "Jane " not in listed(picker),
        what="the picker to list jane's new name",
    )
    # The focused field takes the id at once (typing it key by key adds nothing but time).
    picker.query_one(Input).value = "ghost"
    await pilot.press("enter")
    await until(
        pilot,
        lambda: (
            "Subscriber 'ghost' was not found in this environment." in said(picker, "#picker-said")
        ),
        what="the picker to say so",
    )
    assert app.screen is picker
    await pilot.press("escape")
    await settled(pilot)
    assert screen.subscriber_id == "jane" and screen.table.row_count == 12
    assert "loading" not in said(screen, "#status") and not notices.saying("said no")

    # Go to a message (ctrl+g) by any id it has.
    prompt = await go_to(pilot, "no-such-[b]thing")
    await until(
        pilot,
        lambda: "No message or notification has" in said(prompt, "#goto-said"),
        what="miss",
    )
    assert "no-such-[b]thing" in said(prompt, "#goto-said")  # not read as markup
    assert prompt.query_one(Input).value == "no-such-[b]thing"  # kept, to correct
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is screen, what="the inbox again")
    await go_to(pilot, EMAIL)
    await until(pilot, lambda: app.screen is screen, what="the prompt to close")
    await until(pilot, lambda: EMAIL in detail_text(screen), what="the email alone")
    assert screen.subscriber_id == "jane" and notices.saying("detail pane")
    await pilot.press("f")  # Unread: txn-3 is read, so it opens on All
    await until(pilot, lambda: table.row_count == 8 and screen.feed.exact)
    await go_to(pilot, "txn-3")
    await until(pilot, lambda: table.cursor_key == jane_message(3), what="the anchor")
    assert screen.query_one(Tabs).active == "all" and table.cursor_row == 8
    assert "Order #1003" in detail_text(screen)
    # An id of joe's: his inbox opens, at the message.
    await go_to(pilot, JOE_MESSAGES[1])
    await until(
        pilot,
        lambda: screen.subscriber_id == "joe" and table.cursor_key == JOE_MESSAGES[1],
        what="joe's message",
    )
    assert table.cursor_row == 1


@dataclass
class PageHeld(FaultTransport):
    """While `holding`, a request for the inbox's third page waits for `go`."""

    holding: bool = False
    go: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.holding and "offset=200" in str(request.url) and "limit=100" in str(request.url):
            await self.go.wait()
        return await super().handle_async_request(request)


@pytest.mark.slow
async def test_a_long_inbox_g_goes_to_the_true_end_and_enter_searches_every_page_then_janes(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """Ada's MANY messages: the v2 inbox gives no total (the local service neither).

    The search for the end starts by itself with the first page; a failed probe is
    quiet; `G` then searches again, waits for it (the list says `100+` meanwhile), goes
    to the end, and fetched only the pages shown. Then the search of every page finds
    what the loaded rows lack; the match opens at its row, never said to be in no list
    while its page is on the way (another page coming first); the box always says the
    filter applied. Another subscriber opened clears the filter; then, in jane's inbox
    (the example's, beside ada), `jane_walk`: one app for both, the one story of
    finding (a start of its own cost a tenth of the two walks)."""
    transport = PageHeld()
    capping = CappingTransport(transport.inner, lambda body: body)
    transport.inner = capping
    capping.fail = 1
    size = MANY
    service = make_service(fixture=long_inbox())
    app = app_for(service, subscriber="ada", transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot, rows=50)
        table = screen.query_one(MessageTable)
        status = screen.query_one("#status", Static)
        await until(pilot, lambda: capping.fail == 0, what="the failed probe")
        await settled(pilot)
        assert not screen.feed.exact and not notices, notices
        assert "100+ messages" in plain(status)
        capping.hold = asyncio.Event()
        await pilot.press("G")
        await until(pilot, lambda: table.cursor_row == 100, what="the last row known")
        capping.hold.set()
        await until(pilot, lambda: table.cursor_row == size - 1)
        await until(pilot, lambda: table.cursor_key is not None, what="last page")
        assert f"{size:,} messages" in plain(status)
        offsets = [r.url.params["offset"] for r in inbox_requests(transport.seen, "100")]
        # The first page, the one row 100 (where `G` waited) is on, and the last one.
        last_page = str((size - 1) // 100 * 100)
        assert sorted(offsets, key=int) == ["0", "100", last_page], "only the pages shown"
        await settled(pilot)
        before = len(transport.seen)
        await pilot.press("g", "G")
        await until(pilot, lambda: table.cursor_row == size - 1)
        await settled(pilot)
        assert not inbox_requests(transport.seen[before:], "100"), "G fetched a page it had"

        # Enter in the text filter: the search of every page.
        assert not screen.query("#text-filter"), "the box is made by the first /"
        assert screen.feed.exact and screen.feed.missing(250, 251) == [2], "page 2 unread"
        # The focused box takes the text at once (typed key by key: the walk above).
        await pilot.press("slash")
        box = screen.query_one("#text-filter", Input)
        await until(pilot, lambda: box.has_focus, what="the box's focus")
        box.value = "needle"
        await until(pilot, lambda: table.row_count == 1, what="the loaded match")
        await pilot.press("enter")  # Enter: every page, not all loaded
        await until(pilot, lambda: isinstance(app.screen, SearchScreen), what="the search")
        search = app.screen
        assert isinstance(search, SearchScreen)
        await until(pilot, lambda: "done" in said(search, "#search-said"), what="every page")
        assert "searched 5 of 5 pages · 2 found" in said(search, "#search-said")
        found = search.query_one(OptionList)
        assert found.option_count == 2 and found.has_focus
        await pilot.press("j")  # j moves as down does
        assert found.highlighted == 1
        await pilot.press("k", "j")
        transport.holding = True
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, what="back in the inbox")
        await until(pilot, lambda: screen.feed.missing(250, 251) == [2], what="its page asked")
        table.move_to(350)  # another page is asked for, and comes first
        await until(pilot, lambda: 3 in screen.feed.pages, what="the other page")
        await pilot.pause()
        assert not notices.saying("no list here shows it")
        transport.go.set()
        await until(pilot, lambda: table.cursor_key == f"66b{250:021x}", what="the far match")
        assert table.cursor_row == 250
        assert not screen.text and box.value == "", "the list is unfiltered: so is the box"
        await settled(pilot)
        # Shown in its list: never said to be in none while its page was on the way.
        assert not notices.saying("no list here shows it")
        await pilot.press("slash")
        await until(pilot, lambda: box.has_focus, what="the box's focus")
        box.value = "needle"
        await until(pilot, lambda: screen.text == "needle", what="filtered")
        await pilot.press("escape")
        await until(pilot, lambda: not screen.text, what="cleared")
        assert box.value == ""
        await pilot.press("slash")
        await until(pilot, lambda: box.has_focus, what="the box's focus")
        box.value = "needle"
        await until(pilot, lambda: screen.text == "needle", what="filtered")
        screen.post_message(OpenSubscriber("jane"))  # as the picker does
        await until(pilot, lambda: screen.subscriber_id == "jane", what="another subscriber")
        assert not screen.text and box.value == ""
        await until(
            pilot,
            lambda: (
                table.row_count == 12
                and table.cursor_key == jane_message(11)
                and screen.counts is not None
                and screen.subscriber is not None
                and "Order #1011" in detail_text(screen)
            ),
            what="jane's inbox, its header and detail",
        )
        await jane_walk(pilot, screen, service, notices)


@dataclass
class HeldSearch(FaultTransport):
    """The subscriber search's answer, once armed, held until released."""

    armed: bool = False
    release: asyncio.Event = field(default_factory=asyncio.Event)
    held: int = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        if self.armed and request.url.path == "/v2/subscribers":
            self.held += 1
            await response.aread()
            await self.release.wait()  # the answer ready, given when released
        return response


async def test_a_picker_closed_while_its_list_loads_takes_the_answer_quietly(
    service: Service, notices: Notices
) -> None:
    """The picker is closed (escape) before the service lists the subscribers: the
    list that comes after changes nothing and the app goes on, the inbox as it was.
    (It had ended the app with a worker's error whenever the answer came as the
    picker's widgets were being removed.)"""
    transport = HeldSearch()
    app = app_for(service, transport=transport)

    pickers: list[SubscriberPicker] = []

    def hook(message: Message) -> None:
        # The answer comes as the picker's widgets are removed, before the picker is.
        if pickers and isinstance(message, events.Unmount):
            transport.release.set()
        notices.hook(message)

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        screen = await opened(pilot)
        await settled(pilot)  # the app's own list of subscribers read
        transport.armed = True
        await pilot.press("p")
        await until(pilot, lambda: transport.held == 1, what="the search asked")
        assert isinstance(app.screen, SubscriberPicker)
        pickers.append(app.screen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, what="the picker closed")
        await until(pilot, transport.release.is_set, what="the answer let go")
        await settled(pilot)
        assert app.is_running and app.screen is screen
        assert screen.subscriber_id == "jane" and screen.table.row_count == 12
        assert not [n for n in notices if n.severity == "error"], notices
