"""The inbox state without widgets (core/inbox/feed.py): sparse pages, merging,
parsing on demand, the counts after a write."""

from __future__ import annotations

from inboxdesk.client.source import V2
from inboxdesk.core.inbox.feed import (
    KEEP_PAGES,
    PAGE_SIZE,
    Feed,
    Filtered,
    no_longer_listed,
    targets,
)
from inboxdesk.models import FeedItem
from inboxdesk.server.fixtures import load_fixture, read_fixture
from inboxdesk.server.store import Store
from tests.conftest import EXAMPLE, STAGING_KEY, ServiceFactory


def jane_messages(tmp_path: object) -> list[FeedItem]:
    store = Store(f"{tmp_path}/state.db")
    load_fixture(store, read_fixture(EXAMPLE))
    caller = store.authenticate(STAGING_KEY)
    assert caller is not None
    return [FeedItem.model_validate(m) for m in store.feed(caller, "jane", 0, 100)[0]]


def test_rows_keep_their_item_and_merge_in_place(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    feed = Feed()
    changed = feed.add_page(0, messages, has_more=False, total=len(messages))
    assert changed == list(range(len(messages)))
    assert len(feed) == 12 and feed.exact
    assert [feed.index_of(m.id or "") for m in messages] == list(range(12))
    assert all(feed.message(m.id or "") is m for m in messages)
    rows = list(feed.rows())
    again = [m.model_copy(deep=True) for m in messages]
    again[3].read = not again[3].read
    assert feed.add_page(0, again, has_more=False, total=12) == [3], "only the changed row"
    assert [r is o for r, o in zip(feed.rows(), rows, strict=True)].count(False) == 1


def test_update_and_flags_reach_the_parsed_message(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    feed = Feed()
    feed.add_page(0, messages, False, 12)
    target = messages[0]
    was = target.read
    newer = target.model_copy(update={"read": not was, "seen": True})
    assert feed.update([newer]) == [0]
    parsed = feed.message(target.id or "")
    assert parsed is not None and parsed.read is (not was)
    assert feed.flags([target.id or ""]) == {target.id: (not was, True)}


def test_sparse_pages_and_a_capped_total(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    feed = Feed()
    # Production caps totalCount at the page size and says only that there is more.
    feed.add_page(0, messages, has_more=True, total=len(messages))
    assert len(feed) == 13 and not feed.exact, "a lower bound: one more than known"
    assert feed.row(12) is None and feed.missing(0, 20) == []
    feed.add_page(5, messages, has_more=True, total=len(messages))
    assert len(feed) == 5 * PAGE_SIZE + 13 and feed.row(5 * PAGE_SIZE) is not None
    assert feed.missing(0, 600) == [1, 2, 3, 4], "only the pages in between are missing"
    feed.end_found(5 * PAGE_SIZE + 12)
    assert feed.exact and len(feed) == 5 * PAGE_SIZE + 12
    # A total above the page size comes from a service that counts everything.
    counted = Feed()
    counted.add_page(0, messages[:1], has_more=True, total=10_000)
    assert len(counted) == 10_000 and counted.exact


def test_far_pages_are_dropped(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    feed = Feed()
    for page in range(KEEP_PAGES + 10):
        feed.add_page(
            page, [m.model_copy(update={"id": f"{page}-{m.id}"}) for m in messages], True, None
        )
    feed.drop_far(0)
    assert len(feed.pages) == KEEP_PAGES and 0 in feed.pages
    assert max(feed.pages) == KEEP_PAGES - 1
    assert feed.get(f"{KEEP_PAGES + 5}-{messages[0].id}") is None
    feed.add_page(KEEP_PAGES + 5, messages, True, None)
    feed.drop_far(0, (KEEP_PAGES + 5) * PAGE_SIZE)  # the cursor at the top, the view far down
    assert 0 in feed.pages and KEEP_PAGES + 5 in feed.pages, "pages in view are kept"


def test_text_filter_and_targets(tmp_path: object) -> None:
    feed = Feed()
    feed.add_page(0, jane_messages(tmp_path), False, 12)
    found = Filtered.of(feed, "#1005")
    assert [r.heading for r in found.found] == ["Order #1005 shipped"]
    first = feed.row(0)
    assert first is not None
    assert targets(set(), first.id, feed) == [first.id]
    chosen = {"65f000000000000000000002", "65f000000000000000000009", "elsewhere"}
    assert targets(chosen, first.id, feed) == [
        "65f000000000000000000009",
        "65f000000000000000000002",
        "elsewhere",
    ]


async def test_a_write_adjusts_the_counts_from_its_answer_without_counting_again(
    make_service: ServiceFactory,
) -> None:
    """Past the cap the counts cost an end search: after a mark or an archive they
    follow from the service's answer (apply_answer), and are searched for again only on
    refresh."""
    from inboxdesk.core.inbox import ends, loading
    from inboxdesk.core.inbox.feed import apply_answer
    from inboxdesk.core.inbox.plans import InboxPlan, MarkPlan
    from inboxdesk.core.inbox.tabs import InboxTab
    from tests.client.test_subscribers_counts import busy_fixture
    from tests.core.inbox_fixture import client_for, listed, outbox_for

    service = make_service(fixture=busy_fixture(150))
    async with client_for(service) as client:
        outbox = outbox_for(client)
        feed = await listed(client)
        capped = await loading.counts(client, "jane", V2)
        assert loading.capped(capped)
        counts = await ends.exact_counts(client, "jane", capped, V2)
        unread, unseen = counts.unread.value, counts.unseen.value
        assert unread >= 100 and not counts.unread.capped, "past the service's cap"
        asked = len(client.requests.newest_first())
        first = next(feed.rows())
        assert not first.read and not first.seen
        event = await outbox.submit(
            MarkPlan("jane", "read", (first.id,), feed.flags([first.id])).write()
        )
        counts = apply_answer(feed, InboxTab.INBOX, counts, event.result.messages).counts  # type: ignore[union-attr,assignment]
        assert counts is not None
        assert (counts.unread.value, counts.unseen.value) == (unread - 1, unseen - 1)
        # Archived: read already, so neither count moves.
        event = await outbox.submit(
            InboxPlan("jane", "archive", (first.id,), feed.flags([first.id])).write()
        )
        after = apply_answer(feed, InboxTab.INBOX, counts, event.result.notifications)  # type: ignore[union-attr]
        assert feed.get(first.id).archived  # type: ignore[union-attr]
        assert after.counts == counts
        since = [
            r.url
            for r in client.requests.newest_first()[: len(client.requests.newest_first()) - asked]
        ]
        assert not [u for u in since if "/count" in u or "limit=1&" in u], since
        # And they are what the service counts, searched for on refresh.
        fresh = await ends.exact_counts(
            client, "jane", await loading.counts(client, "jane", V2), V2
        )
        assert (fresh.unread.value, fresh.unseen.value) == (unread - 1, unseen - 1)


def test_a_selected_row_a_page_no_longer_lists_is_named_unless_it_moved_to_a_loaded_page(
    tmp_path: object,
) -> None:
    """What a refresh takes out of the selection: the rows its page dropped, not those
    that only moved to another page still loaded, nor rows that were never selected."""
    messages = jane_messages(tmp_path)
    ids = [m.id or "" for m in messages]
    feed = Feed()
    feed.add_page(0, messages[:8], has_more=True, total=None)
    feed.add_page(1, messages[8:], has_more=False, total=None)
    before = feed.pages[0]
    # 1 and 2 archived, 3 pushed down to page 1 (loaded), 4 gone but never selected.
    feed.add_page(0, [m for n, m in enumerate(messages[:8]) if n not in (1, 2, 3, 4)], True, None)
    feed.add_page(1, [messages[3], *messages[8:]], False, None)
    assert no_longer_listed({ids[0], ids[1], ids[2], ids[3]}, before, feed) == {ids[1], ids[2]}
    assert no_longer_listed(set(), before, feed) == frozenset()
