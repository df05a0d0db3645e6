"""The inbox through Pilot: keys press, the service changes, the screen tells the truth."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, Tabs

from inboxdesk.tui.app import PROBE_SECONDS, InboxdeskApp
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from tests.client.faults import FaultTransport
from tests.conftest import JOE_MESSAGES, Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, detail_text, plain, settled, until


def inbox(app: InboxdeskApp) -> InboxScreen:
    screen = app.screen
    assert isinstance(screen, InboxScreen), type(screen)
    return screen


def stored(service: Service, message_id: str) -> tuple[bool, bool]:
    read, seen = service.row("SELECT read, seen FROM messages WHERE id = ?", message_id)
    return bool(read), bool(seen)


def marker(app: InboxdeskApp, message_id: str) -> str:
    """The row's markers as drawn: selection, unread dot, unseen ring (or ⧗ pending)."""
    table = inbox(app).query_one(MessageTable)
    index = table.source.index_of(message_id)
    assert index is not None, message_id
    return table.row_text(index)[:3]


def shown_ids(table: MessageTable) -> list[str]:
    rows = (table.source.row(i) for i in range(table.row_count))
    return [r.id for r in rows if r is not None]


async def opened(pilot: Pilot[None], rows: int = 12) -> InboxScreen:
    app = pilot.app
    assert isinstance(app, InboxdeskApp)
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, InboxScreen)
            and any(t.row_count >= rows for t in app.screen.query(MessageTable))
        ),
        what="inbox rows",
    )
    screen = inbox(app)
    await until(
        pilot,
        lambda: (
            screen.counts is not None
            and screen.subscriber is not None
            and screen.table.row_text(0)
            and screen.query("#message-body")
            and "No message selected" not in detail_text(screen)
        ),
        what="header and detail",
    )
    return screen


def mark_posts(transport: FaultTransport) -> list[dict[str, object]]:
    return [
        json.loads(r.content)
        for r in transport.seen
        if r.method == "POST" and r.url.path.endswith("/mark-as")
    ]


async def test_inbox_lists_messages_newest_first_with_header_and_counts(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        assert shown_ids(table)[:3] == [
            jane_message(11),
            jane_message(10),
            jane_message(9),
        ]
        header = plain(screen.query_one("#subscriber", Static))
        assert "Jane Doe" in header and "jane@example.test" in header and "jane" in header
        assert "8 unread" in header and "6 unseen" in header
        assert marker(app, jane_message(11)) == " ●◌"  # unread, unseen
        assert marker(app, jane_message(0)) == "   "  # read and seen
        detail = detail_text(screen)
        assert "Order #1011 shipped" in detail and jane_message(11) in detail
        assert "unread · unseen · in_app" in detail


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("r", (True, True)),
        ("u", (False, True)),
        ("s", (False, True)),
        ("S", (False, False)),
    ],
)
async def test_each_mark_key_on_one_row(
    service: Service, key: str, expected: tuple[bool, bool]
) -> None:
    # Message 10 starts unread and seen.
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("j")
        assert screen.query_one(MessageTable).cursor_key == jane_message(10)
        await pilot.press(key)
        await until(
            pilot, lambda: stored(service, jane_message(10)) == expected, what="stored state"
        )
        read, seen = expected
        want = " " + (" " if read else "●") + (" " if seen else "◌")
        await until(pilot, lambda: marker(app, jane_message(10)) == want, what="row marker")
        assert stored(service, jane_message(11)) == (False, False), "other rows untouched"


