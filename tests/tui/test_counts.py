"""The inbox header's unread and unseen counts when asking for them fails: kept, marked
as old (never shown as fresh), said once, and asked again at the next refresh or write."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from inboxdesk.models import Count
from inboxdesk.tui.inbox.header import HeaderState, header_text
from tests.client.faults import FaultTransport, Hold
from tests.conftest import Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, settled, until
from tests.tui.test_inbox import failing, header, marker, opened, send_meanwhile
from tests.tui.test_inbox_v2 import MARK, refused

COUNT = "/v2/subscribers/jane/notifications/count"
MARKED = "(not refreshed · ^r retries)"


def asked(transport: FaultTransport) -> int:
    return sum(r.url.path == COUNT for r in transport.seen)


def test_old_counts_say_so_beside_them_at_every_width() -> None:
    """Fresh counts are drawn as ever; old ones keep their place and say so, before the
    person's name gives way; counts never loaded are not a spinner."""
    fresh = HeaderState(None, "x" * 200, Count(value=8), Count(value=6))
    line = header_text(fresh, 78)
    assert line.plain.endswith("    8 unread · 6 unseen · service online")
    drawn = [(line.plain[s.start : s.end], str(s.style)) for s in line.spans][-3:]
    assert drawn == [("8 unread", "bold cyan"), ("6 unseen", "yellow"), ("service online", "green")]
    stale = HeaderState(None, "x" * 200, Count(value=8), Count(value=6), stale="^r")
    old = header_text(stale, 78)
    assert f"8 unread · 6 unseen {MARKED}" in old.plain
    assert old.plain.startswith("xxxxxxxx") and old.cell_len <= 78
    for width in (48, 60, 100, 160):  # from the counts and their mark alone, up
        line = header_text(stale, width)
        assert f"8 unread · 6 unseen {MARKED}" in line.plain and line.cell_len <= width
    never = header_text(HeaderState(None, "jane", None, None, stale="f5"), 78)
    assert "… unread · … unseen (not loaded · f5 retries)" in never.plain


async def test_counts_that_fail_are_marked_old_said_once_and_asked_again(
    service: Service, transport: FaultTransport, notices: Notices
) -> None:
    """A 5xx, then an unreachable count while the pages load: the header keeps the
    counts it had, says they are old, and the app says so once (the unreachable one does
    not take the app offline and back at every probe's refresh). A refresh or a write
    asks again, and fresh counts drop the mark."""
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await opened(pilot)
        assert "8 unread · 6 unseen · service online" in header(screen)
        send_meanwhile(service)  # 9 unread, 7 unseen on the service now
        transport.route[COUNT] = failing
        await pilot.press("ctrl+r")
        await until(pilot, lambda: f"8 unread · 6 unseen {MARKED}" in header(screen), what="old")
        await until(pilot, lambda: screen.table.row_count == 13, what="the new message")
        await settled(pilot)
        assert len(notices.saying("boom")) == 1
        before = asked(transport)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: asked(transport) > before, what="asked again")
        await settled(pilot)
        assert len(notices.saying("boom")) == 1, "said once"
        assert MARKED in header(screen)
        del transport.route[COUNT]
        await pilot.press("ctrl+r")
        fresh = "9 unread · 7 unseen · service online"
        await until(pilot, lambda: fresh in header(screen), what="fresh again")

        transport.route[COUNT] = refused
        await pilot.press("ctrl+r")
        await until(pilot, lambda: notices.saying("The service is back"), what="back")
        await until(pilot, lambda: f"9 unread · 7 unseen {MARKED}" in header(screen))
        before = asked(transport)
        await pilot.press("ctrl+r")
        await until(pilot, lambda: asked(transport) > before, what="asked again")
        await settled(pilot)
        assert [n.title for n in notices].count("Service unreachable") == 1
        assert not app.offline

        # A mark's answer counts from the old counts: asked again, not taken as fresh.
        del transport.route[COUNT]
        before = asked(transport)
        await pilot.press("r")
        await until(pilot, lambda: "8 unread · " in header(screen) and MARKED not in header(screen))
        assert asked(transport) > before

        # A subscriber not found: said by its page and its load, not by its counts too,
        # which say they are not loaded (not "…", loading, for ever).
        del notices[:]
        app.open_subscriber("ghost")
        await until(pilot, lambda: "… unread · … unseen (not loaded" in header(screen))
        await settled(pilot)
        assert len(notices) == 2 and notices.saying("Pick another"), notices


LISTING = "/v2/subscribers/jane/notifications"


@dataclass
class StalePages(FaultTransport):
    """While `stale`, a listing is answered as it first was: a service may read a page
    before a write and the counts after it."""

    stale: bool = False
    pages: dict[str, bytes] = field(default_factory=dict)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if self.stale and url in self.pages:
            self.seen.append(request)
            return httpx.Response(200, content=self.pages[url], request=request)
        response = await super().handle_async_request(request)
        if request.url.path == LISTING and url not in self.pages:
            self.pages[url] = await response.aread()
        return response


async def test_counts_read_after_a_mark_reached_the_service_do_not_lose_it_twice(
    service: Service,
) -> None:
    """A refresh while a mark's answer is on its way: its counts, read after the mark,
    include it, and its page, read before, does not. The mark's answer then changes the
    row, and the counts are asked again rather than taken one lower (7 unread, not 6).
    Its undo's answer, with no counts read since, is counted from the answer."""
    transport = StalePages()
    transport.holds[MARK] = held = Hold()
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        newest = jane_message(11)
        await until(pilot, lambda: "8 unread · 6 unseen" in header(screen), what="the counts")
        assert marker(app, newest).strip() == "●◌"
        await pilot.press("g", "r")
        await until(pilot, held.reached.is_set, what="the mark at the service")
        transport.stale = True
        await pilot.press("ctrl+r")
        await until(
            pilot,
            lambda: "7 unread · 5 unseen" in header(screen) and not screen.fetching,
            what="the counts read after the mark, the page before it",
        )
        assert marker(app, newest).strip() == "●◌"
        held.release.set()
        await until(pilot, lambda: marker(app, newest).strip() == "", what="the answer")
        assert "6 unread" not in header(screen)
        await settled(pilot)
        assert "7 unread · 5 unseen" in header(screen)
        # Its undo, with no counts read since: counted from its answer, not asked again.
        transport.stale = False
        before = asked(transport)
        await pilot.press("z")
        await until(pilot, lambda: marker(app, newest).strip() == "●◌", what="undone")
        await settled(pilot)
        assert "8 unread · 6 unseen" in header(screen) and asked(transport) == before
