"""The app on the v2 inbox (issue 19): archive and snooze keys through the outbox (and
the fixes from a new user's trial of them), the v1 feed on an older service. The tabs,
the header at 80 columns and the status line are walked in test_inbox.py; what archive
and snooze change, each tab's listing and the webhook warning are checked fast in
tests/core."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, Tab, Tabs

from inboxdesk.client.source import V1
from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import ARCHIVED_MARK, SNOOZED_MARK, MessageTable
from inboxdesk.tui.screens.snooze import SnoozeScreen
from tests.client.faults import FaultTransport
from tests.conftest import Service, ServiceFactory, jane_message
from tests.hostile import inbox_listed_badly
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, app_for, detail_text, plain, settled, until
from tests.tui.test_inbox import header, marker, opened, shown_ids, stored

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


def real_now() -> datetime:
    # The service checks a snooze's end against its own (real) clock.
    return datetime.now(UTC)


@pytest.mark.slow
async def test_snooze_asks_until_when_archive_marks_in_place_and_undo(
    service: Service, notices: Notices
) -> None:
    """All at 120 columns. Snooze asks until when (a bad time said in the modal, what was
    typed kept), a preset; archive marks in place, undone by z; B ends a snooze. Then the
    fixes from a new user's trial: the header names the environment once loaded, without
    a write first; archive says what it changed (one already archived is named apart);
    a refresh drops what was archived above the cursor, by
    this app or by someone else, and keeps the cursor on its message; `z` brings a row
    back; a snooze says its end as a date people read."""
    now = real_now()  # the service checks a snooze's end against its own clock
    app = app_for(service, clock=lambda: now)
    async with app.run_test(size=(120, 40), message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        await until(pilot, lambda: app.scope is not None, what="the environments")
        await until(pilot, lambda: "Staging" in header(screen), what="the header's environment")
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
        await settled(pilot)

        # The trial's fixes, on the same messages, as they are now again.
        assert not any(state(service, jane_message(n))[0] for n in range(12)), "none archived"
        del notices[:]
        await pilot.press("g")
        assert table.cursor_key == jane_message(11)
        await pilot.press("e")  # message 11
        await until(pilot, lambda: state(service, jane_message(11))[0], what="archived")
        await until(pilot, lambda: notices.saying("Archived 1 message."), what="the notice")
        assert not notices.saying("nothing changed")
        await settled(pilot)
        await pilot.press("space", "space", "space")  # 11 (archived, kept in place), 10, 9
        await pilot.press("e")
        await until(pilot, lambda: notices.saying("Archived 2 messages."), what="the notice")
        assert notices.saying("1 was already archived.")
        await settled(pilot)
        # What History shows of it: test_an_archives_history_entry_says_each_state_after.
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}
        await pilot.press("j")  # message 7, below the archived rows kept in place
        assert table.cursor_key == jane_message(7)
        archive(service, jane_message(8))  # above it, by someone else
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(8) not in shown_ids(table), what="refreshed")
        assert not {jane_message(n) for n in (11, 10, 9)} & set(shown_ids(table))
        assert table.cursor_key == jane_message(7)
        # The archived three are listed no more: unselected, so `e` acts on the cursor's
        # row alone, never on messages out of sight.
        assert not screen.selected
        await until(
            pilot,
            lambda: notices.saying("3 selected messages are no longer listed here: unselected."),
            what="the unselected said",
        )
        await pilot.press("e")  # 7
        await until(pilot, lambda: state(service, jane_message(7))[0], what="archived")
        await until(pilot, lambda: len(notices.saying("Archived 1 message.")) == 2)
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: jane_message(7) not in shown_ids(table), what="refreshed")
        await settled(pilot)
        await pilot.press("z")
        await until(pilot, lambda: not state(service, jane_message(7))[0], what="undone")
        await until(pilot, lambda: jane_message(7) in shown_ids(table), what="listed again")

        await snooze_says_a_date_people_read(pilot, service, notices, now)


async def snooze_says_a_date_people_read(
    pilot: Pilot[None], service: Service, notices: Notices, now: datetime
) -> None:
    """The snooze dialog's ISO example is tomorrow and its hints agree; at 120 columns
    the snoozed message's state line is clipped with an ellipsis."""
    app = pilot.app
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    target = screen.table.cursor_key
    assert target is not None
    await pilot.press("b")
    await until(pilot, lambda: isinstance(app.screen, SnoozeScreen), what="the modal")
    hint = plain(app.screen.query_one("#hint", Static))
    tomorrow, after = (
        (now.astimezone() + timedelta(days=days)).strftime("%Y-%m-%dT09:00") for days in (1, 2)
    )
    assert f"ISO 8601 ({tomorrow})" in hint and after not in hint
    placeholder = str(app.screen.query_one(Input).placeholder)
    for example in placeholder.removeprefix("or type a time: ").split(", ")[:-1]:
        assert example in hint
    await pilot.press("down", "down", "enter")  # tomorrow 09:00
    await until(pilot, lambda: state(service, target)[1] is not None, what="snoozed")
    line = screen.query_one("#message-state", Static)
    await until(pilot, lambda: "snoozed" in plain(line), what="the state line")
    await pilot.pause()
    drawn = line.render_line(0).text.rstrip()
    assert "in_app" in drawn or drawn.endswith("…"), drawn
    assert "until" in drawn and "T09:00" not in drawn, "a date people read"
    said = notices.saying("Snoozed 1 message until ")
    assert said and "09:00" in said[0].message and "T09" not in said[0].message