async def test_a_selection_is_one_request(service: Service, transport: FaultTransport) -> None:
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("space", "space", "space")  # selects 11, 10, 9
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}
        assert marker(app, jane_message(11)).startswith("✔")
        await pilot.press("r")
        await until(
            pilot,
            lambda: all(stored(service, jane_message(n)) == (True, True) for n in (11, 10, 9)),
        )
        posts = mark_posts(transport)
        assert posts == [
            {"messageId": [jane_message(11), jane_message(10), jane_message(9)], "markAs": "read"}
        ]
        await until(
            pilot,
            lambda: "6 unread" in plain(screen.query_one("#subscriber", Static)),
            what="counts refreshed",
        )
        assert marker(app, jane_message(11)) == "✔  ", "the selection stays after a mark"
        await pilot.press("escape")
        assert not screen.selected
        assert marker(app, jane_message(11)) == "   "


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("r", (True, True)),
        ("u", (False, True)),
        ("s", None),
        ("S", None),
    ],
)
async def test_select_all_then_each_mark_key(
    service: Service, transport: FaultTransport, key: str, expected: tuple[bool, bool] | None
) -> None:
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        before = {n: stored(service, jane_message(n)) for n in range(12)}
        await pilot.press("asterisk", key)
        await until(pilot, lambda: len(mark_posts(transport)) == 1, what="one request")

        def want(n: int) -> tuple[bool, bool]:
            if expected is not None:
                return expected
            return before[n][0], key == "s"

        await until(
            pilot, lambda: all(stored(service, jane_message(n)) == want(n) for n in range(12))
        )
        assert len(mark_posts(transport)[0]["messageId"]) == 12  # type: ignore[arg-type]
        await until(
            pilot,
            lambda: all(
                screen.feed.flags([jane_message(n)])[jane_message(n)] == want(n) for n in range(12)
            ),
            what="rows from the returned messages",
        )


async def test_ignored_ids_are_reported(
    service: Service, transport: FaultTransport, notices: Notices
) -> None:
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        # Another subscriber's message slips into the selection (e.g. from a stale view).
        screen.selected = frozenset({jane_message(11), jane_message(100)})
        await pilot.press("r")
        await until(pilot, lambda: notices.saying("ignored 1 id"), what="notice")
        assert stored(service, jane_message(100)) == (False, False)


async def test_notices_count_what_changed(service: Service, notices: Notices) -> None:
    # 11 and 9 are unseen; 10 is already seen.
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        before = {n: stored(service, jane_message(n))[1] for n in (11, 10, 9)}
        assert before == {11: False, 10: True, 9: False}
        await pilot.press("space", "space", "space", "s")
        await until(pilot, lambda: notices.saying("2 of 3 messages marked seen; 1 already was."))
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}, "selection stays"


async def test_mark_all_asks_with_the_count_and_can_be_undone(
    service: Service, notices: Notices
) -> None:
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        unread = {n for n in range(12) if not stored(service, jane_message(n))[0]}
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        question = plain(app.screen.query_one("#question", Static))
        assert (
            f"Mark all {len(unread)} unread messages read (archived and snoozed included)?"
            in question
        )
        assert "z undoes it" in plain(app.screen.query_one("#detail", Static))
        assert all(not stored(service, jane_message(n))[0] for n in unread), "asked first"
        await pilot.press("y")
        await until(pilot, lambda: all(stored(service, jane_message(n))[0] for n in range(12)))
        # Drawn from the service's rows, fetched again (mark-all answers a number only):
        # no unread dot left; a read but unseen message keeps its ring, as stored.
        await until(pilot, lambda: all(marker(app, jane_message(n))[1] == " " for n in range(12)))
        assert marker(app, jane_message(3))[2] != " " and not stored(service, jane_message(3))[1]
        await until(pilot, lambda: "0 unread" in plain(screen.query_one("#subscriber", Static)))
        await pilot.press("z")
        await until(
            pilot,
            lambda: {n for n in range(12) if not stored(service, jane_message(n))[0]} == unread,
            what="mark-all undone",
        )
        await pilot.press("z")
        await until(pilot, lambda: notices.saying("Nothing to undo."))


async def test_mark_all_answered_no_changes_nothing(service: Service) -> None:
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        before = service.snapshot()
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        assert service.snapshot() == before


async def test_undo_restores_the_earlier_state(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("space", "space")  # 11 (unread, unseen) and 10 (unread, seen)
        await pilot.press("r")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: app.outbox.last("jane") is not None)
        await pilot.press("z")
        await until(
            pilot,
            lambda: (
                stored(service, jane_message(11)) == (False, False)
                and stored(service, jane_message(10)) == (False, True)
            ),
            what="undo",
        )
        await until(pilot, lambda: marker(app, jane_message(11)).endswith("●◌"))
        assert app.outbox.last("jane") is None


