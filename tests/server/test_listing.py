"""The listings as production pages them, paging edges included."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
from inboxdesk.server.store import Store
from tests.conftest import EXAMPLE, MAILGUN, Service, ServiceFactory, jane_message

STAGING_ENV = "65d000000000000000000002"

FEED = "/v1/subscribers/jane/notifications/feed"


def test_feed_is_in_app_only_newest_first_with_page_fields(service: Service) -> None:
    with service.http() as http:
        body = http.get(FEED, params={"limit": 5}).json()
    assert set(body) == {"data", "page", "pageSize", "totalCount", "hasMore"}
    # totalCount stops at the page size, as production's does.
    assert (body["page"], body["pageSize"], body["totalCount"], body["hasMore"]) == (0, 5, 5, True)
    assert [m["_id"] for m in body["data"]] == [jane_message(n) for n in (11, 10, 9, 8, 7)]
    assert all(m["channel"] == "in_app" for m in body["data"])


@pytest.mark.parametrize(
    ("page", "limit", "count", "has_more"),
    [
        (0, 12, 12, False),
        (1, 11, 1, False),
        (2, 5, 2, False),
        (3, 5, 0, False),
        (0, 100, 12, False),
        (1, 6, 6, False),
        (0, 1, 1, True),
    ],
)
def test_feed_paging_edges(
    service: Service, page: int, limit: int, count: int, has_more: bool
) -> None:
    with service.http() as http:
        body = http.get(FEED, params={"page": page, "limit": limit}).json()
    # Production counts at most limit + 1 rows past the offset: totalCount is this page's.
    assert (len(body["data"]), body["hasMore"], body["totalCount"]) == (count, has_more, count)


def test_paging_visits_every_message_once(service: Service) -> None:
    seen: list[str] = []
    with service.http() as http:
        page = 0
        while True:
            body = http.get(FEED, params={"page": page, "limit": 5}).json()
            seen += [m["_id"] for m in body["data"]]
            if not body["hasMore"]:
                break
            page += 1
    assert sorted(seen) == sorted(jane_message(n) for n in range(12))


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"read": "false"}, [n for n in range(12) if n % 3]),
        ({"seen": "false"}, [n for n in range(12) if n % 2]),
        ({"read": "true", "seen": "true"}, [0, 6]),
    ],
)
def test_feed_filters(service: Service, params: dict[str, str], expected: list[int]) -> None:
    with service.http() as http:
        body = http.get(FEED, params={**params, "limit": 100}).json()
    assert sorted(m["_id"] for m in body["data"]) == [jane_message(n) for n in expected]
    assert body["totalCount"] == len(expected)


@pytest.mark.parametrize(
    "params", [{"limit": 0}, {"limit": 101}, {"page": -1}, {"limit": "ten"}, {"read": "maybe"}]
)
def test_bad_paging_is_422(service: Service, params: dict[str, object]) -> None:
    with service.http() as http:
        response = http.get(FEED, params=params)
    assert response.status_code == 422
    assert set(response.json()["errors"]) <= {"limit", "page", "read"}


def test_unseen_count(service: Service) -> None:
    with service.http() as http:
        assert http.get("/v1/subscribers/jane/notifications/unseen").json() == {
            "data": {"count": 6}
        }
        assert (
            http.get("/v1/subscribers/jane/notifications/unseen", params={"seen": "true"}).json()[
                "data"
            ]["count"]
            == 6
        )
        assert (
            http.get("/v1/subscribers/jane/notifications/unseen", params={"limit": 2}).json()[
                "data"
            ]["count"]
            == 2
        )
        assert http.get("/v1/subscribers/nobody/notifications/unseen").status_code == 404


def test_subscribers_list_and_get(service: Service) -> None:
    with service.http() as http:
        first = http.get("/v1/subscribers", params={"limit": 1}).json()
        second = http.get("/v1/subscribers", params={"limit": 1, "page": 1}).json()
        one = http.get("/v1/subscribers/jane").json()["data"]
        missing = http.get("/v1/subscribers/nobody")
    assert set(first) == {"data", "page", "pageSize", "hasMore"}
    assert first["hasMore"] is True and second["hasMore"] is False
    assert {first["data"][0]["subscriberId"], second["data"][0]["subscriberId"]} == {"jane", "joe"}
    assert one["firstName"] == "Jane" and one["deleted"] is False
    assert missing.status_code == 404 and missing.json()["message"] == "Subscriber nobody not found"


def test_messages_filters(service: Service) -> None:
    with service.http() as http:
        everything = http.get("/v1/messages", params={"limit": 1000}).json()
        email = http.get("/v1/messages", params={"channel": "email"}).json()
        joe = http.get("/v1/messages", params={"subscriberId": "joe"}).json()
        txn = http.get(
            "/v1/messages", params=[("transactionId", "txn-1"), ("transactionId", "txn-mail")]
        ).json()
        nobody = http.get("/v1/messages", params={"subscriberId": "nobody"}).json()
    assert everything["totalCount"] == 16
    assert [m["_id"] for m in email["data"]] == [jane_message(200)]
    assert joe["totalCount"] == 3
    assert sorted(m["transactionId"] for m in txn["data"]) == ["txn-1", "txn-mail"]
    assert nobody["totalCount"] == 0 and nobody["data"] == []


def test_integrations_all_and_active(service: Service) -> None:
    with service.http() as http:
        everything = http.get("/v1/integrations").json()["data"]
        active = http.get("/v1/integrations/active").json()["data"]
    # The key's environment only: 8 in Staging, one of them inactive.
    assert len(everything) == 8 and len(active) == 7
    assert all(i["active"] for i in active)
    assert {i["channel"] for i in everything} == {"in_app", "email", "sms", "chat", "push"}
    assert {i["_environmentId"] for i in everything} == {STAGING_ENV}


def test_org_wide_integrations_span_the_organization(make_service: ServiceFactory) -> None:
    service = make_service(org_wide_integrations=True)
    with service.http() as http:
        everything = http.get("/v1/integrations").json()["data"]
        active = http.get("/v1/integrations/active").json()["data"]
    # Both environments of the organization: 8 in Staging, 2 in Other.
    assert len(everything) == 10 and len(active) == 9
    assert all(i["active"] for i in active)
    assert len({i["_environmentId"] for i in everything}) == 2


def test_feed_items_are_production_feed_items(service: Service) -> None:
    """NotificationFeedItemDto: subscriber and workflow subsets, string content, job id."""
    with service.http() as http:
        items = http.get(FEED, params={"limit": 100}).json()["data"]
    for item in items:
        assert set(item["subscriber"]) <= {"_id", "firstName", "lastName", "avatar", "subscriberId"}
        assert item["subscriber"]["subscriberId"] == "jane"
        assert set(item["template"]) <= {"_id", "tags"} and item["template"]["_id"]
        assert isinstance(item["content"], str)
        assert isinstance(item["_jobId"], str) and item["archived"] is False
    blocks = next(i for i in items if i["_id"] == jane_message(4))
    assert blocks["content"] == "Your invoice is ready.\nPay now"


def test_feed_of_an_unknown_subscriber_is_400_with_productions_words(service: Service) -> None:
    with service.http() as http:
        response = http.get("/v1/subscribers/nobody/notifications/feed", params={"limit": 5})
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == (
        "Subscriber not found for this environment with the id: nobody. "
        "Make sure to create a subscriber before fetching the feed."
    )
    assert body["path"] == "/v1/subscribers/nobody/notifications/feed?limit=5"


def payload_fixture() -> dict[str, Any]:
    """The example, with payloads on four of jane's messages."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    payloads = {
        0: {"order": {"id": 7, "tier": "gold"}, "gift": True},
        1: {"order": {"id": 7, "tier": "silver"}, "gift": False},
        2: {"order": {"id": 8}, "note": None, "tags": ["a", "b"]},
        3: {"order": {"id": 7.0, "tier": "gold"}},
    }
    for message in fixture["environments"][0]["messages"]:
        for n, payload in payloads.items():
            if message["_id"] == jane_message(n):
                message["payload"] = payload
    return fixture