async def test_an_older_service_gets_the_v1_feed_without_archive_or_snooze(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """The v1 feed's fallback does all the app's day: open with no subscriber given, say
    so once, offer only what the source can do, filter, queue a mark while the service is
    away and send it when back. What each source can do is checked fast in
    tests/client/test_source.py.

    Its pages go wrong (tests/hostile.py's inbox_listed_badly): the app lists each
    readable message once, leaves out the one it cannot read and says so, opens the
    message carrying data nested 190 deep, and `G` still reaches the true last message.
    How each source bounds its pages: tests/client/test_bounded_inbox.py."""
    service = make_service(v2_inbox=False)
    with service.http() as http:
        assert http.get("/v2/subscribers/jane/notifications").status_code == 404
    transport = FaultTransport()
    with production_shaped(service.url, rewrite=inbox_listed_badly(UNREADABLE, DEEP)) as url:
        app = app_for(replace(service, url=url), subscriber=None, transport=transport)
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await older_service_walk(pilot, service, transport, notices)
    feed = [r.url.path for r in transport.seen if r.url.path.endswith("/notifications/feed")]
    assert feed, "the listing came from the v1 feed"


UNREADABLE, DEEP = jane_message(7), jane_message(9)
LISTED = 11  # jane's 12, less the one that cannot be read


async def older_service_walk(
    pilot: Pilot[None], service: Service, transport: FaultTransport, notices: Notices
) -> None:
    app = pilot.app
    await until(pilot, lambda: rows(app) > 0, what="an inbox")
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    if screen.subscriber_id != "jane":
        app.open_subscriber("jane")
    await until(pilot, lambda: screen.subscriber_id == "jane" and rows(app) == LISTED)
    await until(pilot, lambda: screen.source is V1 and "older service" in header(screen))
    assert notices.saying("no v2 inbox")
    # The page that went wrong costs its bad message only, and says so.
    await until(pilot, lambda: notices.saying("could not be read"), what="said")
    assert notices.saying("twice on one page")
    assert screen.feed.get(UNREADABLE) is None and screen.feed.message(DEEP) is not None
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
    await until(pilot, lambda: rows(app) == LISTED, what="the filter cleared")
    transport.route[MARK] = refused
    await pilot.press("g", "r")  # the newest: jane 11
    await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
    assert app.outbox.queued()[0].ids == (jane_message(11),)
    del transport.route[MARK]
    await until(pilot, lambda: stored(service, jane_message(11)) == (True, True), 15, "sent")
    await until(pilot, lambda: not app.offline and not app.outbox.queued(), what="back")
    await until(pilot, lambda: marker(app, jane_message(11)) == "   ")
    await until(pilot, lambda: "7 unread" in header(screen))
    # The message nested deep opens in the pane; `G` reaches the true last message.
    table = screen.table
    deep = screen.feed.index_of(DEEP)
    assert deep is not None
    table.move_to(deep)
    await until(pilot, lambda: table.cursor_key == DEEP, what="the deep message")
    await until(pilot, lambda: DEEP in detail_text(screen), what="its detail")
    await pilot.press("enter", "G")
    await until(pilot, lambda: table.cursor_key == jane_message(0), what="the last")
    # `f` passes over the tabs the source cannot list: from Unseen (clicked) to All.
    await pilot.click("#unseen")
    assert screen.query_one(Tabs).active == "unseen"
    await pilot.press("f")
    assert screen.query_one(Tabs).active == "all"
    await pilot.press("f")
    assert screen.query_one(Tabs).active == "inbox"


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


async def test_an_archives_history_entry_says_each_state_after(service: Service) -> None:
    """From a new user's trial: History shows an archive as each message's inbox state
    after it (archived, not snoozed), not a read and seen it did not set; here one of
    the three was archived already, as in the walk above, whose archives these are."""
    from inboxdesk.core.inbox.plans import InboxPlan
    from inboxdesk.scope import Scope
    from inboxdesk.tui.history.detail import entry_text
    from tests.core.inbox_fixture import client_for, listed, outbox_for

    ids = tuple(jane_message(n) for n in (11, 10, 9))
    async with client_for(service) as client:
        outbox = outbox_for(client)
        await outbox.submit(InboxPlan("jane", "archive", ids[:1]).write())
        feed = await listed(client, tab=InboxTab.ALL)
        write = InboxPlan("jane", "archive", ids, feed.flags(ids)).write()
        await outbox.submit(write)
        entry = outbox.store.entry(write.id)
    assert entry is not None
    shown = entry_text(entry, Scope(), "u").plain
    assert "3 messages, archive → after:" in shown
    assert all(f"{i}: archived, not snoozed" in shown for i in ids), shown
    assert "read, seen →" not in shown
