"""Deep feed pages start from checkpoints (server/checkpoints.py) and stay exact.

Every page, at every depth and under every filter, must hold what a walk from the top
holds: checked against the order the fixture implies, across checkpoint boundaries,
with ties in `createdAt` broken by id, after marks change the filtered listings and
after new messages arrive.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from inboxdesk.models import Message
from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE, Service, ServiceFactory

SUBSCRIBER = "deep"
# The deep service's checkpoints are every STRIDE rows (the service's own stride is
# checkpoints.STRIDE, 1000): the same boundaries, crossed in a feed a twentieth of the
# size. A page is a tenth of STRIDE; the whole feed's last page of 7 starts at its end.
STRIDE = 50
PAGE = STRIDE // 10
COUNT = 2 * STRIDE + 19
FEED = f"/v1/subscribers/{SUBSCRIBER}/notifications/feed"
START = datetime(2026, 1, 1, tzinfo=UTC)


def message_id(n: int) -> str:
    return f"66d{n:021x}"


def stamp(n: int) -> str:
    # Three messages share each minute: the id breaks the tie.
    at = START + timedelta(minutes=n // 3)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def deep_fixture() -> dict[str, Any]:
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    environment = fixture["environments"][0]
    environment["subscribers"].append({"subscriberId": SUBSCRIBER, "firstName": "Deep"})
    # Triggered for a message the worker delivers.
    environment["workflows"].append(
        {
            "name": "Deep news",
            "active": True,
            "steps": [{"name": "In-app", "active": True, "template": {"type": "in_app"}}],
            "triggers": [{"type": "event", "identifier": "deep-news", "variables": []}],
        }
    )
    environment["messages"] += [
        {
            "_id": message_id(n),
            "subscriberId": SUBSCRIBER,
            "workflow": "Order shipped",
            "createdAt": stamp(n),
            "title": f"Message {n}",
            "read": n % 3 == 0,
            "seen": n % 2 == 0,
            "transactionId": f"deep-{n}",
        }
        for n in range(COUNT)
    ]
    return fixture


def newest_first(numbers: list[int]) -> list[str]:
    return [message_id(n) for n in sorted(numbers, key=lambda n: (stamp(n), message_id(n)))][::-1]


def page(service: Service, number: int, limit: int, **query: str) -> tuple[list[str], bool]:
    with service.http() as http:
        body = http.get(FEED, params={"page": number, "limit": limit, **query}).json()
    return [m["_id"] for m in body["data"]], body["hasMore"]


def assert_pages(service: Service, expected: list[str], **query: str) -> None:
    """Pages of PAGE around every checkpoint, single rows at and past the end."""
    for limit, numbers in (
        (PAGE, [0, 9, 10, 11, 19, 20, 23, 24]),
        (1, [STRIDE - 1, STRIDE, STRIDE + 1, 2 * STRIDE, len(expected) - 1, len(expected)]),
        (7, [STRIDE // 7, 2 * STRIDE // 7, len(expected) // 7]),
    ):
        for number in numbers:
            start = number * limit
            want = expected[start : start + limit]
            assert page(service, number, limit, **query) == (
                want,
                start + limit < len(expected),
            ), f"page {number} of {limit} ({query})"


@pytest.fixture
def deep(make_service: ServiceFactory) -> Service:
    service = make_service(fixture=deep_fixture())
    service.store.checkpoint_stride = STRIDE
    return service


def test_deep_pages_hold_what_a_walk_from_the_top_holds(deep: Service) -> None:
    everything = list(range(COUNT))
    assert_pages(deep, newest_first(everything))
    unread = [n for n in everything if n % 3 != 0]
    assert_pages(deep, newest_first(unread), read="false")
    unseen_read = [n for n in everything if n % 2 == 1 and n % 3 == 0]
    assert_pages(deep, newest_first(unseen_read), read="true", seen="false")


def test_deep_pages_follow_marks_and_new_messages(deep: Service) -> None:
    unread = [n for n in range(COUNT) if n % 3 != 0]
    assert_pages(deep, newest_first(unread), read="false")  # checkpoints built
    newest = newest_first(unread)[: 3 * STRIDE // 20]
    with deep.http() as http:
        marked = http.post(
            f"/v1/subscribers/{SUBSCRIBER}/messages/mark-as",
            json={"messageId": newest, "markAs": "read"},
        )
    assert marked.status_code == 201
    still_unread = [n for n in unread if message_id(n) not in set(newest)]
    assert_pages(deep, newest_first(still_unread), read="false")
    assert_pages(deep, newest_first(list(range(COUNT))))  # the unfiltered listing's built

    # New unread messages, newer than all: every later row of both listings moves down.
    template = deep_fixture()["environments"][0]
    pk = deep.row("SELECT id FROM subscribers WHERE subscriber_id = ?", SUBSCRIBER)[0]
    later = [
        Message.model_validate(
            {
                "_id": message_id(COUNT + n),
                "_environmentId": template["_id"],
                "_organizationId": deep.row("SELECT organization_id FROM environments")[0],
                "_notificationId": message_id(COUNT + n),
                "_subscriberId": pk,
                "createdAt": stamp(COUNT + n),
                "transactionId": f"later-{n}",
                "channel": "in_app",
                "read": False,
                "seen": False,
                "status": "sent",
                "cta": {},
            }
        )
        for n in range(40)
    ]
    deep.store.insert_messages(later)
    assert_pages(deep, newest_first(list(range(COUNT + 40))))
    added = list(range(COUNT, COUNT + 40))
    assert_pages(deep, newest_first(still_unread + added), read="false")

    # A message the worker delivers (a trigger's in-app step, on today's clock) is the
    # newest: it moves every later row down as well (the filtered listings follow the
    # same count of inserts).
    with deep.http() as http:
        sent = http.post("/v1/events/trigger", json={"name": "deep-news", "to": SUBSCRIBER})
    assert sent.status_code == 201
    deep.store.worker.run_due()
    (delivered,), _ = page(deep, 0, 1)
    assert delivered not in newest_first(list(range(COUNT + 40)))
    assert_pages(deep, [delivered, *newest_first(list(range(COUNT + 40)))])
