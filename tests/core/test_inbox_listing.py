"""The inbox's listings (core/inbox: tabs, loading, listing, placing) on the real local
service: what each tab lists and counts, the v1 feed of an older service, the true
length where the service gives no total, and where a found message lands. The app
shows these (tests/tui/test_inbox.py and test_find.py walk them)."""

from __future__ import annotations

import pytest

from inboxdesk.client import InboxdeskError, NoV2Inbox
from inboxdesk.client.source import V1, V2
from inboxdesk.core.inbox import loading
from inboxdesk.core.inbox.feed import PAGE_SIZE, Feed, Row
from inboxdesk.core.inbox.listing import Listing, ListingState, pages_in_view
from inboxdesk.core.inbox.placing import Anchor, Move, goto_tabs, place
from inboxdesk.core.inbox.plans import InboxPlan, MarkPlan
from inboxdesk.core.inbox.tabs import InboxTab, listing_query, tabs_of
from inboxdesk.models.inbox import InboxNotification
from tests.client.faults import FaultTransport
from tests.conftest import Service, ServiceFactory, jane_message
from tests.core.inbox_fixture import (
    PAGING_KEY,
    CappingTransport,
    capped_big_inbox,
    client_for,
    demo_service,
    feed_requests,
    inbox_requests,
    listed,
    outbox_for,
    stored,
    visible,
)


async def test_each_tab_lists_and_counts_what_the_subscriber_sees(service: Service) -> None:
    eleven = jane_message(11)  # unread and unseen
    async with client_for(service) as client:
        listings = {tab: await listed(client, tab=tab) for tab in InboxTab}
        assert {tab: len(listing) for tab, listing in listings.items()} == {
            InboxTab.INBOX: 12,
            InboxTab.UNREAD: 8,
            InboxTab.UNSEEN: 6,
            InboxTab.ARCHIVED: 0,
            InboxTab.SNOOZED: 0,
            InboxTab.ALL: 12,
        }
        unread, unseen = listings[InboxTab.UNREAD], listings[InboxTab.UNSEEN]
        assert all(not r.read for r in unread.rows()) and unread.exact
        assert all(not r.seen for r in unseen.rows()) and unseen.exact
        assert listings[InboxTab.SNOOZED].exact
        await outbox_for(client).submit(InboxPlan("jane", "archive", (eleven,)).write())
        inbox = await listed(client)
        assert eleven not in [r.id for r in inbox.rows()] and len(inbox) == 11
        # The header counts what the Unread and Unseen tabs show: no archived message.
        counts = await loading.counts(client, "jane", V2)
        assert (counts.unread.value, counts.unseen.value) == (7, 5)
        archived = await listed(client, tab=InboxTab.ARCHIVED)
        row = archived.get(eleven)
        # Archiving read and saw it, as production's archive does.
        assert [r.id for r in archived.rows()] == [eleven] and row is not None
        assert (row.read, row.seen, row.archived) == (True, True, True)
        assert len(await listed(client, tab=InboxTab.ALL)) == 12


def test_the_command_lines_flags_read_the_apps_tabs() -> None:
    assert listing_query() == InboxTab.INBOX.query == {"archived": False, "snoozed": False}
    assert listing_query(unread=True) == InboxTab.UNREAD.query
    assert listing_query(unseen=True) == InboxTab.UNSEEN.query
    assert listing_query("archived") == InboxTab.ARCHIVED.query
    assert listing_query("snoozed") == InboxTab.SNOOZED.query
    assert listing_query("all") == InboxTab.ALL.query == {}
    assert listing_query("archived", unread=True) == {"archived": True, "read": False}


