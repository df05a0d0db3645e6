"""The activity feed across every subscriber: production's filters without
`subscriberIds`, its paging, a scan bounded by `scan_pages` that says so, and a 402
and a 422 said in words; on the local service and a production-shaped server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from inboxdesk.client import ClientOptions, InboxClient, Limits, ValidationError
from inboxdesk.client.feed import BeyondRetention, FeedFilter, FeedScan, feed_filter, scan_feed
from inboxdesk.core.delivery.grouping import Grouping
from inboxdesk.models.delivery import ActivityNotification
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import FAILED_LAST_HOUR, FILLER, STORIES, recent_feed_fixture
from tests.production_shaped import production_shaped


@pytest.fixture
def everyone(make_service: ServiceFactory) -> Service:
    return make_service(recent_feed_fixture())


def _ago(hours: float) -> str:
    return (datetime.now(UTC) - timedelta(hours=hours)).isoformat()


def _scan(url: str, wanted: FeedFilter, **kw: Any) -> FeedScan:
    async def go() -> FeedScan:
        async with InboxClient(url, STAGING_KEY) as client:
            return await scan_feed(client, wanted, **kw)

    return asyncio.run(go())


def _who(found: list[ActivityNotification]) -> list[str]:
    return [n.subscriber.subscriber_id if n.subscriber else "" for n in found]


def test_failed_in_the_last_hour_across_every_subscriber(everyone: Service) -> None:
    scan = _scan(everyone.url, FeedFilter(after=_ago(1), failed=True))
    assert _who(scan.found) == ["ann", "bob", "cy", "dee", "eve", "jane", "bob"]
    assert len(scan.found) == FAILED_LAST_HOUR
    assert (scan.scanned, scan.pages, scan.bounded) == (9, 1, False)
    assert scan.summary() == "scanned 9 (all)"


@pytest.mark.parametrize(
    "wanted, expected",
    [
        (lambda: FeedFilter(channels=["email"]), ["ann", "joe"]),
        (lambda: FeedFilter(after=_ago(24), severity=["high"]), ["ann", "bob"]),
        (lambda: FeedFilter(emails=["joe@example.test"], after=_ago(24)), ["joe", "joe"]),
        (lambda: FeedFilter(context_keys=["tenant:acme"]), ["jane"]),
        (lambda: FeedFilter(topic_key="orders"), ["ann"]),
        (
            lambda: feed_filter(workflows=["login-code"], after=_ago(1)),
            ["ann", "bob", "cy", "dee", "eve", "jane", "bob"],
        ),
        (
            # Between cy's 15 minutes and dee's 20: no edge to fall on.
            lambda: feed_filter(workflows=["65c0000000000000000000A1"], after=_ago(17.5 / 60)),
            ["ann", "bob", "cy"],
        ),
        (lambda: feed_filter(workflows=["Order shipped"], after=_ago(1), failed=True), []),
    ],
)
def test_each_filter_without_a_subscriber(
    everyone: Service, wanted: Callable[[], FeedFilter], expected: list[str]
) -> None:
    # The filter is made as the test runs: its times are relative to now, and a run may
    # reach this test minutes after collecting it.
    assert _who(_scan(everyone.url, wanted()).found) == expected


def test_a_bounded_scan_says_it_stopped_and_groups_grow_per_page(everyone: Service) -> None:
    grouping = Grouping()
    heard: list[tuple[int, int]] = []

    def page(kept: list[ActivityNotification], scan: FeedScan) -> None:
        grouping.add(kept)
        heard.append((scan.pages, grouping.scanned))

    scan = _scan(everyone.url, FeedFilter(), scan_pages=2, on_page=page)
    assert heard == [(1, 50), (2, 100)]
    assert (scan.scanned, scan.bounded) == (100, True)
    assert scan.summary() == "scanned 100 of more: narrow the window or the filters"
    whole = _scan(everyone.url, FeedFilter())
    assert (whole.scanned, whole.pages, whole.bounded) == (len(STORIES) + FILLER, 3, False)


def test_scan_pages_is_the_setting_by_default(everyone: Service) -> None:
    async def go() -> FeedScan:
        options = ClientOptions(limits=Limits(scan_pages=1))
        async with InboxClient(everyone.url, STAGING_KEY, options) as client:
            return await scan_feed(client, FeedFilter())

    scan = asyncio.run(go())
    assert (scan.scanned, scan.pages, scan.bounded) == (50, 1, True)


def test_production_shaped_pages_without_subscriber_ids(everyone: Service) -> None:
    seen: list[str] = []
    with production_shaped(everyone.url, seen=seen) as url:
        scan = _scan(url, FeedFilter(channels=["sms"], after=_ago(24 * 5)))
    queries = [parse_qs(urlsplit(p).query) for p in seen if p.startswith("/v1/notifications")]
    assert [q["page"] for q in queries] == [["0"]]
    assert all(q["limit"] == ["50"] and "subscriberIds" not in q for q in queries)
    assert queries[0]["channels"] == ["sms"]
    assert len(scan.found) == 8 and not scan.bounded


def test_production_shaped_402_said_in_words(everyone: Service) -> None:
    with production_shaped(everyone.url, retention_hours=24) as url:
        assert len(_scan(url, FeedFilter(after=_ago(23))).found) == 11
        with pytest.raises(BeyondRetention) as caught:
            _scan(url, FeedFilter(after=_ago(24 * 7)))
    said = str(caught.value)
    assert caught.value.status == 402
    assert "The plan does not keep the activity feed back to" in said
    assert "retention" in said and "Narrow the window" in said


def test_a_422_names_the_filter(everyone: Service) -> None:
    with pytest.raises(ValidationError) as caught:
        _scan(everyone.url, FeedFilter(channels=["fax"]))
    assert caught.value.status == 422
    assert "channels" in str(caught.value) and "Check the filters" in str(caught.value)


def test_a_scan_reads_at_least_one_page(everyone: Service) -> None:
    with pytest.raises(ValueError, match="scan_pages"):
        _scan(everyone.url, FeedFilter(), scan_pages=0)
