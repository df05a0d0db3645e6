"""The app on the v2 inbox (issue 19): archive and snooze keys through the outbox, the v1
feed on an older service. The tabs, the header at 80 columns and the status line are
walked in test_inbox.py; what archive and snooze change, each tab's listing and the
webhook warning are checked fast in tests/core."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from textual.widgets import Input, OptionList, Static, Tab, Tabs

from inboxdesk.client.source import V1
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import ARCHIVED_MARK, SNOOZED_MARK, MessageTable
from inboxdesk.tui.screens.snooze import SnoozeScreen
from tests.client.faults import FaultTransport
from tests.conftest import Service, ServiceFactory, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, detail_text, plain, settled, until
from tests.tui.test_inbox import marker, opened, stored

MARK = "/v1/subscribers/jane/messages/mark-as"


def rows(app: object) -> int:
    """The inbox's rows, 0 until the inbox shows."""
    screen = app.screen  # type: ignore[attr-defined]
    tables = list(screen.query(MessageTable)) if isinstance(screen, InboxScreen) else []
    return tables[0].row_count if tables else 0


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


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


@pytest.mark.slow
async def test_snooze_asks_until_when_archive_marks_in_place_and_undo(
    service: Service, notices: Notices
) -> None:
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
        await pilot.press("escape")
        # A preset; then archived: a snooze unarchives, an archive keeps the snooze's end.
        table = screen.table
        await settled(pilot)
        table.move_to(0)
        first = table.cursor_key
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, SnoozeScreen), what="the modal")
        await until(pilot, lambda: app.screen.query_one(OptionList).has_focus, what="presets")
        await pilot.press("enter")  # the first preset: in 1 hour
        await until(pilot, lambda: bool(state(service, str(first))[1]), what="snoozed")
        await until(pilot, lambda: SNOOZED_MARK in table.row_text(0), what="snoozed mark")
        await pilot.press("e")
        await until(pilot, lambda: state(service, str(first))[0], what="archived")
        await until(
            pilot,
            lambda: table.row_text(0)[3:5] == ARCHIVED_MARK + SNOOZED_MARK,
            what="both markers",
        )
        assert table.row_text(0).index("ago") == table.row_text(1).index("ago"), "columns kept"
        # Decision 16: marked where it was, the cursor on it, until a refresh; its status
        # column says so, clipped to the column's 7 cells.
        assert table.cursor_key == first and table.row_count == 12
        assert table.row_text(0).rstrip().endswith("archiv…")
        await until(pilot, lambda: "archived at" in detail_text(screen))
        await pilot.press("z")
        await until(pilot, lambda: not state(service, str(first))[0], what="undone")
        # Unarchived, still snoozed; then B ends the snooze.
        await until(pilot, lambda: table.row_text(0)[3] == SNOOZED_MARK, what="archive undone")
        assert not table.row_text(0).rstrip().endswith("archiv…")
        await settled(pilot)
        await pilot.press("B")
        await until(pilot, lambda: not state(service, str(first))[1], what="unsnoozed")


async def test_an_older_service_gets_the_v1_feed_without_archive_or_snooze(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """The v1 feed's fallback does all the app's day: open with no subscriber given, say
    so once, offer only what the source can do, filter, queue a mark while the service is
    away and send it when back. What each source can do is checked fast in
    tests/client/test_source.py."""
    service = make_service(v2_inbox=False)
    with service.http() as http:
        assert http.get("/v2/subscribers/jane/notifications").status_code == 404
    transport = FaultTransport()
    app = app_for(service, subscriber=None, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: rows(app) > 0, what="an inbox")
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        if screen.subscriber_id != "jane":
            app.open_subscriber("jane")
        await until(pilot, lambda: screen.subscriber_id == "jane" and rows(app) == 12)
        await until(pilot, lambda: screen.source is V1 and "older service" in header(screen))
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
        await pilot.press("slash")
        # The focused box takes the text at once (typed key by key: tests/tui/test_find.py).
        box = screen.query_one("#text-filter", Input)
        await until(pilot, lambda: box.has_focus, what="the box's focus")
        box.value = "#1005"
        await until(pilot, lambda: rows(app) == 1, what="the filter")
        await pilot.press("escape")
        await until(pilot, lambda: rows(app) == 12, what="the filter cleared")
        transport.route[MARK] = refused
        await pilot.press("g", "r")  # the newest: jane 11
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
        assert app.outbox.queued()[0].ids == (jane_message(11),)
        del transport.route[MARK]
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True), 15, "sent")
        await until(pilot, lambda: not app.offline and not app.outbox.queued(), what="back")
        await until(pilot, lambda: marker(app, jane_message(11)) == "   ")
        await until(pilot, lambda: "7 unread" in header(screen))
        await pilot.press("f", "f", "f")
        assert screen.query_one(Tabs).active == "all"
        await pilot.press("f")
        assert screen.query_one(Tabs).active == "inbox"
    feed = [r.url.path for r in transport.seen if r.url.path.endswith("/notifications/feed")]
    assert feed, "the listing came from the v1 feed"


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