async def test_an_older_service_is_read_through_its_v1_feed(make_service: ServiceFactory) -> None:
    service = make_service(v2_inbox=False)
    async with client_for(service) as client:
        with pytest.raises(NoV2Inbox):
            await listed(client)
        sizes = {
            tab: len(await listed(client, tab=tab, source=V1)) for tab in tabs_of(V1.abilities)
        }
        assert sizes == {
            InboxTab.INBOX: 12,
            InboxTab.UNREAD: 8,
            InboxTab.UNSEEN: 6,
            InboxTab.ALL: 12,
        }
        # A mark is the v1 endpoint's: it works there as on the v2 inbox.
        await outbox_for(client).submit(MarkPlan("jane", "read", (jane_message(11),)).write())
        assert stored(service, jane_message(11)) == (True, True)
        counts = await loading.counts(client, "jane", V1)
        assert (counts.unread.value, counts.unseen.value) == (7, 5)


async def test_the_true_length_is_found_with_few_probes_and_the_last_page_whole(
    make_service: ServiceFactory,
) -> None:
    """The v2 inbox gives no total: single-row probes gallop then halve over pages,
    never a walk through them, and the last page comes with the search, so `G` needs no
    request."""
    from inboxdesk.server.demo import BIG_INBOX

    transport = FaultTransport()
    service = capped_big_inbox(make_service, transport)
    size = visible(service, PAGING_KEY, BIG_INBOX)
    async with client_for(service, transport, PAGING_KEY) as client:
        state = ListingState(Listing(BIG_INBOX, 1))
        (first,) = await loading.pages(client, BIG_INBOX, [0], InboxTab.INBOX, V2)
        state.feed.add_page(0, first.items, first.has_more, first.total)
        assert len(state.feed) == PAGE_SIZE + 1 and not state.feed.exact  # "100+"
        assert state.search_end()
        end = await loading.find_end(client, BIG_INBOX, len(state.feed), InboxTab.INBOX, V2)
        assert end.length == size
        pages = -(-size // PAGE_SIZE)
        assert len(inbox_requests(transport.seen, "1")) <= 2 * pages.bit_length()
        last_page = str((size - 1) // PAGE_SIZE * PAGE_SIZE)
        offsets = [r.url.params["offset"] for r in inbox_requests(transport.seen, "100")]
        assert offsets == ["0", last_page]
        state.feed.add_page(end.page, end.last.items, end.last.has_more, end.last.total)
        state.feed.end_found(end.length)
        assert len(state.feed) == size and state.feed.exact
        assert state.feed.row(size - 1) is not None, "the last row is there for G"
        assert state.known_pages() == pages and not state.all_loaded()
        assert not state.search_end(asked=True), "exact: nothing more to search"
        # A probe that fails is the search's failure (the screen keeps it quiet).
        capping = transport.inner
        assert isinstance(capping, CappingTransport)
        capping.fail = 1
        with pytest.raises(InboxdeskError):
            await loading.find_end(client, BIG_INBOX, PAGE_SIZE + 1, InboxTab.INBOX, V2)


async def test_a_feed_that_counts_everything_is_exact_from_its_first_page(
    make_service: ServiceFactory,
) -> None:
    from inboxdesk.server.demo import BIG_INBOX, BIG_INBOX_SIZE

    transport = FaultTransport()
    service = demo_service(make_service, v2_inbox=False)

    def exact(body: object) -> object:
        # An older service's exact total; the local service caps it as production does.
        assert isinstance(body, dict)
        return {**body, "totalCount": BIG_INBOX_SIZE}

    transport.inner = CappingTransport(transport.inner, exact)
    async with client_for(service, transport, PAGING_KEY) as client:
        feed = await listed(client, BIG_INBOX, source=V1)
        assert len(feed) == BIG_INBOX_SIZE and feed.exact
        # `G` then asks for the last page alone.
        last = (BIG_INBOX_SIZE - 1) // PAGE_SIZE
        assert feed.missing(BIG_INBOX_SIZE - 1, BIG_INBOX_SIZE) == [last]
        assert [r.url.params["page"] for r in feed_requests(transport.seen, "100")] == ["0"]


def test_the_search_for_the_end_runs_by_itself_once_and_again_when_g_asks() -> None:
    state = ListingState(Listing("jane", 1))
    state.feed.add_page(0, [], has_more=True, total=None)
    assert state.search_end(), "by itself, once the first page is in"
    assert not state.search_end(asked=True), "not twice at once"
    state.end_running = False  # it failed (the screen's worker handler)
    assert not state.search_end(), "not again by itself"
    assert state.search_end(asked=True), "again when G asks"
    # Pages asked for once, unless read again.
    assert state.wanted([0, 1]) == [0, 1] and state.busy
    assert state.wanted([1, 2]) == [2]
    assert state.wanted([1], refresh=True) == [1]
    assert pages_in_view(top=250, height=40, length=1000) == [0, 2]
    assert pages_in_view(top=0, height=40, length=0) == [0]


def notification(n: int) -> InboxNotification:
    return InboxNotification.model_validate({"id": f"n{n}", "subject": f"N {n}"})


def feed_of(start: int, count: int, has_more: bool = True) -> Feed:
    feed = Feed()
    page = start // PAGE_SIZE
    feed.add_page(page, [notification(n) for n in range(start, start + count)], has_more, None)
    return feed


def test_where_a_found_message_lands() -> None:
    item = Row.of(notification(250)).item
    anchor = Anchor("ada", "inbox", "n250", item, 250)
    inbox = InboxTab.INBOX
    # Another subscriber's: their inbox opens, once.
    step = place(anchor, "jane", inbox, Feed())
    assert step.move is Move.OPEN and step.anchor is not None and step.anchor.opening
    assert place(step.anchor, "jane", inbox, Feed()).move is Move.WAIT
    # Another tab: that tab opens; its rows not yet in: wait.
    assert place(anchor, "ada", InboxTab.UNREAD, Feed()).move is Move.TAB
    assert place(anchor, "ada", inbox, Feed()).move is Move.WAIT
    # Its row loaded: the cursor goes there.
    at = place(anchor, "ada", inbox, feed_of(200, 100))
    assert (at.move, at.index, at.anchor) == (Move.AT, 250, None)
    # Its page not loaded: the listing holds it; its page is asked for once.
    first = feed_of(0, 100)
    fetch = place(anchor, "ada", inbox, first)
    assert (fetch.move, fetch.index) == (Move.FETCH, 250)
    assert fetch.anchor is not None and fetch.anchor.asked
    first.holds(251)
    # Another page came first: its own is still on the way, never "in no list".
    assert place(fetch.anchor, "ada", inbox, first).move is Move.WAIT
    # Moved since it was found: where it is now.
    moved = feed_of(200, 100)
    moved.add_page(2, [notification(n) for n in range(199, 299)], True, None)
    assert place(anchor, "ada", inbox, moved).index == 251
    # Gone from the rows where they are loaded: shown alone.
    gone = feed_of(200, 100)
    gone.add_page(2, [notification(n) for n in range(300, 400)], True, None)
    assert place(anchor, "ada", inbox, gone).move is Move.ALONE


def test_the_go_to_looks_in_the_tab_shown_then_in_every_message() -> None:
    assert goto_tabs(InboxTab.UNREAD) == [InboxTab.UNREAD, InboxTab.ALL]
    assert goto_tabs(InboxTab.INBOX) == [InboxTab.INBOX, InboxTab.ALL]
    assert goto_tabs(InboxTab.ALL) == [InboxTab.ALL]


async def test_the_go_to_finds_a_row_in_a_tabs_own_listing(service: Service) -> None:
    async with client_for(service) as client:
        # txn-3's message is read: not on Unread, row 8 of All.
        three = jane_message(3)
        assert await loading.locate(client, "jane", three, InboxTab.UNREAD, V2) is None
        assert await loading.locate(client, "jane", three, InboxTab.ALL, V2) == 8
