"""The app on the v2 inbox (issue 19): tabs as the subscriber sees them, archive and
snooze keys through the outbox, the v1 feed on an older service; the header's counts at
80 columns and the webhook warning."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
from textual.widgets import Input, OptionList, Static, Tab, Tabs

from inboxdesk.tui.inbox.table import ARCHIVED_MARK, SNOOZED_MARK
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.snooze import SnoozeScreen
from tests.client.faults import FaultTransport
from tests.conftest import Service, ServiceFactory, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, detail_text, plain, settled, until
from tests.tui.test_inbox import marker, opened, shown_ids, stored


def state(service: Service, message_id: str) -> tuple[bool, str | None]:
    """Archived, and snoozed until, as the service stores them."""
    doc = json.loads(service.row("SELECT doc FROM messages WHERE id = ?", message_id)[0])
    return bool(doc.get("archived")), doc.get("snoozedUntil")


def archive(service: Service, message_id: str) -> None:
    with service.http() as http:
        path = f"/v2/subscribers/jane/notifications/{message_id}/archive"
        assert http.patch(path).status_code == 200


def header(screen: object) -> str:
    from textual.widget import Widget

    assert isinstance(screen, Widget)
    return plain(screen.query_one("#subscriber", Static))


def real_now() -> datetime:
    # The service checks a snooze's end against its own (real) clock.
    return datetime.now(UTC)


async def test_tabs_show_what_the_subscriber_sees(service: Service) -> None:
    archive(service, jane_message(11))  # unread and unseen
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=11)
        table = screen.table
        tabs = screen.query_one(Tabs)
        assert tabs.active == "inbox"
        assert [t.label.plain for t in tabs.query(Tab)] == [
            "Inbox", "Unread", "Unseen", "Archived", "Snoozed", "All"
        ]  # fmt: skip
        assert jane_message(11) not in shown_ids(table) and table.row_count == 11
        # The header counts what the Unread and Unseen tabs show: no archived message.
        await until(pilot, lambda: "7 unread · 5 unseen" in header(screen))
        assert "Inbox: 11 messages" in plain(screen.query_one("#status", Static))
        for _ in range(3):
            await pilot.press("f")
        assert tabs.active == "archived"
        await until(pilot, lambda: shown_ids(table) == [jane_message(11)])
        # Archiving read and saw it, as production's archive does.
        assert marker(app, jane_message(11)) == "   " and table.row_text(0)[3] == ARCHIVED_MARK
        await until(pilot, lambda: "archived at" in detail_text(screen))
        assert "first seen" in detail_text(screen)
        assert "archived" in plain(screen.query_one("#message-state", Static))
        await pilot.press("f", "f")
        assert tabs.active == "all"
        await until(pilot, lambda: table.row_count == 12)


async def test_archive_stays_in_place_until_refresh_and_undo_takes_it_back(
    service: Service,
) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.table
        await pilot.press("j")  # message 10
        await pilot.press("e")
        await until(pilot, lambda: state(service, jane_message(10))[0], what="archived")
        # Decision 16: marked where it was, the cursor on it, until a refresh.
        await until(pilot, lambda: table.row_text(1)[3] == ARCHIVED_MARK, what="marker")
        # Its status column says so, clipped to the column's 7 cells.
        assert table.row_text(1).rstrip().endswith("archiv…")
        assert table.cursor_key == jane_message(10) and table.row_count == 12
        await until(pilot, lambda: "archived at" in detail_text(screen))
        await pilot.press("z")
        await until(pilot, lambda: not state(service, jane_message(10))[0], what="undone")
        await until(pilot, lambda: table.row_text(1)[3] == " ")
        assert not table.row_text(1).rstrip().endswith("archiv…")
        await pilot.press("e")
        await until(pilot, lambda: state(service, jane_message(10))[0])
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(10) not in shown_ids(table), what="refreshed")
        for _ in range(3):
            await pilot.press("f")
        await until(pilot, lambda: shown_ids(table) == [jane_message(10)])
        await pilot.press("E")
        await until(pilot, lambda: not state(service, jane_message(10))[0], what="unarchived")
        await until(pilot, lambda: table.row_text(0)[3] == " ")


async def test_snooze_asks_until_when_and_unsnooze(service: Service, notices: Notices) -> None:
    app = app_for(service, clock=real_now)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await pilot.press("space", "space")  # 11 and 10
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, SnoozeScreen), what="the modal")
        modal = app.screen
        presets = [str(o.prompt) for o in modal.query_one(OptionList).options]
        assert presets[0].startswith("in 1 hour") and "tomorrow 09:00" in presets[2]
        # A bad time is said in the modal, and what was typed stays.
        modal.query_one(Input).focus()
        await pilot.press(*"yesterday 9", "enter")
        assert isinstance(app.screen, SnoozeScreen)
        assert "not a minute ahead" in plain(modal.query_one("#error", Static))
        await pilot.press(*"xx", "enter")
        assert "Not a time" in plain(modal.query_one("#error", Static))
        assert modal.query_one(Input).value == "yesterday 9xx"
        # At most a year ahead, as the command line says (snooze.py).
        modal.query_one(Input).value = "99999d"
        await pilot.press("enter")
        assert isinstance(app.screen, SnoozeScreen)
        assert "at most 365 days ahead" in plain(modal.query_one("#error", Static))
        modal.query_one(Input).value = "2h"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen)
        await until(pilot, lambda: all(state(service, jane_message(n))[1] for n in (11, 10)))
        until_at = datetime.fromisoformat(str(state(service, jane_message(11))[1]))
        assert timedelta(minutes=119) < until_at - real_now() <= timedelta(hours=2)
        await until(pilot, lambda: screen.table.row_text(0)[3] == SNOOZED_MARK)
        await pilot.press("g")
        await until(pilot, lambda: "snoozed until" in detail_text(screen))
        await pilot.press("z")
        await until(pilot, lambda: not state(service, jane_message(11))[1], what="undone")
        # A preset, then B.
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, SnoozeScreen))
        await pilot.press("enter")  # the first preset: in 1 hour
        await until(pilot, lambda: all(state(service, jane_message(n))[1] for n in (11, 10)))
        await settled(pilot)
        await pilot.press("B")
        await until(pilot, lambda: not any(state(service, jane_message(n))[1] for n in (11, 10)))
        await pilot.press("escape")


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


async def test_archive_while_the_service_is_away_is_queued_and_sent(
    service: Service, notices: Notices
) -> None:
    transport = FaultTransport()
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        patch = f"/v2/subscribers/jane/notifications/{jane_message(11)}"
        transport.route[patch] = refused
        await pilot.press("e")
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
        await until(pilot, lambda: marker(app, jane_message(11))[1] == "⧗", what="pending")
        assert not state(service, jane_message(11))[0]
        del transport.route[patch]
        await until(pilot, lambda: state(service, jane_message(11))[0], 15, "sent when back")
        await until(pilot, lambda: not screen.pending and not app.outbox.queued())
        table = screen.table

        def archived_or_gone() -> bool:
            # Marked from the service's answer, or gone after the refresh on coming back.
            index = table.source.index_of(jane_message(11))
            return index is None or table.row_text(index)[3] == ARCHIVED_MARK

        await until(pilot, archived_or_gone)
        keys = {r.headers["Idempotency-Key"] for r in transport.seen if r.method == "PATCH"}
        assert len(keys) == 1, "resent with the key it was queued with"


async def test_an_older_service_gets_the_v1_feed_without_archive_or_snooze(
    make_service: ServiceFactory, notices: Notices
) -> None:
    service = make_service(v2_inbox=False)
    app = app_for(service)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await until(pilot, lambda: screen.older and "older service" in header(screen))
        assert notices.saying("no v2 inbox")
        shown = [t.id for t in screen.query_one(Tabs).query(Tab) if t.display]
        assert shown == ["inbox", "unread", "unseen", "all"]
        for action in ("archive", "unarchive", "snooze", "unsnooze"):
            assert screen.check_action(action, ()) is None, action  # greyed out
        assert screen.check_action("mark_read", ())
        await pilot.press("e", "b")
        await settled(pilot)
        assert not isinstance(app.screen, SnoozeScreen)
        assert not state(service, jane_message(11))[0]
        await pilot.press("r")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: marker(app, jane_message(11)) == "   ")
        await until(pilot, lambda: "7 unread" in header(screen))
        await pilot.press("f", "f", "f")
        assert screen.query_one(Tabs).active == "all"
        await pilot.press("f")
        assert screen.query_one(Tabs).active == "inbox"


async def test_the_header_keeps_its_counts_at_80_columns(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot)
        line = header(screen)
        assert "8 unread · 6 unseen · service online" in line, line
        assert len(line.rstrip("\n")) <= 80


async def test_the_status_line_follows_a_mark_and_a_refresh(service: Service) -> None:
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        status = screen.query_one("#status", Static)
        await pilot.press("f")
        await until(pilot, lambda: "Unread: 8 messages" in plain(status))
        await pilot.press("r")
        await until(pilot, lambda: "7 unread" in header(screen))
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: "Unread: 7 messages" in plain(status), what=plain(status))


async def test_more_than_20_messages_warn_of_the_webhooks(make_service: ServiceFactory) -> None:
    from inboxdesk.server.demo import BIG_INBOX, demo_fixture

    service = make_service(fixture=demo_fixture(datetime(2026, 11, 22, tzinfo=UTC)))
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    key = "paging-key-0123456789abcdef"
    service.store.add_api_key(env["id"], key)
    app = app_for(service, key=key, subscriber=BIG_INBOX)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=50)
        await until(pilot, lambda: screen.feed.row(99) is not None, what="a page")
        before = service.snapshot()
        await pilot.press("asterisk")
        count = len(screen.selected)
        # Every row loaded: the first page's 100, and the next page's too when it
        # (fetched ahead while the list is near its end) has landed before the key.
        assert count >= 100, count
        for key_pressed in ("r", "e"):
            await pilot.press(key_pressed)
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            detail = plain(app.screen.query_one("#detail", Static))
            assert f"webhook once per message (read, seen, unread): {count} webhooks" in detail
            await pilot.press("n")
            await until(pilot, lambda: app.screen is screen)
        await settled(pilot)
        assert service.snapshot() == before, "nothing sent unconfirmed"
        await pilot.press("escape", "space", "r")  # one message: no question
        await until(pilot, lambda: service.snapshot() != before, what="a single mark")


def test_a_v2_rows_status_is_its_severity_or_its_state_in_words() -> None:
    """The v2 inbox has no delivery status: the column says what the markers mean, so
    the text filter finds "archived" and "snoozed" too."""
    from inboxdesk.core.inbox.feed import Row, matches
    from inboxdesk.models.inbox import InboxNotification

    def row(**fields: object) -> Row:
        return Row.of_notification(InboxNotification.model_validate({"id": "n1", **fields}))

    assert row(isArchived=True).status == "archived"
    assert row(isSnoozed=True, snoozedUntil="2030-01-01T00:00:00Z").status == "snoozed"
    assert row(isArchived=True, severity="high").status == "high"
    assert row(severity="none").status == ""
    assert matches(row(isArchived=True), "archived")


async def test_an_archived_and_snoozed_row_shows_both_markers(service: Service) -> None:
    app = app_for(service, clock=real_now)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.table
        table.move_to(0)
        first = table.cursor_key
        # Snoozed first: a snooze unarchives, an archive keeps the snooze's end.
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, SnoozeScreen), what="the modal")
        await until(pilot, lambda: app.screen.query_one(OptionList).has_focus, what="presets")
        await pilot.press("enter")  # the first preset: in 1 hour
        await until(pilot, lambda: bool(state(service, str(first))[1]), what="snoozed")
        await until(pilot, lambda: SNOOZED_MARK in table.row_text(0), what="snoozed mark")
        table.move_to(0)
        await pilot.press("e")
        await until(pilot, lambda: state(service, str(first))[0], what="archived")
        await until(
            pilot,
            lambda: table.row_text(0)[3:5] == ARCHIVED_MARK + SNOOZED_MARK,
            what="both markers",
        )
        assert table.row_text(0).index("ago") == table.row_text(1).index("ago"), "columns kept"