def encoded(value: object, urlsafe: bool = False) -> str:
    raw = json.dumps(value).encode()
    return (
        base64.urlsafe_b64encode(raw).rstrip(b"=") if urlsafe else base64.b64encode(raw)
    ).decode()


@pytest.mark.parametrize(
    ("partial", "expected"),
    [
        ({"order": {"id": 7}}, [0, 1, 3]),
        ({"order.id": 7, "order": {"tier": "gold"}}, [0, 3]),
        ({"gift": True}, [0]),
        ({"gift": False}, [1]),
        ({"tags": ["a", "b"]}, [2]),
        ({"order": {"id": "7"}}, []),
        ({"nobody": "x"}, []),
    ],
)
def test_feed_payload_filter_keeps_items_holding_the_partial_payload(
    make_service: ServiceFactory, partial: dict[str, Any], expected: list[int]
) -> None:
    service = make_service(fixture=payload_fixture())
    with service.http() as http:
        for urlsafe in (False, True):
            body = http.get(
                FEED, params={"limit": 100, "payload": encoded(partial, urlsafe)}
            ).json()
            assert sorted(m["_id"] for m in body["data"]) == [jane_message(n) for n in expected]


@pytest.mark.parametrize("payload", ["invalid", "e30", base64.b64encode(b"{nope").decode(), "////"])
def test_feed_payload_that_is_not_base64_json_is_400(service: Service, payload: str) -> None:
    with service.http() as http:
        response = http.get(FEED, params={"payload": payload})
    if payload == "e30":  # "{}" without padding: an empty partial payload, no error
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Invalid payload, the JSON object should be encoded to base64 string."
    )