@pytest.mark.slow
async def test_filter_tabs_and_text_filter(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        assert screen.query_one(Tabs).active == "inbox"
        await pilot.press("f")
        assert screen.query_one(Tabs).active == "unread"
        await until(pilot, lambda: table.row_count == 8 and screen.feed.exact)
        assert all(not r.read for r in screen.feed.rows())
        await pilot.press("f")
        await until(pilot, lambda: table.row_count == 6 and screen.feed.exact)
        for tab in ("archived", "snoozed"):
            await pilot.press("f")
            assert screen.query_one(Tabs).active == tab
            await until(pilot, lambda: table.row_count == 0 and screen.feed.exact)
        await pilot.press("f")
        assert screen.query_one(Tabs).active == "all"
        await until(pilot, lambda: table.row_count == 12)
        await pilot.press("slash")
        assert screen.query_one("#text-filter", Input).has_focus
        await pilot.press(*"#1005", "enter")
        assert shown_ids(table) == [jane_message(5)]
        assert "filter" in plain(screen.query_one("#status", Static))
        await pilot.press("escape")
        assert table.row_count == 12


async def test_refresh_merges_rows_in_place(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.table
        await pilot.press("j", "j", "j")
        highlighted = table.cursor_key
        kept = screen.feed.get(jane_message(5))
        with service.http() as http:
            http.post(
                "/v1/subscribers/jane/messages/mark-as",
                json={"messageId": [jane_message(11)], "markAs": "read"},
            ).raise_for_status()
        await pilot.press("ctrl+r")
        # Nothing was cleared: every row still drawn while the service answers.
        assert table.row_count == 12 and all(table.row_text(i) for i in range(12))
        await until(pilot, lambda: marker(app, jane_message(11)) == "   ", what="merged row")
        assert table.cursor_key == highlighted, "the cursor stays on its message"
        assert screen.feed.get(jane_message(5)) is kept, "unchanged rows are kept, not rebuilt"


async def test_opening_another_subscriber_resets_everything(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("space", "r")
        await until(pilot, lambda: app.outbox.last("jane") is not None)
        await until(pilot, lambda: "7 unread" in plain(screen.query_one("#subscriber", Static)))
        jane = plain(screen.query_one("#subscriber", Static)).split("   ")[-1].strip()
        app.open_subscriber("joe")
        await until(pilot, lambda: screen.subscriber_id == "joe")
        header = plain(screen.query_one("#subscriber", Static))
        # Joe's counts, or none yet: never Jane's (they may be in already on a fast run).
        assert "Jane" not in header and jane not in header, ("no count of the last one", jane)
        assert not screen.selected and app.outbox.last("joe") is None
        await until(pilot, lambda: screen.table.row_count == 3 and screen.counts is not None)
        assert set(shown_ids(screen.table)) == set(JOE_MESSAGES)


async def test_the_clock_moves_on(service: Service) -> None:
    from datetime import timedelta

    from tests.tui.conftest import NOW

    now = [NOW]
    app = app_for(service, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        first = screen.table.row_text(0)
        now[0] = NOW + timedelta(days=3)
        assert screen.table.row_text(0) != first, "times are drawn from the clock, not frozen"


async def test_columns_by_priority(service: Service) -> None:
    from inboxdesk.tui.inbox.table import column_widths

    # Markers, time, a title of at least 19 cells and the status fit any list from 41
    # cells (an 80-column terminal without the detail pane); the preview comes last.
    for width in (41, 60, 80, 120, 200):
        widths = column_widths(width)
        assert widths["title"] >= 19 and widths["when"] and widths["status"]
        assert sum(widths.values()) + len([w for w in widths.values() if w]) - 1 <= width
    assert column_widths(60)["preview"] == 0 < column_widths(80)["preview"]
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        drawn = "".join(segment.text for segment in screen.table.render_line(1))
        assert drawn.startswith(" ●◌  1d ago") and "Order #1011 shipped" in drawn


async def test_open_link_without_a_browser_shows_it(
    service: Service, notices: Notices, monkeypatch: pytest.MonkeyPatch
) -> None:
    import webbrowser

    def no_browser() -> None:  # no browser can run here
        raise webbrowser.Error("no browser")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        url = screen.feed.get(jane_message(11)).cta_url  # type: ignore[union-attr]
        assert url
        await pilot.press("o")
        await until(pilot, lambda: notices.saying(url), what="the link shown")
        assert "no browser" in notices.saying(url)[0].message


@pytest.mark.own_service
async def test_a_mark_during_an_outage_is_queued_and_sent_with_its_key(
    service: Service, transport: FaultTransport, notices: Notices
) -> None:
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        port = service.thread.port
        service.thread.stop()
        await pilot.press("r")
        await until(pilot, lambda: notices.saying("Queued"), what="queued notice")
        await until(pilot, lambda: marker(app, jane_message(11))[1] == "⧗", what="pending row")
        await pilot.press("j", "s")
        await until(pilot, lambda: len([n for n in notices if n.title == "Queued"]) == 2)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks before quit")
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        restarted = ServiceThread(service.thread.settings, service.store, port=port).start()
        try:
            await until(
                pilot,
                lambda: stored(service, jane_message(11)) == (True, True),
                12,
                str(notices) + str(app.offline),
            )
            await until(pilot, lambda: not screen.pending, what="queue emptied")
            assert marker(app, jane_message(11))[1] != "⧗"
        finally:
            restarted.stop()
        keys = [
            r.headers["Idempotency-Key"]
            for r in transport.seen
            if r.method == "POST" and json.loads(r.content)["messageId"] == [jane_message(11)]
        ]
        assert len(keys) >= 2 and len(set(keys)) == 1, "resent with the key it was queued with"


@pytest.mark.slow
async def test_g_reaches_the_true_end_fetching_only_what_it_shows(
    make_service: object, transport: FaultTransport
) -> None:
    from datetime import UTC, datetime

    from inboxdesk.server.demo import BIG_INBOX, BIG_INBOX_SIZE, demo_fixture

    # An older service (no v2 inbox) whose feed counts everything.
    fixture = demo_fixture(datetime(2026, 11, 22, tzinfo=UTC))
    service = make_service(fixture=fixture, v2_inbox=False)  # type: ignore[operator]
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    key = "paging-key-0123456789abcdef"
    service.store.add_api_key(env["id"], key)
    with service.http(key) as http:
        last = http.get(
            f"/v1/subscribers/{BIG_INBOX}/notifications/feed",
            params={"page": (BIG_INBOX_SIZE - 1) // 100, "limit": 100},
        ).json()["data"]
    oldest = last[-1]["_id"]

    def exact(body: object) -> object:
        # An older service's exact total; the local service caps it as production does.
        assert isinstance(body, dict)
        return {**body, "totalCount": BIG_INBOX_SIZE}

    transport.inner = CappingTransport(transport.inner, exact)
    app = app_for(service, key=key, subscriber=BIG_INBOX, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=50)
        table = screen.table
        assert len(screen.feed) == BIG_INBOX_SIZE and screen.feed.exact
        assert str(BIG_INBOX_SIZE) in plain(screen.query_one("#status", Static)).replace(",", "")
        await pilot.press("G")
        await until(pilot, lambda: table.cursor_key == oldest, what="the oldest message")
        listing = [
            r
            for r in feed_requests(transport.seen, "100")
            if "read" not in r.url.params and "seen" not in r.url.params  # not the counts'
        ]
        pages = {r.url.params["page"] for r in listing}
        assert pages == {"0", str((BIG_INBOX_SIZE - 1) // 100)}, "only the pages shown"


def capped_big_inbox(make_service: object, transport: FaultTransport) -> tuple[object, str]:
    """The demo's big inbox behind feed answers whose totalCount stops at the page size."""
    from datetime import UTC, datetime

    from inboxdesk.server.demo import demo_fixture

    service = make_service(fixture=demo_fixture(datetime(2026, 11, 22, tzinfo=UTC)))  # type: ignore[operator]
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    key = "paging-key-0123456789abcdef"
    service.store.add_api_key(env["id"], key)

    def capped(body: object) -> object:
        assert isinstance(body, dict)
        return {**body, "totalCount": min(body["totalCount"], body["pageSize"])}

    transport.inner = CappingTransport(transport.inner, capped)
    return service, key


def feed_requests(sent: list[httpx.Request], limit: str) -> list[httpx.Request]:
    return [r for r in sent if r.url.path.endswith("/feed") and r.url.params.get("limit") == limit]


def inbox_requests(sent: list[httpx.Request], limit: str) -> list[httpx.Request]:
    """Requests of the v2 inbox list with this limit."""
    return [
        r
        for r in sent
        if r.url.path.endswith("/notifications") and r.url.params.get("limit") == limit
    ]


def visible(service: Service, key: str, subscriber_id: str, **query: str) -> int:
    """How many notifications the Inbox tab (or `query`) holds, walked by offset."""
    wanted = query or {"archived": "false", "snoozed": "false"}
    found = 0
    with service.http(key) as http:
        while True:
            body = http.get(
                f"/v2/subscribers/{subscriber_id}/notifications",
                params={**wanted, "limit": 100, "offset": found},
            ).json()
            found += len(body["data"])
            if not body["hasMore"]:
                return found


async def test_the_true_length_is_found_by_itself_when_the_feed_caps_its_total(
    make_service: object, transport: FaultTransport
) -> None:
    """The v2 inbox gives no total: the length is searched for once the first page is
    in, with single-row probes, and `G` then needs no request at all."""
    from inboxdesk.server.demo import BIG_INBOX

    service, key = capped_big_inbox(make_service, transport)
    size = visible(service, key, BIG_INBOX)  # type: ignore[arg-type]
    app = app_for(service, key=key, subscriber=BIG_INBOX, transport=transport)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=50)
        await until(pilot, lambda: screen.feed.exact, what="the true length")
        assert len(screen.feed) == size
        await until(
            pilot,
            lambda: f"{size:,} messages" in plain(screen.query_one("#status", Static)),
            what="the true length on the status line",
        )
        pages = -(-size // 100)
        probes = [
            r
            for r in inbox_requests(transport.seen, "1")
            if "read" not in r.url.params and "seen" not in r.url.params
        ]
        # Galloping then halving over pages, never a walk through them.
        assert len(probes) <= 2 * pages.bit_length()
        last_page = str((size - 1) // 100 * 100)
        offsets = [
            r.url.params["offset"]
            for r in inbox_requests(transport.seen, "100")
            if "read" not in r.url.params and "seen" not in r.url.params
        ]
        assert offsets == ["0", last_page]
        await settled(pilot)
        before = len(transport.seen)
        await pilot.press("G")
        await until(pilot, lambda: screen.table.cursor_row == size - 1)
        assert screen.table.cursor_key is not None, "the last page came with the search"
        await settled(pilot)
        assert not inbox_requests(transport.seen[before:], "100"), "G fetched a page it had"


async def test_g_before_the_length_is_known_waits_for_the_search(
    make_service: object, transport: FaultTransport
) -> None:
    """Until the search ends the list says `100+`; `G` pressed meanwhile goes to the end
    when it is found."""
    from inboxdesk.server.demo import BIG_INBOX

    service, key = capped_big_inbox(make_service, transport)
    size = visible(service, key, BIG_INBOX)  # type: ignore[arg-type]
    capping = transport.inner
    assert isinstance(capping, CappingTransport)
    capping.hold = asyncio.Event()
    app = app_for(service, key=key, subscriber=BIG_INBOX, transport=transport)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=50)
        assert not screen.feed.exact
        assert "100+ messages" in plain(screen.query_one("#status", Static))
        await pilot.press("G")
        await until(pilot, lambda: screen.table.cursor_row == 100, what="the last row known")
        capping.hold.set()
        await until(pilot, lambda: screen.table.cursor_row == size - 1)
        await until(pilot, lambda: screen.table.cursor_key is not None, what="last page")
        assert f"{size:,} messages" in plain(screen.query_one("#status", Static))


@pytest.mark.slow
async def test_a_failed_search_for_the_end_is_quiet_and_g_searches_again(
    make_service: object, transport: FaultTransport
) -> None:
    """A search nobody asked for fails without a word; `G` then searches again."""
    from inboxdesk.server.demo import BIG_INBOX

    service, key = capped_big_inbox(make_service, transport)
    size = visible(service, key, BIG_INBOX)  # type: ignore[arg-type]
    capping = transport.inner
    assert isinstance(capping, CappingTransport)
    capping.fail = 1
    notices = Notices()
    app = app_for(service, key=key, subscriber=BIG_INBOX, transport=transport)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot, rows=50)
        await until(pilot, lambda: capping.fail == 0, what="the failed probe")
        await settled(pilot)
        assert not screen.feed.exact and not notices, notices
        await pilot.press("G")
        await until(pilot, lambda: screen.table.cursor_row == size - 1)
        await until(pilot, lambda: screen.table.cursor_key is not None, what="last page")
        assert f"{size:,} messages" in plain(screen.query_one("#status", Static))


class CappingTransport(httpx.AsyncBaseTransport):
    """Feed answers changed as production's are: totalCount at most the page size."""

    def __init__(self, inner: httpx.AsyncBaseTransport, change: Callable[[object], object]):
        self.inner = inner
        self.change = change
        # When set: single-row feed requests (the search for the end) wait for it.
        self.hold: asyncio.Event | None = None
        # So many single-row feed requests fail with a 500 first.
        self.fail = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # The listing's own probes; the counts' searches (read or seen) go through.
        params = request.url.params
        probe = params.get("limit") == "1" and "read" not in params and "seen" not in params
        if self.hold is not None and probe:
            await self.hold.wait()
        if self.fail and probe:
            self.fail -= 1
            body = {"statusCode": 500, "message": "Internal server error", "errorId": "e1"}
            return httpx.Response(500, json=body, request=request)
        response = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/notifications/feed"):
            return response
        await response.aread()
        body = self.change(json.loads(response.content))
        return httpx.Response(response.status_code, json=body, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_hostile_rows_are_drawn_as_plain_visible_text(make_service: object) -> None:
    from tests.hostile import HOSTILE_KEY, SUBSCRIBER, hostile_fixture

    service = make_service(fixture=hostile_fixture())  # type: ignore[operator]
    app = app_for(service, key=HOSTILE_KEY, subscriber=SUBSCRIBER)
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, InboxScreen) and bool(app.screen.table.row_text(0)),
            what="hostile rows",
        )
        table = inbox(app).table
        lines = [table.row_text(i) for i in range(table.row_count)]
        assert any("[@click=app.quit]" in line or "[bold red]" in line for line in lines)
        drawn = "".join(
            segment.text for y in range(table.size.height) for segment in table.render_line(y)
        )
        assert "\x1b" not in drawn and "\x9b" not in drawn and "\u202e" not in drawn
        assert app.is_running, "no markup ran"


@pytest.mark.slow
async def test_mark_all_over_a_thousand_says_it_cannot_be_undone(
    make_service: object, notices: Notices
) -> None:
    from datetime import UTC, datetime

    from inboxdesk.server.demo import BIG_INBOX, demo_fixture
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    fixture = demo_fixture(datetime(2026, 11, 22, tzinfo=UTC))
    unread = sum(
        m["subscriberId"] == BIG_INBOX and m["channel"] == "in_app" and not m["read"]
        for m in fixture["environments"][0]["messages"]
    )
    assert unread > 1000
    service = make_service(fixture=fixture)  # type: ignore[operator]
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    key = "paging-key-0123456789abcdef"
    service.store.add_api_key(env["id"], key)
    app = app_for(service, key=key, subscriber=BIG_INBOX)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot, rows=50)
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="confirmation")
        # The count endpoint counts to 100, as production does: the question says 99+.
        # Counted exactly, archived and snoozed ones included.
        question = plain(app.screen.query_one("#question", Static))
        assert f"Mark all {unread:,} unread" in question
        assert f"{unread:,} webhooks" in plain(app.screen.query_one("#detail", Static))
        assert "cannot be undone" in plain(app.screen.query_one("#detail", Static))
        await pilot.press("y")
        await until(pilot, lambda: notices.saying(f"Marked all {unread:,} unread messages read."))
        await pilot.press("z")
        await until(pilot, lambda: notices.saying("cannot be undone: it changed more than 1,000"))


async def test_auto_refresh_shows_changes_and_pauses_while_writes_wait(
    service: Service, transport: FaultTransport
) -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    def feed_requests() -> int:
        return sum(r.url.path.endswith("/notifications/feed") for r in transport.seen)

    app = app_for(service, transport=transport, auto_refresh=0.2)
    # Only marks are refused: a probe (every 2 s, as in use) finds the service answering
    # and brings the app back, so none may fall in the window below.
    app.probe_seconds = PROBE_SECONDS
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        with service.http() as http:
            http.post(
                "/v1/subscribers/jane/messages/mark-as",
                json={"messageId": [jane_message(11)], "markAs": "read"},
            ).raise_for_status()
        # No key pressed: the timer brings the service's change in.
        await until(pilot, lambda: marker(app, jane_message(11))[1] == " ", what="refreshed")
        # Marks cannot reach the service: the one pressed waits in the queue.
        transport.route["/v1/subscribers/jane/messages/mark-as"] = refused
        await pilot.press("j", "u")
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
        fetched = feed_requests()
        await pilot.pause(0.6)  # three timer periods with a write waiting
        assert feed_requests() == fetched, "no refresh while a write waits"
