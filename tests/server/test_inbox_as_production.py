"""The v2 inbox as production's one update rule and its filters make it: what each
action sets, every filter of the list, the count, `seen` and the bulk operations
applied (a filtered write reaches no wider than asked), and the item's shape."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE, Service, ServiceFactory, jane_message

INBOX = "/v2/subscribers/jane/notifications"
URGENT, TAGGED, DATED, CONTEXT = (jane_message(n) for n in (1, 2, 3, 7))


def marked_fixture() -> dict[str, Any]:
    """The example, with four of jane's messages carrying a severity, their own tags,
    `data` and a context."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    extra = {
        URGENT: {"severity": "high"},
        TAGGED: {"tags": ["billing"]},
        DATED: {"data": {"order": 7, "kind": "refund"}},
        CONTEXT: {"contextKeys": ["tenant:acme"]},
    }
    for message in fixture["environments"][0]["messages"]:
        message.update(extra.get(message["_id"], {}))
    return fixture


@pytest.fixture
def marked(make_service: ServiceFactory) -> Service:
    return make_service(marked_fixture())


def _flags(item: dict[str, Any]) -> tuple[bool, bool, bool, bool]:
    return (item["isRead"], item["isSeen"], item["isArchived"], item["isSnoozed"])


def test_each_action_sets_what_production_sets(service: Service) -> None:
    target = f"{INBOX}/{jane_message(5)}"  # unread and unseen
    until = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    with service.http() as http:
        # (action, read, seen, archived, snoozed) after it, in this order.
        for action, flags in [
            ("archive", (True, True, True, False)),
            ("unread", (False, True, False, False)),
            ("archive", (True, True, True, False)),
            ("unarchive", (True, True, False, False)),
            ("unread", (False, True, False, False)),
            ("archive", (True, True, True, False)),
            ("snooze", (True, True, False, True)),
            ("unsnooze", (True, True, False, False)),
        ]:
            body = {"snoozeUntil": until} if action == "snooze" else None
            answer = http.patch(f"{target}/{action}", json=body)
            assert answer.status_code == 200, (action, answer.text)
            item = answer.json()["data"]
            assert _flags(item) == flags, action
            assert item["firstSeenAt"], action
            assert ("snoozedUntil" in item) is (action == "snooze")
        # deliveredAt is left as it was: only a snooze's own end redelivers.
        assert len(item["deliveredAt"]) <= 1
        again = http.patch(f"{target}/unsnooze")
    assert again.status_code == 404
    assert again.json()["message"] == (
        f"Could not find a snoozed notification with id '{jane_message(5)}'. "
        "The notification may not exist or may not be in a snoozed state."
    )


def test_the_item_names_its_workflow(service: Service) -> None:
    with service.http() as http:
        item = http.get(INBOX, params={"limit": 1}).json()["data"][0]
    assert item["workflow"] == {
        "id": "65c000000000000000000001",
        "identifier": "order-shipped",
        "name": "Order shipped",
        "critical": False,
        "tags": ["commerce"],
        "severity": "none",
    }
    assert "snoozedUntil" not in item


@pytest.mark.parametrize(
    ("query", "found", "echoed"),
    [
        ({"severity": "high"}, [URGENT], {"severity": ["high"]}),
        ({"tags": "billing"}, [TAGGED], {"tags": ["billing"]}),
        ({"data": json.dumps({"kind": "refund"})}, [DATED], {"data": {"kind": "refund"}}),
        ({"contextKeys": "tenant:acme"}, [CONTEXT], {"contextKeys": ["tenant:acme"]}),
        ({"createdGte": "1794355200000", "createdLte": "1794484800000"}, None, None),
    ],
)
def test_every_list_filter_is_applied_and_echoed(
    marked: Service, query: dict[str, str], found: list[str] | None, echoed: dict[str, Any]
) -> None:
    with marked.http() as http:
        body = http.get(INBOX, params={**query, "limit": 100}).json()
    got = [n["id"] for n in body["data"]]
    if found is None:  # 2026-11-11 00:00 to 2026-11-12 12:00: the second and third messages
        assert got == [jane_message(2), jane_message(1)]
        assert body["filter"] == {"createdGte": 1794355200000, "createdLte": 1794484800000}
    else:
        assert got == found and body["filter"] == echoed


def test_list_booleans_and_bad_filters_as_production_reads_them(marked: Service) -> None:
    with marked.http() as http:
        unread = [n["id"] for n in http.get(INBOX, params={"read": "false"}).json()["data"]]
        for text in ("1", "TRUE", "yes", "maybe"):
            answer = http.get(INBOX, params={"read": text})
            assert answer.status_code == 200 and answer.json()["filter"] == {"read": False}
            assert [n["id"] for n in answer.json()["data"]] == unread
        assert http.get(INBOX, params={"severity": "urgent"}).status_code == 422
        bad = http.get(INBOX, params={"data": "notjson"})
        assert bad.status_code == 400
        assert bad.json()["message"] == "Invalid JSON format for data parameter"
        created = http.get(INBOX, params={"createdGte": "abc"})
        assert created.status_code == 422
        assert created.json()["errors"]["general"]["messages"] == [
            "createdGte must be an integer number"
        ]


def test_a_filtered_seen_marks_only_what_matches(marked: Service) -> None:
    with marked.http() as http:
        unseen = {"seen": "false", "limit": 100}
        before = [n["id"] for n in http.get(INBOX, params=unseen).json()["data"]]
        nothing = http.post(f"{INBOX}/seen", json={"tags": ["no-such-tag"]})
        assert nothing.status_code == 204
        assert [n["id"] for n in http.get(INBOX, params=unseen).json()["data"]] == before
        assert URGENT in before and CONTEXT in before
        http.post(f"{INBOX}/seen", json={"contextKeys": ["tenant:acme"]})
        after = [n["id"] for n in http.get(INBOX, params=unseen).json()["data"]]
    assert after == [i for i in before if i != CONTEXT]


def test_bulk_filters_as_production_reads_them(marked: Service) -> None:
    with marked.http() as http:
        unread = {"read": "false", "limit": 100}
        before = [n["id"] for n in http.get(INBOX, params=unread).json()["data"]]
        obj = http.post(f"{INBOX}/read", json={"data": {"kind": "refund"}})
        assert obj.status_code == 422
        assert obj.json()["errors"]["general"]["messages"] == ["data must be a string"]
        cnf = {"tags": {"and": [{"or": ["billing", "x"]}, {"or": ["billing"]}]}}
        assert http.post(f"{INBOX}/read", json=cnf).status_code == 204
        after = [n["id"] for n in http.get(INBOX, params=unread).json()["data"]]
        count = http.get(
            f"{INBOX}/count",
            params={"filters": json.dumps([{"severity": "high"}, {"data": {"order": 7}}])},
        )
    assert after == [i for i in before if i != TAGGED]
    assert [c["count"] for c in count.json()["data"]] == [1, 1]
