"""The inbox through Pilot: keys press, the service changes, the screen tells the truth."""

from __future__ import annotations

import json

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, Tabs

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.screens.inbox import InboxScreen
from inboxdesk.tui.widgets.message_table import MessageTable
from tests.client.faults import FaultTransport
from tests.conftest import Service, jane_message
from tests.tui.conftest import SIZE, app_for, plain, until


def inbox(app: InboxdeskApp) -> InboxScreen:
    screen = app.screen
    assert isinstance(screen, InboxScreen), type(screen)
    return screen


def stored(service: Service, message_id: str) -> tuple[bool, bool]:
    read, seen = service.row("SELECT read, seen FROM messages WHERE id = ?", message_id)
    return bool(read), bool(seen)


def marker(app: InboxdeskApp, message_id: str) -> str:
    table = inbox(app).query_one(MessageTable)
    return str(table.get_cell(message_id, "state"))


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
        pilot, lambda: screen.unread is not None and screen.subscriber is not None, what="header"
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
        assert [str(k.value) for k in table.rows][:3] == [
            jane_message(11),
            jane_message(10),
            jane_message(9),
        ]
        header = plain(screen.query_one("#subscriber", Static))
        assert "Jane Doe" in header and "jane@example.test" in header and "jane" in header
        assert "8 unread" in header and "6 unseen" in header
        assert marker(app, jane_message(11)) == " ●◌"  # unread, unseen
        assert marker(app, jane_message(0)) == "   "  # read and seen
        detail = plain(screen.query_one("#message-body", Static))
        assert "Order #1011 shipped" in detail and jane_message(11) in detail


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
        assert screen.state.selected == {jane_message(n) for n in (11, 10, 9)}
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
        await pilot.press("escape")
        assert not screen.state.selected
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
                (
                    screen.state.messages[jane_message(n)].read,
                    screen.state.messages[jane_message(n)].seen,
                )
                == want(n)
                for n in range(12)
            ),
            what="rows from the returned messages",
        )


async def test_ignored_ids_are_reported(service: Service, transport: FaultTransport) -> None:
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await opened(pilot)
        # Another subscriber's message slips into the selection (e.g. from a stale view).
        screen.state.selected.update({jane_message(11), jane_message(100)})
        await pilot.press("r")
        await until(
            pilot,
            lambda: any("ignored 1 id" in n.message for n in app._notifications),
            what="notice",
        )
        assert stored(service, jane_message(100)) == (False, False)


async def test_mark_all_read(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("A")
        await until(pilot, lambda: all(stored(service, jane_message(n))[0] for n in range(12)))
        await until(pilot, lambda: all(marker(app, jane_message(n)) == "   " for n in range(12)))
        await until(pilot, lambda: "0 unread" in plain(screen.query_one("#subscriber", Static)))


async def test_undo_restores_the_earlier_state(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await pilot.press("space", "space")  # 11 (unread, unseen) and 10 (unread, seen)
        await pilot.press("r")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: screen.state.last_change is not None)
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
        assert screen.state.last_change is None


async def test_filter_tabs_and_text_filter(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        await pilot.press("f")
        assert screen.query_one(Tabs).active == "unread"
        await until(pilot, lambda: table.row_count == 8 and screen.state.total == 8)
        assert all(not m.read for m in screen.state.messages.values())
        await pilot.press("f")
        await until(pilot, lambda: table.row_count == 6 and screen.state.total == 6)
        await pilot.press("f")
        await until(pilot, lambda: table.row_count == 12)
        await pilot.press("slash")
        assert screen.query_one("#text-filter", Input).has_focus
        await pilot.press(*"#1005", "enter")
        assert [str(k.value) for k in table.rows] == [jane_message(5)]
        assert "filter" in plain(screen.query_one("#status", Static))
        await pilot.press("escape")
        assert table.row_count == 12


async def test_paging_to_the_end_of_a_2100_message_inbox(make_service: object) -> None:
    from datetime import UTC, datetime

    from inboxdesk.server.demo import BIG_INBOX, BIG_INBOX_SIZE, demo_fixture

    service = make_service(fixture=demo_fixture(datetime(2026, 11, 22, tzinfo=UTC)))  # type: ignore[operator]
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    key = "paging-key-0123456789abcdef"
    service.store.add_api_key(env["id"], key)
    app = app_for(service, key=key, subscriber=BIG_INBOX)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=50)
        table = screen.query_one(MessageTable)
        assert screen.state.total == BIG_INBOX_SIZE
        while table.row_count < BIG_INBOX_SIZE:
            before = table.row_count

            def grew(before: int = before) -> bool:
                return table.row_count > before or not screen.state.has_more

            await pilot.press("G")
            await until(
                pilot,
                grew,
                what=f"more than {before} rows",
            )
        assert table.row_count == BIG_INBOX_SIZE and not screen.state.has_more
        ids = [str(k.value) for k in table.rows]
        assert len(set(ids)) == BIG_INBOX_SIZE
        created = [screen.state.messages[i].created_at for i in ids]
        assert created == sorted(created, reverse=True)
        # Rows keep the list light; a full message is parsed when shown, sharing its
        # workflow and subscriber objects with every other message of theirs.
        first, last = screen.state.message(ids[0]), screen.state.message(ids[-1])
        assert first is not None and last is not None
        if first.template_id == last.template_id:
            assert first.template is last.template
        assert first.subscriber is last.subscriber is not None
