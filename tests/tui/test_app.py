"""Start-up problems, a slow first page, ending while the inbox opens, the keymap's ids.
(A service away at start and mid-session: the outage walk of tests/tui/test_inbox.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from dataclasses import dataclass, field

import httpx
import pytest
from textual.app import ScreenStackError
from textual.widgets import Static

from inboxdesk.config import Settings
from inboxdesk.tui.app import make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.keymap import app_bindings, binding_ids
from tests.client.faults import FaultTransport
from tests.conftest import Service
from tests.tui.conftest import SIZE, app_for, plain, problem_shown, settled, until
from tests.tui.test_help_and_palette import first_pages, footer_keys
from tests.tui.test_inbox import opened


async def test_invalid_key_at_start_shows_what_to_do(service: Service) -> None:
    """The problem screen says what to do, its footer its keys; with no rows ever to
    come, collection comes back at the settle deadline."""
    app = app_for(service, key="wrong-key-0123456789abcdef")
    app.settle_seconds = 0.3
    async with app.run_test(size=SIZE) as pilot:
        await problem_shown(pilot)
        title = plain(app.screen.query_one("#problem-title", Static))
        hint = plain(app.screen.query_one("#problem-hint", Static))
        assert "rejected the API key" in title and "NOVU_SECRET_KEY" in hint
        assert "wrong-key" not in plain(app.screen.query_one("#problem-message", Static))
        # The footer shows its keys once the bindings are ready, even when they never change.
        await until(pilot, lambda: len(footer_keys(app.screen)) > 1, what="the problem's footer")
        assert ("r", "Retry") in footer_keys(app.screen)
        await until(pilot, gc.isenabled, what="collection back at the deadline")


async def test_quitting_an_unreachable_service_exits_1_and_the_hint_names_the_port() -> None:
    """Quit before any rows came: the exit code says the service, and the app's end
    gives the collector back (paused until the first rows, or the deadline)."""
    assert gc.isenabled()
    app = make_app(Settings(base_url="http://127.0.0.1:9", api_key="k" * 32))
    app.probe_seconds = 0.2
    app.settle_seconds = 60  # only the app's end can end the pause here
    async with app.run_test(size=SIZE) as pilot:
        await problem_shown(pilot)
        assert "inboxdesk serve --demo --port 9" in plain(app.screen.query_one("#problem-hint"))
        assert not gc.isenabled(), "no collection before the first rows"
        await pilot.press("q")
    assert app.return_code == 1
    assert gc.isenabled(), "the app's end gives the collector back"


def test_every_binding_has_an_id_and_ids_are_unique() -> None:
    from inboxdesk.tui.inbox.screen import InboxScreen as Inbox
    from inboxdesk.tui.inbox.table import MessageTable as List
    from inboxdesk.tui.list_keys import LIST_BINDINGS

    bindings = app_bindings()  # found by walking the package, not from a copied list
    assert all(b.id for b in bindings)
    assert len({b.id for b in bindings}) == len(bindings) == len(binding_ids())
    found = {id(b) for b in bindings}
    assert all(id(b) in found for b in [*LIST_BINDINGS, *Inbox.BINDINGS, *List.BINDINGS])


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


@pytest.mark.parametrize(
    "ended_at",
    [
        "the subscribers listed, before the inbox's screen is made",
        "the inbox's screen composing",
    ],
)
async def test_an_app_ended_while_the_inbox_opens_ends_without_a_crash(
    service: Service, ended_at: str
) -> None:
    """`q`, SIGTERM or SIGHUP in the first instants: ending prunes every screen's
    widgets, and a screen made or still mounting then would mount on none of them."""
    from textual.events import Compose

    from inboxdesk.tui.messages import SubscribersListed

    app = app_for(service)
    asked: list[str] = []

    def end_there(message: object) -> None:
        first = isinstance(message, SubscribersListed)
        composing = False
        if isinstance(message, Compose):
            with contextlib.suppress(ScreenStackError):  # no screen yet
                composing = isinstance(app.screen, InboxScreen) and not app.screen.is_mounted
        if not asked and (first if ended_at.startswith("the subscribers") else composing):
            asked.append(ended_at)
            app.exit()

    async with app.run_test(size=SIZE, message_hook=end_there) as pilot:
        await until(pilot, lambda: app.return_code is not None, what="the app's end")
    assert asked == [ended_at]
    assert app.return_code == 0, "a crash ends the app with 1"


async def test_a_new_title_is_redrawn_in_place_without_a_layout() -> None:
    """The header's title is one line whatever it says: a new title or sub-title (a
    subscriber's name loaded, the environment known, another view) is drawn where the
    old one was, without laying the whole screen out again (a frame of every widget)."""
    from textual.app import App, ComposeResult
    from textual.screen import Screen

    from inboxdesk.tui.widgets.app_header import AppHeader

    class Titled(App[None]):
        def compose(self) -> ComposeResult:
            yield AppHeader()

    app = Titled()
    async with app.run_test(size=(80, 3)) as pilot:
        title = app.screen.query_one("HeaderTitle", Static)

        def drawn() -> str:
            return "".join(segment.text for segment in title.render_line(0))

        await until(pilot, lambda: "Titled" in drawn(), what="the first title")
        layouts: list[Screen[object]] = []
        app.screen.screen_layout_refresh_signal.subscribe(app.screen, layouts.append)
        app.title = "inboxdesk · a title longer than the first"
        app.sub_title = "Jane Doe"
        await until(pilot, lambda: "longer than the first — Jane Doe" in drawn(), what="drawn")
        await pilot.pause()
        assert layouts == [], "a new title laid the screen out again"
        assert title.size.height == 1


async def test_an_inbox_is_laid_out_once_for_its_rows_and_once_for_its_detail(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An inbox whose first page came before it opened offers the row keys from the
    footer's first keys, and no layout repeats one whose sizes it would find unchanged:
    the detail pane shown or hidden (`v`) lays the screen out once, not twice."""
    from textual.screen import Screen

    from inboxdesk.core.inbox import loading

    # The first page waited for as long as it takes: on a loaded machine it came after
    # the inbox opened (loading, then its rows: the case of a slow first page).
    monkeypatch.setattr(loading, "FIRST_PAGE_WAIT", 30.0)
    app = app_for(service)
    layouts: list[Screen[object]] = []
    offered: list[bool | None] = []

    def installed(screen: Screen[object]) -> None:
        if isinstance(screen, InboxScreen) and not screen.is_mounted:
            screen.screen_layout_refresh_signal.subscribe(app, layouts.append, immediate=True)
            offered.append(screen.check_action("mark_read", ()))

    async with app.run_test(size=SIZE) as pilot:
        app.screen_change_signal.subscribe(app, installed, immediate=True)
        screen = await opened(pilot)
        await settled(pilot)
        assert offered == [True], "the row keys waited for a restyle after the first rows"
        # How many layouts the boot takes depends on how the answers fall into frames:
        # two on an idle machine, a third when an answer comes a frame later. The
        # layouts of a settled screen are counted.
        assert layouts, "the inbox was laid out"
        layouts.clear()
        table, wide = screen.table, screen.table.size.width
        await pilot.press("v")
        await until(pilot, lambda: table.size.width > wide, what="the list across the pane")
        await settled(pilot)
        assert len(layouts) == 1, "the list's new width laid the screen out again"
        assert screen.table.row_text(0), "its rows drawn at the new width"


async def test_the_connecting_screen_is_laid_out_again_only_when_its_size_changes(
    service: Service,
) -> None:
    """The App's own screen, shown until the inbox opens, is not laid out again at the
    size it was laid out at (the first frame's size comes twice more as Resize events)."""
    from textual.events import Resize
    from textual.screen import Screen

    transport = Held(held="/v2/subscribers")  # no subscriber given: it is searched for
    app = app_for(service, subscriber=None, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: "connecting" in plain(screen.query_one("#connecting", Static)))
        laid: list[Screen[object]] = []
        screen.screen_layout_refresh_signal.subscribe(app, laid.append, immediate=True)
        screen.post_message(Resize(screen.outer_size, screen.virtual_size, screen.size))
        await pilot.pause()
        await pilot.pause()
        assert laid == [], "laid out again at the size it has"
        screen.post_message(
            Resize(screen.outer_size.with_width(SIZE[0] - 1), screen.size, screen.size)
        )
        await until(pilot, lambda: bool(laid), what="a new size laid out")
        transport.go.set()
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
