"""The inbox through Pilot: keys press, the service changes, the screen tells the truth.

One walk per story a user goes through (a long inbox's true end, `G`, is walked with the
search of every page in tests/tui/test_find.py); the rules each walk relies on (what each write
changes and says, each tab's listing, the true end's search) are checked fast in
tests/core/test_inbox_writes.py and test_inbox_listing.py."""

from __future__ import annotations

import copy as deep
import json
from datetime import timedelta

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, Tab, Tabs

from inboxdesk.models import Message
from inboxdesk.tui.app import PROBE_SECONDS, InboxdeskApp
from inboxdesk.tui.inbox.header import SubscriberHeader
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import ARCHIVED_MARK, MessageTable, column_widths
from tests.client.faults import FaultTransport, connection_refused, status
from tests.conftest import EXAMPLE, JOE_MESSAGES, Service, ServiceFactory, jane_message
from tests.server.test_inbox_bulk import jane as jane_count
from tests.tui.conftest import (
    NOW,
    SIZE,
    Notices,
    answered_no,
    app_for,
    detail_text,
    plain,
    problem_shown,
    settled,
    until,
)


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


# What a pasted value must never carry: the end of a bracketed paste and a new line.
PASTE_ATTACK = "\x1b[201~\nrm -rf ~\n"
PASTE_SUBSCRIBER = f"jane{PASTE_ATTACK}"
URL = f"https://shop.example.test/{PASTE_ATTACK}"


def with_paste_attack() -> dict[str, object]:
    """The example, and a subscriber (with one message) whose id and link paste badly."""
    data = json.loads(EXAMPLE.read_text())
    env = data["environments"][0]
    env["subscribers"].append({"subscriberId": PASTE_SUBSCRIBER, "firstName": "Mallory"})
    message = deep.deepcopy(env["messages"][0])
    message.update(
        _id="65f0000000000000000aaaaa",
        subscriberId=PASTE_SUBSCRIBER,
        transactionId="txn-paste",
        cta={"type": "redirect", "data": {"url": URL}},
    )
    env["messages"].append(message)
    return data


NEW_ID = "6c" + "0" * 22