def test_messages_limit_over_1000_is_400(service: Service) -> None:
    with service.http() as http:
        too_many = http.get("/v1/messages", params={"limit": 1001})
        most = http.get("/v1/messages", params={"limit": 1000})
    assert too_many.status_code == 400
    assert too_many.json()["message"] == "Limit can not be larger then 1000"
    assert too_many.json()["path"] == "/v1/messages?limit=1001"
    assert most.status_code == 200


def test_credentials_are_withheld_from_api_key_callers(make_service: ServiceFactory) -> None:
    """As production's since May 2026: lists carry `credentials: {}`, set primary none;
    older deployments (send_credentials) sent them decrypted."""
    for send in (False, True):
        service = make_service(send_credentials=send)
        with service.http() as http:
            listed = http.get("/v1/integrations").json()["data"]
            active = http.get("/v1/integrations/active").json()["data"]
            made = http.post(f"/v1/integrations/{MAILGUN}/set-primary").json()["data"]
        for integration in [*listed, *active]:
            assert (integration["credentials"] != {}) is send, integration["_id"]
        assert ("credentials" in made) is send


@pytest.mark.parametrize("channel", [None, "pigeon", 3])
def test_the_fixture_loader_requires_each_integrations_channel(
    tmp_path: Path, channel: object
) -> None:
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    integration = fixture["environments"][0]["integrations"][1]
    if channel is None:
        del integration["channel"]
    else:
        integration["channel"] = channel
    store = Store(tmp_path / "refused.db")
    with pytest.raises(FixtureError, match=r"environments\[0\]\.integrations\[1\]\.channel"):
        load_fixture(store, fixture)
    assert store.is_empty(), "nothing is stored from a refused fixture"


@pytest.mark.parametrize("workflow", [None, "No such workflow"])
def test_the_fixture_loader_requires_each_messages_workflow(
    tmp_path: Path, workflow: str | None
) -> None:
    """Production's messages and feed items always carry their workflow's id."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    message = fixture["environments"][0]["messages"][2]
    message.pop("workflow")
    if workflow is not None:
        message["workflow"] = workflow
    store = Store(tmp_path / "refused.db")
    with pytest.raises(FixtureError, match=r"environments\[0\]\.messages\[2\]\.workflow"):
        load_fixture(store, fixture)
    assert store.is_empty()


def test_query_numbers_are_read_as_json_numbers(service: Service) -> None:
    """Production types page and limit as numbers: 2.0 is 2, 1e1 is 10, 2.5 is refused."""
    with service.http() as http:
        whole = http.get(FEED, params={"page": "2.0", "limit": "5.0"}).json()
        exponent = http.get("/v1/messages", params={"limit": "1e1"}).json()
        subscribers = http.get("/v2/subscribers", params={"limit": "1.0"}).json()
        half = http.get(FEED, params={"page": "2.5"})
    assert (whole["page"], whole["pageSize"], len(whole["data"])) == (2, 5, 2)
    assert exponent["pageSize"] == 10 and len(subscribers["data"]) == 1
    assert half.status_code == 422 and "page" in half.json()["errors"]
