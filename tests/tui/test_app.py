"""Start-up problems, a service that goes away and comes back, help, keymap, palette, theme."""

from __future__ import annotations

import asyncio
import gc
from dataclasses import dataclass, field

import httpx
import pytest
from textual.widgets import Input, Static

from inboxdesk.config import Settings
from inboxdesk.core.inbox.feed import PAGE_SIZE
from inboxdesk.server.runner import ServiceThread
from inboxdesk.tui.app import make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.keymap import app_bindings, binding_ids
from inboxdesk.tui.screens.help import HelpScreen
from inboxdesk.tui.screens.picker import SubscriberPicker
from inboxdesk.tui.screens.problem import ProblemScreen
from tests.client.faults import FaultTransport
from tests.conftest import Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, plain, settled, until
from tests.tui.test_help_and_palette import footer_keys
from tests.tui.test_inbox import mark_posts, opened, stored


async def test_invalid_key_at_start_shows_what_to_do(service: Service) -> None:
    """The problem screen says what to do, its footer its keys; with no rows ever to
    come, collection comes back at the settle deadline."""
    app = app_for(service, key="wrong-key-0123456789abcdef")
    app.settle_seconds = 0.3
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ProblemScreen) and bool(app.screen.query("#problem-title"))
            ),
            what="problem screen",
        )
        title = plain(app.screen.query_one("#problem-title", Static))
        hint = plain(app.screen.query_one("#problem-hint", Static))
        assert "rejected the API key" in title and "NOVU_SECRET_KEY" in hint
        assert "wrong-key" not in plain(app.screen.query_one("#problem-message", Static))
        # The footer composes once the bindings are ready, even when they never change.
        await until(pilot, lambda: bool(footer_keys(app.screen)), what="the problem's footer")
        assert ("r", "Retry") in footer_keys(app.screen)
        await until(pilot, gc.isenabled, what="collection back at the deadline")


async def test_no_key_shows_how_to_set_one() -> None:
    app = make_app(Settings(base_url="http://127.0.0.1:9"))
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ProblemScreen) and bool(app.screen.query("#problem-title"))
            ),
        )
        assert "inboxdesk config init" in plain(app.screen.query_one("#problem-message", Static))
        await pilot.press("q")
    assert app.return_code == 2, "quitting without a key is a settings problem"


async def test_quitting_an_unreachable_service_exits_1_and_the_hint_names_the_port() -> None:
    app = make_app(Settings(base_url="http://127.0.0.1:9", api_key="k" * 32))
    app.probe_seconds = 0.2
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ProblemScreen) and bool(app.screen.query("#problem-hint"))
            ),
            what="the problem",
        )
        assert "inboxdesk serve --demo --port 9" in plain(app.screen.query_one("#problem-hint"))
        await pilot.press("q")
    assert app.return_code == 1


@pytest.mark.own_service
async def test_unreachable_at_start_then_retry_connects(service: Service) -> None:
    port = service.thread.port
    service.thread.stop()
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ProblemScreen) and bool(app.screen.query("#problem-title"))
            ),
        )
        assert "unreachable" in plain(app.screen.query_one("#problem-title", Static))
        restarted = ServiceThread(service.thread.settings, service.store, port=port).start()
        try:
            await pilot.press("r")
            await opened(pilot)
        finally:
            restarted.stop()


@pytest.mark.slow
@pytest.mark.own_service
async def test_service_dies_mid_session_and_the_app_recovers(
    service: Service, notices: Notices
) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        port = service.thread.port
        service.thread.stop()
        await pilot.press("r")
        await until(pilot, lambda: app.offline, what="offline")
        assert [n.title for n in notices].count("Service unreachable") == 1
        await until(pilot, lambda: "unreachable" in plain(screen.query_one("#status", Static)))
        assert stored(service, jane_message(11)) == (False, False), "nothing applied"
        restarted = ServiceThread(service.thread.settings, service.store, port=port).start()
        try:
            await until(pilot, lambda: not app.offline, timeout=10, what="back online")
            await until(pilot, lambda: screen.query_one(MessageTable).row_count == 12)
            # The queued mark went out by itself once the service was back.
            await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        finally:
            restarted.stop()