def send_meanwhile(service: Service) -> None:
    """A copy of jane's newest message with a new id, newer than any."""
    row = service.row("SELECT doc FROM messages WHERE id = ?", jane_message(11))
    doc = json.loads(row[0])
    stamp = (NOW + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    doc |= {"_id": NEW_ID, "createdAt": stamp, "transactionId": "txn-follow", "read": False}
    service.store.insert_messages([Message.model_validate(doc)])


def mark_posts(transport: FaultTransport) -> list[dict[str, object]]:
    return [
        json.loads(r.content)
        for r in transport.seen
        if r.method == "POST" and r.url.path.endswith("/mark-as")
    ]


def failing(request: httpx.Request) -> httpx.Response:
    body = {"statusCode": 500, "message": "boom"}
    return httpx.Response(500, json=body, request=request)


def header(screen: InboxScreen) -> str:
    return plain(screen.query_one("#subscriber", Static))


async def test_reading_the_inbox(
    make_service: ServiceFactory, notices: Notices, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened: newest first, the header's counts, the markers, the detail, the columns by
    priority, the clock's times, a link without a browser, and 80 columns; then (at 80
    columns) following it live; then each copy key (c, C, o) over a subscriber whose id
    and link would end a bracketed paste."""
    import webbrowser

    service = make_service(with_paste_attack())

    def no_browser() -> None:  # no browser can run here
        raise webbrowser.Error("no browser")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    # Markers, time, a title of at least 19 cells and the status fit any list from 41
    # cells (an 80-column terminal without the detail pane); the preview comes last.
    for width in (41, 60, 80, 120, 200):
        widths = column_widths(width)
        assert widths["title"] >= 19 and widths["when"] and widths["status"]
        assert sum(widths.values()) + len([w for w in widths.values() if w]) - 1 <= width
    assert column_widths(60)["preview"] == 0 < column_widths(80)["preview"]
    now = [NOW]
    app = app_for(service, clock=lambda: now[0])
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        assert shown_ids(table)[:3] == [jane_message(11), jane_message(10), jane_message(9)]
        line = header(screen)
        assert "Jane Doe" in line and "jane@example.test" in line and "jane" in line
        assert "8 unread" in line and "6 unseen" in line
        assert marker(app, jane_message(11)) == " ●◌"  # unread, unseen
        assert marker(app, jane_message(0)) == "   "  # read and seen
        detail = detail_text(screen)
        assert "Order #1011 shipped" in detail and jane_message(11) in detail
        assert "unread · unseen · in_app" in detail
        drawn = "".join(segment.text for segment in table.render_line(1))
        assert drawn.startswith(" ●◌  1d ago") and "Order #1011 shipped" in drawn
        first = table.row_text(0)
        now[0] = NOW + timedelta(days=3)
        assert table.row_text(0) != first, "times are drawn from the clock, not frozen"
        url = screen.feed.get(jane_message(11)).cta_url  # type: ignore[union-attr]
        assert url
        await pilot.press("o")
        await until(pilot, lambda: notices.saying(url), what="the link shown")
        assert "no browser" in notices.saying(url)[0].message
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: screen.size.width == 80, what="80 columns")
        await until(
            pilot,
            lambda: len(header(screen).rstrip("\n")) <= 80,
            what="the header drawn again within 80 columns",
        )
        line = header(screen)
        assert "8 unread · 6 unseen · service online" in line, line
        # The rest of the walk at 80 columns too: what it checks is not about the width.

        # Following (decisions 108, 109): `L` makes the one auto-refresh timer run at the
        # follow pace, with `● live` in the header; a message sent meanwhile shows without
        # a key press, the highlighted message stays highlighted; off the top row it pauses.
        monkeypatch.setattr(InboxScreen, "follow_fast", 0.2)
        await pilot.press("g")
        first = table.cursor_key
        await pilot.press("L")
        live = screen.query_one(SubscriberHeader)
        await until(pilot, lambda: "● live" in plain(live), what="live")
        send_meanwhile(service)
        await until(pilot, lambda: screen.feed.index_of(NEW_ID) == 0, what="the new one on top")
        assert table.cursor_key == first, "the cursor stays on its message"
        assert table.cursor_row == 1 and "● live" in plain(live), "still live"
        await pilot.press("j")  # the agent moves away: following pauses
        await until(pilot, lambda: "⏸ paused" in plain(live), what="paused")
        await pilot.press("g")  # back on top: live again
        await until(pilot, lambda: "● live" in plain(live), what="live again")
        await pilot.press("L")
        await until(pilot, lambda: "live" not in plain(live), what="following off")

        # Copies: the clipboard gets the cleaned form, and the notice says so.
        app.open_subscriber(PASTE_SUBSCRIBER)
        await until(
            pilot,
            lambda: screen.subscriber_id == PASTE_SUBSCRIBER and table.row_count == 1,
            what="the inbox of the pasting subscriber",
        )
        await until(pilot, lambda: table.cursor_key is not None, what="its message")
        said = len(notices)
        await pilot.press("c")
        await until(pilot, lambda: len(notices) > said, what="copy notice")
        assert app.clipboard == "65f0000000000000000aaaaa"
        assert (
            "cleaned" not in notices[-1].message and "terminal's clipboard" in notices[-1].message
        )
        await pilot.press("C")
        await until(pilot, lambda: app.clipboard.startswith("jane"), what="subscriberId")
        assert app.clipboard == "jane[201~rm -rf ~"
        assert "cleaned" in notices[-1].message
        await pilot.press("o")
        await until(pilot, lambda: app.clipboard.startswith("https"), what="the link")
        assert app.clipboard == "https://shop.example.test/[201~rm -rf ~"
        assert "cleaned" in notices[-1].message and "no browser" in notices[-1].message
        for text in (app.clipboard, *(n.message for n in notices[said:])):
            assert "\x1b" not in text and "\n" not in text


@pytest.mark.slow
async def test_marking_selecting_and_undoing(
    service: Service, transport: FaultTransport, notices: Notices
) -> None:
    """Mark all read (`A`): asked with the count, no changes if refused, undone by z.
    Then a key on one row, a selection marked in one request, undo (queued while the
    service is away), a mark's notice, an id the service ignores, select all; another
    subscriber then starts afresh. (Archive all: the tabs walk below.)"""
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        unread = {n for n in range(12) if not stored(service, jane_message(n))[0]}
        await answered_no(pilot, "A", service)
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
        await until(pilot, lambda: "0 unread" in header(screen))
        await pilot.press("z")
        await until(
            pilot,
            lambda: {n for n in range(12) if not stored(service, jane_message(n))[0]} == unread,
            what="mark-all undone",
        )
        await pilot.press("z")
        await until(pilot, lambda: notices.saying("Nothing to undo."))
        # The header counts from the undo's answer (once counted twice: 12 unread).
        await until(pilot, lambda: f"{len(unread)} unread" in header(screen), what="counts")
        # Message 10 starts unread and seen; one message: no question.
        await pilot.press("g", "j")
        assert table.cursor_key == jane_message(10)
        for key, expected in (("r", (True, True)), ("u", (False, True))):
            await pilot.press(key)
            await until(pilot, lambda e=expected: stored(service, jane_message(10)) == e)
            read, seen = expected
            want = " " + (" " if read else "●") + (" " if seen else "◌")
            await until(pilot, lambda w=want: marker(app, jane_message(10)) == w, what="marker")
        assert stored(service, jane_message(11)) == (False, False), "other rows untouched"
        # A selection: one request for all, in feed order; the selection stays.
        await pilot.press("g", "space", "space", "space")  # selects 11, 10, 9
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}
        assert marker(app, jane_message(11)).startswith("✔")
        posted = len(mark_posts(transport))
        await pilot.press("r")
        await until(
            pilot,
            lambda: all(stored(service, jane_message(n)) == (True, True) for n in (11, 10, 9)),
        )
        assert mark_posts(transport)[posted:] == [
            {"messageId": [jane_message(11), jane_message(10), jane_message(9)], "markAs": "read"}
        ]
        await until(pilot, lambda: "6 unread" in header(screen), what="counts")
        assert marker(app, jane_message(11)) == "✔  ", "the selection stays after a mark"
        # z while the service is away: queued, not lost, and sent when it is back; the
        # earlier state is redrawn.
        await until(pilot, lambda: app.outbox.last("jane") is not None)
        marked = app.outbox.last("jane")
        assert marked is not None and marked.ids == tuple(jane_message(n) for n in (11, 10, 9))
        transport.before = [connection_refused() for _ in range(2)]  # the undo's two tries
        await pilot.press("z")
        await until(pilot, lambda: notices.saying("Queued"), what="undo queued")
        # A second z would not take it back again: it goes on to the write before it.
        left = app.outbox.last("jane")
        assert left is not None and left.id != marked.id, "the queued undo counts as done"
        await until(
            pilot,
            lambda: (
                stored(service, jane_message(11)) == (False, False)
                and stored(service, jane_message(10)) == (False, True)
            ),
            15,
            "undo sent",
        )
        await until(pilot, lambda: marker(app, jane_message(11)).endswith("●◌"))
        # The notice counts what changed: 11 and 9 are unseen, 10 is seen already.
        await pilot.press("s")
        await until(pilot, lambda: notices.saying("2 of 3 messages marked seen; 1 already was."))
        assert screen.selected == {jane_message(n) for n in (11, 10, 9)}, "selection stays"
        await pilot.press("escape")
        assert not screen.selected
        assert marker(app, jane_message(11)) == " ● "
        # Another subscriber's message slips into the selection (e.g. from a stale view).
        screen.selected = frozenset({jane_message(11), jane_message(100)})
        await pilot.press("r")
        await until(pilot, lambda: notices.saying("ignored 1 id"), what="notice")
        assert stored(service, jane_message(100)) == (False, False)
        await pilot.press("escape", "asterisk")
        assert screen.selected == {jane_message(n) for n in range(12)}, "every row shown"
        await until(pilot, lambda: app.outbox.last("jane") is not None)
        await settled(pilot)
        jane = header(screen).split("   ")[-1].strip()
        # Another subscriber: nothing of the last one's stays.
        app.open_subscriber("joe")
        await until(pilot, lambda: screen.subscriber_id == "joe")
        line = header(screen)
        # Joe's counts, or none yet: never Jane's (they may be in already on a fast run).
        assert "Jane" not in line and jane not in line, ("no count of the last one", jane)
        assert not screen.selected and app.outbox.last("joe") is None
        await until(pilot, lambda: table.row_count == 3 and screen.counts is not None)
        assert set(shown_ids(table)) == set(JOE_MESSAGES)


@pytest.mark.slow
async def test_tabs_the_text_filter_and_refresh(
    service: Service, transport: FaultTransport
) -> None:
    """The tabs as the subscriber sees them (one message archived), `f` to the next and
    a click to any (`f` wraps from the last to the first; the subscriber not asked for
    again), the status line following a mark and a refresh, the text filter, a refresh
    merged in place; then archive all read (`X`) and archive all (`x`), asked with the
    number."""
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    with service.http() as http:  # 11, unread and unseen, archived
        path = f"/v2/subscribers/jane/notifications/{jane_message(11)}/archive"
        assert http.patch(path).status_code == 200
    app = app_for(service, transport=transport)

    def subscriber_asked() -> int:
        return sum(r.url.path == "/v2/subscribers/jane" for r in transport.seen)

    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, rows=11)
        table = screen.table
        tabs = screen.query_one(Tabs)
        status = screen.query_one("#status", Static)
        assert tabs.active == "inbox"
        assert [t.label.plain for t in tabs.query(Tab)] == [
            "Inbox", "Unread", "Unseen", "Archived", "Snoozed", "All"
        ]  # fmt: skip
        assert jane_message(11) not in shown_ids(table) and table.row_count == 11
        # The header counts what the Unread and Unseen tabs show: no archived message.
        await until(pilot, lambda: "7 unread · 5 unseen" in header(screen))
        assert "Inbox: 11 messages" in plain(status)
        await settled(pilot)
        asked = subscriber_asked()
        await pilot.press("f")
        assert tabs.active == "unread"
        await until(pilot, lambda: table.row_count == 7 and screen.feed.exact)
        assert all(not r.read for r in screen.feed.rows())
        await until(pilot, lambda: "Unread: 7 messages" in plain(status))
        assert subscriber_asked() == asked, "another tab asked for the same subscriber"
        await pilot.press("r")
        await until(pilot, lambda: "6 unread" in header(screen))
        await settled(pilot)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: "Unread: 6 messages" in plain(status), what=plain(status))
        # A tab clicked opens it, past Unseen (its listing: tests/core/test_inbox_listing.py,
        # and the older service's walk steps through it with `f`).
        await pilot.click("#archived")
        assert tabs.active == "archived"
        await until(pilot, lambda: shown_ids(table) == [jane_message(11)])
        # Archiving read and saw it, as production's archive does.
        assert marker(app, jane_message(11)) == "   " and table.row_text(0)[3] == ARCHIVED_MARK
        await until(pilot, lambda: "archived at" in detail_text(screen))
        assert "first seen" in detail_text(screen)
        assert "archived" in plain(screen.query_one("#message-state", Static))
        await pilot.click("#all")  # past Snoozed, empty here (the same test of core)
        assert tabs.active == "all"
        await until(pilot, lambda: table.row_count == 12)
        await pilot.press("slash")
        box = screen.query_one("#text-filter", Input)
        assert box.has_focus
        # The focused box takes the text at once (typed key by key: tests/tui/test_find.py).
        box.value = "#1005"
        await pilot.press("enter")
        assert shown_ids(table) == [jane_message(5)]
        assert "filter" in plain(status)
        await pilot.press("escape")
        assert table.row_count == 12
        # A refresh merges the rows in place.
        await pilot.press("g", "j", "j", "j")
        highlighted = table.cursor_key
        kept = screen.feed.get(jane_message(5))
        changed = next(
            i
            for i in shown_ids(table)
            if not stored(service, i)[0] and i not in (highlighted, jane_message(5))
        )
        with service.http() as http:
            http.post(
                "/v1/subscribers/jane/messages/mark-as",
                json={"messageId": [changed], "markAs": "read"},
            ).raise_for_status()
        await pilot.press("ctrl+r")
        # Nothing was cleared: every row still drawn while the service answers.
        assert table.row_count == 12 and all(table.row_text(i) for i in range(12))
        await until(pilot, lambda: marker(app, changed)[1] == " ", what="merged row")
        assert table.cursor_key == highlighted, "the cursor stays on its message"
        assert screen.feed.get(jane_message(5)) is kept, "unchanged rows are kept, not rebuilt"

        # Archive all read (`X`), then all that are left (`x`), from the Inbox tab: asked
        # with the number and what the bulk operation does differently, then the list
        # read again.
        await pilot.press("f")
        assert tabs.active == "inbox"
        for key, which in (("X", "read = 1"), ("x", "archived = 0")):
            shown = jane_count(service, f"channel = 'in_app' AND archived = 0 AND ({which})")
            assert shown > 0, key
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
            question = plain(app.screen.query_one("#question", Static))
            detail = plain(app.screen.query_one("#detail", Static))
            assert f"Archive all {shown} " in question and "in-app messages of jane" in question
            assert "every channel" in detail and "first 100" in detail
            assert "cannot be undone" in detail
            await pilot.press("y")
            await until(pilot, lambda w=which: jane_count(service, f"archived = 0 AND ({w})") == 0)
            await settled(pilot)
            # The Inbox tab lists what is not archived: read again from the service.
            await until(
                pilot,
                lambda: (
                    screen.table.row_count
                    == jane_count(service, "channel = 'in_app' AND archived = 0")
                ),
                what="the list read again",
            )


@pytest.mark.slow
@pytest.mark.own_service
async def test_a_mark_during_an_outage_is_queued_and_sent_with_its_key(
    make_service: ServiceFactory, transport: FaultTransport, notices: Notices
) -> None:
    """The service away at start: the problem screen; back but answering 5xx, `r` shows
    its error, and `r` connects once it answers. Then it dies mid-session (said once):
    marks and an archive made while it is away wait in the queue, marked in the list, and
    are sent when it is back, each with the key it was queued with; a mark the service
    answers "not now" (503) stays queued, says why, and goes with its key once the
    service takes it. A first page that fails later (another subscriber's) says so, and
    refresh retries it. All on a service without the hidden v1 subscriber endpoints
    (production may drop them), which the app never needs."""
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.tui.screens.confirm import ConfirmScreen

    service = make_service(v1_subscribers=False)
    with service.http() as http:
        assert http.get("/v1/subscribers").status_code == 404
    port = service.thread.port
    service.thread.stop()
    app = app_for(service, subscriber=None, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        # Away at start: the problem screen, and `r` connects once it is back.
        await problem_shown(pilot)
        assert "unreachable" in plain(app.screen.query_one("#problem-title", Static))
        back = ServiceThread(service.thread.settings, service.store, port=port).start()
        try:
            # Back, but answering 5xx: `r` retries and shows the service's error.
            transport.route["/v"] = failing
            await pilot.press("r")
            await until(
                pilot,
                lambda: "answered with an error" in plain(app.screen.query_one("#problem-title")),
                what="the 5xx's problem",
            )
            assert "boom" in plain(app.screen.query_one("#problem-message"))
            transport.route.clear()
            await pilot.press("r")
            # No --subscriber: the first subscriber of the v2 listing is opened.
            await until(pilot, lambda: bool(app.subscribers), what="the v2 listing's subscribers")
            await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="an inbox")
            if inbox(app).subscriber_id != "jane":
                app.open_subscriber("jane")
            screen = await opened(pilot)
            await until(pilot, lambda: screen.subscriber_id == "jane", what="jane's inbox")
            assert screen.table.cursor_key == jane_message(11)
        finally:
            back.stop()  # and away again, mid-session: said once, the marks wait
        del notices[:]
        await pilot.press("r")
        await until(pilot, lambda: notices.saying("Queued"), what="queued notice")
        await until(pilot, lambda: marker(app, jane_message(11))[1] == "⧗", what="pending row")
        await until(pilot, lambda: app.offline, what="offline")
        assert [n.title for n in notices].count("Service unreachable") == 1
        await until(pilot, lambda: "unreachable" in plain(screen.query_one("#status", Static)))
        assert stored(service, jane_message(11)) == (False, False), "nothing applied"
        await pilot.press("j", "s")
        await until(pilot, lambda: len([n for n in notices if n.title == "Queued"]) == 2)
        await pilot.press("j", "e")  # message 9 archived
        await until(pilot, lambda: len([n for n in notices if n.title == "Queued"]) == 3)
        await until(pilot, lambda: marker(app, jane_message(9))[1] == "⧗", what="pending")
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
            doc = service.row("SELECT doc FROM messages WHERE id = ?", jane_message(9))[0]
            assert json.loads(doc).get("archived"), "the archive sent when back"
            table = screen.table

            def archived_or_gone() -> bool:
                # Marked from the service's answer, or gone after the refresh on coming back.
                index = table.source.index_of(jane_message(9))
                return index is None or table.row_text(index)[3] == ARCHIVED_MARK

            await until(pilot, archived_or_gone)

            # "Not now": every try of a mark, and the probes after it, answer 503 for a while.
            await until(pilot, lambda: not app.offline and not app.outbox.queued(), what="back")
            unread = screen.feed.index_of(jane_message(10))
            assert unread is not None and stored(service, jane_message(10)) == (False, True)
            screen.table.move_to(unread)
            await until(pilot, lambda: screen.table.cursor_key == jane_message(10))
            transport.before = [status(503, {"Retry-After": "0"}) for _ in range(6)]
            earlier = len(notices)
            await pilot.press("r")
            await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued, not failed")
            [write] = app.outbox.queued()
            said = [n for n in notices[earlier:] if "Not applied yet" in n.message]
            assert said and write.key in said[0].message and "503" in said[0].message
            assert stored(service, jane_message(10)) == (False, True)
            # The service takes it again: the probe (v2 only) finds it, and the write goes.
            await until(pilot, lambda: not app.outbox.queued(), 15, "sent once back")
            await until(pilot, lambda: stored(service, jane_message(10)) == (True, True))
            await until(pilot, lambda: not app.offline, what="back")

            # A first page that fails later (another subscriber's): said, retried by refresh.
            said = len(notices.saying("boom"))  # the start's problem is not this one
            transport.route["/v2/subscribers/joe/notifications"] = failing
            app.open_subscriber("joe")
            status_line = screen.query_one("#status", Static)
            await until(
                pilot,
                lambda: "not loaded" in plain(status_line) and len(notices.saying("boom")) > said,
                what="the failure shown, and said",
            )
            assert "^r retries" in plain(status_line), "the refresh key, as the keymap has it"
            transport.route.clear()
            await pilot.press("ctrl+r")
            await until(pilot, lambda: screen.table.row_count == 3, what="joe's rows")
            assert "not loaded" not in plain(status_line)
        finally:
            restarted.stop()
        keys = [
            r.headers["Idempotency-Key"]
            for r in transport.seen
            if r.method == "POST" and json.loads(r.content)["messageId"] == [jane_message(11)]
        ]
        assert len(keys) >= 2 and len(set(keys)) == 1, "resent with the key it was queued with"
        patches = {r.headers["Idempotency-Key"] for r in transport.seen if r.method == "PATCH"}
        assert len(patches) == 1, "the archive resent with the key it was queued with"

    marked = [
        r.headers.get("idempotency-key")
        for r in transport.seen
        if r.method == "POST"
        and json.loads(r.content) == {"messageId": [jane_message(10)], "markAs": "read"}
    ]
    assert set(marked) == {write.key}, "the 503'd mark sent with the key it was queued with"
    listed = [r.url.path for r in transport.seen if r.url.path.startswith("/v1/subscribers")]
    assert all(p.endswith(("/feed", "/unseen", "/mark-as", "/mark-all")) for p in listed)


async def test_auto_refresh_shows_changes_and_pauses_while_writes_wait(
    service: Service, transport: FaultTransport
) -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    def feed_requests() -> int:
        # The listing's pages (the v2 inbox's; counting the v1 feed's counted none here).
        return sum(r.url.path == "/v2/subscribers/jane/notifications" for r in transport.seen)

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
        await settled(pilot)  # a refresh the timer began before the write was queued, ended
        fetched = feed_requests()
        assert fetched >= 2, "the first page and the timer's refresh were counted"
        await pilot.pause(0.6)  # three timer periods with a write waiting
        assert feed_requests() == fetched, "no refresh while a write waits"
