"""The inbox's writes as plans (core/inbox/plans.py), through the real outbox and client
on the local service: what each write changes there, what its answer changes in the
rows and the counts (feed.py apply_answer), what it asks first and what it says. The
app's keys build these same plans (tests/tui/test_inbox.py walks them)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from inboxdesk.client.source import V2
from inboxdesk.core.inbox import loading
from inboxdesk.core.inbox.feed import apply_answer, targets
from inboxdesk.core.inbox.plans import InboxPlan, MarkAllPlan, MarkPlan
from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.models import Count, NotificationCounts
from inboxdesk.writes import Partial, Sent
from inboxdesk.writes.before import Unread
from inboxdesk.writes.kinds import kind_of
from tests.client.faults import FaultTransport
from tests.conftest import JOE_MESSAGES, Service, ServiceFactory, jane_message
from tests.core.inbox_fixture import (
    PAGING_KEY,
    client_for,
    demo_service,
    inbox_state,
    listed,
    mark_posts,
    outbox_for,
    stored,
)
from tests.templates import DEMO_NOW, demo_at

READ_SEEN = {
    "read": (True, True),
    "unread": (False, True),
    "seen": (False, True),
    "unseen": (False, False),
}


def said(event: object) -> str:
    assert isinstance(event, Sent | Partial), event
    notice = kind_of(event.write).notice(event)
    assert notice is not None
    return notice[0]


async def test_each_mark_sets_what_its_key_sets_and_its_row_takes_the_answer(
    service: Service,
) -> None:
    """r, u, s and S on message 10 (unread and seen), each undone after: the service
    stores the flags, the row takes them from the answer, the other rows stay."""
    ten = jane_message(10)
    async with client_for(service) as client:
        outbox = outbox_for(client)
        for state, expected in READ_SEEN.items():
            feed = await listed(client)
            assert feed.index_of(ten) == 1 and stored(service, ten) == (False, True)
            plan = MarkPlan("jane", state, (ten,), feed.flags([ten]))
            assert not plan.asks, "one message: no question"
            event = await outbox.submit(plan.write())
            assert isinstance(event, Sent)
            assert stored(service, ten) == expected, state
            applied = apply_answer(feed, InboxTab.INBOX, None, event.result.messages)
            assert feed.flags([ten])[ten] == expected
            assert applied.changed == ([] if expected == (False, True) else [1]), state
            assert not applied.reload
            assert stored(service, jane_message(11)) == (False, False), "other rows untouched"
            # z: the earlier state back, and nothing left to undo.
            last = outbox.last("jane")
            assert last is not None
            await outbox.undo(last, feed.flags([ten]))
            assert stored(service, ten) == (False, True), state
            assert outbox.last("jane") is None


async def test_a_selection_is_one_request_and_the_counts_follow_from_its_answer(
    service: Service,
) -> None:
    transport = FaultTransport()
    eleven, ten, nine = (jane_message(n) for n in (11, 10, 9))
    async with client_for(service, transport) as client:
        feed = await listed(client)
        # The selection in feed order, whatever order it was made in; else the cursor's.
        assert targets({nine, eleven, ten}, jane_message(0), feed) == [eleven, ten, nine]
        assert targets(set(), jane_message(0), feed) == [jane_message(0)]
        assert targets(set(), None, feed) == []
        ids = targets({nine, eleven, ten}, None, feed)
        counts = await loading.counts(client, "jane", V2)
        assert (counts.unread.value, counts.unseen.value) == (8, 6)
        plan = MarkPlan("jane", "read", tuple(ids), feed.flags(ids))
        event = await outbox_for(client).submit(plan.write())
        assert mark_posts(transport) == [{"messageId": [eleven, ten, nine], "markAs": "read"}]
        assert all(stored(service, i) == (True, True) for i in ids)
        applied = apply_answer(feed, InboxTab.INBOX, counts, event.result.messages)  # type: ignore[union-attr]
        # Known from the answer, and what the service counts now: no count asked.
        assert applied.counts == await loading.counts(client, "jane", V2)
        assert applied.counts is not None and applied.counts.unread.value == 6
        # A count past the cap is not adjusted: it is asked for again.
        capped = NotificationCounts(Count(100, capped=True), Count(3))
        assert apply_answer(feed, InboxTab.INBOX, capped, []).counts is None


async def test_select_all_then_each_mark_is_one_request_of_every_row(service: Service) -> None:
    transport = FaultTransport()
    every = [jane_message(n) for n in range(12)]
    async with client_for(service, transport) as client:
        outbox = outbox_for(client)
        for state in READ_SEEN:
            before = {i: stored(service, i) for i in every}
            feed = await listed(client)
            ids = targets(set(every), None, feed)
            sent = len(mark_posts(transport))
            event = await outbox.submit(MarkPlan("jane", state, tuple(ids)).write())
            posts = mark_posts(transport)[sent:]
            assert len(posts) == 1 and len(posts[0]["messageId"]) == 12  # type: ignore[arg-type]

            def want(
                i: str, state: str = state, before: dict[str, tuple[bool, bool]] = before
            ) -> tuple[bool, bool]:
                if state in ("read", "unread"):
                    return READ_SEEN[state]
                return before[i][0], state == "seen"

            assert all(stored(service, i) == want(i) for i in every), state
            apply_answer(feed, InboxTab.INBOX, None, event.result.messages)  # type: ignore[union-attr]
            assert all(feed.flags([i])[i] == want(i) for i in every), "rows from the answer"


async def test_a_marks_notice_counts_what_changed_and_what_was_ignored(service: Service) -> None:
    # 11 and 9 are unseen; 10 is already seen.
    eleven, ten, nine = (jane_message(n) for n in (11, 10, 9))
    async with client_for(service) as client:
        outbox = outbox_for(client)
        feed = await listed(client)
        assert {i: stored(service, i)[1] for i in (eleven, ten, nine)} == {
            eleven: False,
            ten: True,
            nine: False,
        }
        ids = (eleven, ten, nine)
        event = await outbox.submit(MarkPlan("jane", "seen", ids, feed.flags(ids)).write())
        assert said(event) == "2 of 3 messages marked seen; 1 already was."
        # Another subscriber's message slips into the selection (a stale view).
        ids = (eleven, JOE_MESSAGES[0])
        event = await outbox.submit(MarkPlan("jane", "read", ids, feed.flags(ids)).write())
        assert "ignored 1 id" in said(event)
        assert stored(service, JOE_MESSAGES[0]) == (False, False)


async def test_mark_all_is_asked_with_its_count_and_undone(service: Service) -> None:
    every = [jane_message(n) for n in range(12)]
    unread = {i for i in every if not stored(service, i)[0]}
    async with client_for(service) as client:
        outbox = outbox_for(client)
        counts = await loading.counts(client, "jane", V2)
        listing = await loading.unread_before(client, "jane", V2)
        plan = MarkAllPlan("jane", listing, counts.unread)
        assert plan.asks and not plan.nothing
        assert plan.question() == (
            f"Mark all {len(unread)} unread messages read (archived and snoozed included)?"
        )
        assert plan.details()[-1] == "z undoes it."
        assert plan.label == "Mark all read"
        event = await outbox.submit(plan.write())
        assert isinstance(event, Sent) and event.result.refetch, "the rows are read again"
        assert all(stored(service, i)[0] for i in every)
        assert not stored(service, jane_message(3))[1], "read, and unseen as it was"
        last = outbox.last("jane")
        assert last is not None
        # The rows and counts as read again after it; the undo's answer takes them back
        # (one answer names a message once per restoring mark: read, and seen).
        feed = await listed(client)
        after = await loading.counts(client, "jane", V2)
        assert after.unread.value == 0
        undone = await outbox.undo(last)
        assert {i for i in every if not stored(service, i)[0]} == unread
        applied = apply_answer(feed, InboxTab.INBOX, after, undone.result.messages)  # type: ignore[union-attr]
        assert applied.counts == await loading.counts(client, "jane", V2) == counts
        assert outbox.last("jane") is None, "a second z: nothing to undo"
        joe = await loading.unread_before(client, "joe", V2)
        await outbox.submit(MarkAllPlan("joe", joe).write())
        assert MarkAllPlan("joe", await loading.unread_before(client, "joe", V2)).nothing


def test_mark_all_says_more_than_what_it_could_not_count() -> None:
    uncounted = Unread(None, None)
    assert "Mark all more than 150 unread" in MarkAllPlan("a", uncounted, Count(150)).question()
    odd = Count(-1.5)
    assert "Mark all more than 1,000 unread" in MarkAllPlan("a", uncounted, odd).question()
    details = " ".join(MarkAllPlan("a", uncounted).details())
    assert "one webhook per message" in details and "cannot be undone" in details


async def test_mark_all_over_a_thousand_says_it_cannot_be_undone(
    make_service: ServiceFactory,
) -> None:
    from inboxdesk.server.demo import BIG_INBOX

    service = demo_service(make_service)
    fixture = demo_at(DEMO_NOW)  # what demo_service serves
    unread = sum(
        m["subscriberId"] == BIG_INBOX and m["channel"] == "in_app" and not m["read"]
        for m in fixture["environments"][0]["messages"]
    )
    assert unread > 1000
    async with client_for(service, key=PAGING_KEY) as client:
        outbox = outbox_for(client)
        # The count endpoint stops at 100, as production's does: counted exactly,
        # archived and snoozed ones included.
        listing = await loading.unread_before(client, BIG_INBOX, V2)
        assert listing.before is None and listing.count == unread
        plan = MarkAllPlan(BIG_INBOX, listing, None)
        assert f"Mark all {unread:,} unread" in plan.question()
        details = " ".join(plan.details())
        assert f"{unread:,} webhooks" in details and "cannot be undone" in details
        event = await outbox.submit(plan.write())
        assert said(event) == f"Marked all {unread:,} unread messages read."
        last = outbox.last(BIG_INBOX)
        assert last is not None
        assert "cannot be undone: it changed more than 1,000" in (outbox.refusal(last) or "")


def test_more_than_20_messages_warn_of_the_webhooks() -> None:
    ids = tuple(jane_message(n) for n in range(100))
    warning = "webhook once per message (read, seen, unread): 100 webhooks"
    for plan in (MarkPlan("jane", "read", ids), InboxPlan("jane", "archive", ids)):
        assert plan.asks and warning in " ".join(plan.details())
    assert MarkPlan("jane", "read", ids).question() == "Mark 100 messages read?"
    assert InboxPlan("jane", "archive", ids).question() == "Archive 100 messages?"
    assert not MarkPlan("jane", "read", ids[:20]).asks and MarkPlan("jane", "read", ids[:21]).asks
    for action in ("unarchive", "snooze", "unsnooze"):
        assert not InboxPlan("jane", action, ids).asks, action


async def test_an_archive_stays_in_place_until_the_listing_is_read_again(
    service: Service,
) -> None:
    """Decision 16: an archived row is marked where it was until a refresh; its undo
    brings it back, and an unarchive this tab lists but the rows lack reads it again."""
    ten = jane_message(10)
    async with client_for(service) as client:
        outbox = outbox_for(client)
        feed = await listed(client)
        event = await outbox.submit(InboxPlan("jane", "archive", (ten,), feed.flags([ten])).write())
        assert inbox_state(service, ten)[0]
        applied = apply_answer(feed, InboxTab.INBOX, None, event.result.notifications)  # type: ignore[union-attr]
        row = feed.get(ten)
        assert row is not None and row.archived and row.status == "archived"
        assert applied.changed and not applied.reload and feed.index_of(ten) == 1
        last = outbox.last("jane")
        assert last is not None
        undone = await outbox.undo(last)
        assert not inbox_state(service, ten)[0]
        apply_answer(feed, InboxTab.INBOX, None, undone.result.notifications)  # type: ignore[attr-defined]
        assert not feed.get(ten).archived and feed.get(ten).status == ""  # type: ignore[union-attr]
        # Archived again, then the listing read again: gone from the Inbox, on Archived.
        await outbox.submit(InboxPlan("jane", "archive", (ten,)).write())
        inbox = await listed(client)
        assert inbox.get(ten) is None and len(inbox) == 11
        assert [r.id for r in (await listed(client, tab=InboxTab.ARCHIVED)).rows()] == [ten]
        event = await outbox.submit(InboxPlan("jane", "unarchive", (ten,)).write())
        assert apply_answer(inbox, InboxTab.INBOX, None, event.result.notifications).reload  # type: ignore[union-attr]


async def test_a_snooze_goes_until_its_end_and_unsnooze_ends_it(service: Service) -> None:
    ids = (jane_message(11), jane_message(10))
    until = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    async with client_for(service) as client:
        outbox = outbox_for(client)
        feed = await listed(client)
        plan = InboxPlan("jane", "snooze", ids, feed.flags(ids), until)
        event = await outbox.submit(plan.write())
        assert all(inbox_state(service, i)[1] for i in ids)
        apply_answer(feed, InboxTab.INBOX, None, event.result.notifications)  # type: ignore[union-attr]
        assert all(feed.get(i).snoozed for i in ids)  # type: ignore[union-attr]
        last = outbox.last("jane")
        assert last is not None
        await outbox.undo(last)
        assert not any(inbox_state(service, i)[1] for i in ids)
        await outbox.submit(InboxPlan("jane", "snooze", ids, None, until).write())
        await outbox.submit(InboxPlan("jane", "unsnooze", ids).write())
        assert not any(inbox_state(service, i)[1] for i in ids)