async def test_the_inbox_opens_as_the_settings_say_with_help_keymap_and_picker(
    service: Service, transport: FaultTransport, notices: Notices
) -> None:
    """One walk: the inbox opens with the first page the app asked for (asked once), in
    the settings' theme; help lists every key with its binding id; the config's keymap
    remaps keys (an unknown binding id is said); the picker opens another inbox by a
    typed id."""
    app = app_for(
        service,
        transport=transport,
        theme="nord",
        keymap={"inbox.mark_read": "x", "no.such.binding": "y"},
    )
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await settled(pilot)
        assert len(first_pages(transport)) == 1, "asked for once, before the inbox opened"
        assert app.theme == "nord"
        assert notices.saying("no.such.binding")

        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = " ".join(plain(w) for w in app.screen.query(Static))
        for binding_id in ("inbox.mark_read", "inbox.mark_unseen", "inbox.undo", "app.help"):
            assert binding_id in text
        assert "(not available now)" in text, "undo is listed as unavailable"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, InboxScreen))

        # Keys are handled in order: once x's mark is done, r's would have been sent.
        await pilot.press("r", "x")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: notices.saying("Marked 1 message read."))
        assert len(mark_posts(transport)) == 1, "r no longer marks read"

        await pilot.press("p")
        await until(
            pilot,
            lambda: isinstance(app.screen, SubscriberPicker) and bool(app.screen.query(Input)),
            what="picker",
        )
        await until(pilot, lambda: isinstance(app.screen.focused, Input), what="picker focus")
        await pilot.press(*"joe", "enter")
        await until(
            pilot,
            lambda: screen.subscriber_id == "joe" and screen.query_one(MessageTable).row_count == 3,
        )


def test_every_binding_has_an_id_and_ids_are_unique() -> None:
    from inboxdesk.tui.inbox.screen import InboxScreen as Inbox
    from inboxdesk.tui.inbox.table import MessageTable as List
    from inboxdesk.tui.list_keys import LIST_BINDINGS

    bindings = app_bindings()  # found by walking the package, not from a copied list
    assert all(b.id for b in bindings)
    assert len({b.id for b in bindings}) == len(bindings) == len(binding_ids())
    found = {id(b) for b in bindings}
    assert all(id(b) in found for b in [*LIST_BINDINGS, *Inbox.BINDINGS, *List.BINDINGS])


def first_pages(transport: FaultTransport) -> list[httpx.Request]:
    """The requests for the first page of the v2 inbox's list."""
    return [
        r
        for r in transport.seen
        if r.url.path == "/v2/subscribers/jane/notifications"
        and r.url.params.get("offset", "0") == "0"
        and r.url.params.get("limit") == str(PAGE_SIZE)
    ]


@dataclass
class Held(FaultTransport):
    """Requests to `held` (the v2 inbox's list) wait until `go` is set: a service slower
    than the app waits."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    held: str = "/jane/notifications"

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith(self.held):
            await self.go.wait()
        return await super().handle_async_request(request)


async def test_a_slow_first_page_opens_the_inbox_loading_with_no_collection_until_rows(
    service: Service,
) -> None:
    """The app waits a moment for the first page, then opens the inbox without it,
    loading; the page asked for is awaited, not asked again; no collection runs until
    the first rows show."""
    assert gc.isenabled()
    transport = Held()
    app = app_for(service, transport=transport)
    app.settle_seconds = 60  # only the rows can end the pause here
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
        assert not gc.isenabled(), "start-up builds objects that live on: no pass over them"
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        await until(pilot, lambda: "loading" in plain(screen.query_one("#status", Static)))
        assert screen.table.row_count == 0
        transport.go.set()
        await opened(pilot)
        await until(pilot, gc.isenabled, what="collection back once the rows show")
        await settled(pilot)
        assert len(first_pages(transport)) == 1, "the page asked for was awaited, not asked again"
    assert gc.isenabled()


async def test_an_app_that_ends_before_its_first_rows_leaves_collection_on(
    service: Service,
) -> None:
    app = app_for(service, transport=Held())
    app.settle_seconds = 60
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
        await until(pilot, lambda: "loading" in plain(app.screen.query_one("#status", Static)))
        assert not gc.isenabled()
    assert gc.isenabled(), "the app's end gives the collector back"
