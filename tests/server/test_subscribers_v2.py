"""The v2 subscriber endpoints production documents: search, cursors, get, counts."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE, Service, ServiceFactory, jane_message

SEARCH = "/v2/subscribers"


def crowd_fixture(size: int = 7) -> dict[str, Any]:
    """The example with `size` more subscribers in Staging, created a minute apart."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    fixture["environments"][0]["subscribers"] += [
        {
            "subscriberId": f"user-{n}",
            "firstName": "Ada" if n % 2 else "Grace",
            "lastName": f"Number{n}",
            "email": f"user{n}@example.test",
            "phone": f"+1555000{n:04d}",
            "createdAt": f"2026-01-01T00:{n:02d}:00.000Z",
        }
        for n in range(size)
    ]
    return fixture


def ids(body: dict[str, Any]) -> list[str]:
    return [s["subscriberId"] for s in body["data"]]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"email": "JOE@example"}, ["joe"]),
        ({"name": "jane doe"}, ["jane"]),
        ({"name": "doe"}, ["jane"]),
        # subscriberId is exact and case-sensitive, as production's.
        ({"subscriberId": "jane"}, ["jane"]),
        ({"subscriberId": "ja"}, []),
        ({"subscriberId": "Jane"}, []),
        ({"email": "example.test", "name": "bloggs"}, ["joe"]),
        ({"phone": "555"}, []),
        ({"email": "%"}, []),
        ({"email": "_"}, []),
    ],
)
def test_search_matches_every_filter_given(
    service: Service, params: dict[str, str], expected: list[str]
) -> None:
    with service.http() as http:
        body = http.get(SEARCH, params=params).json()
    assert set(body) == {"data", "next", "previous", "totalCount", "totalCountCapped"}
    assert sorted(ids(body)) == expected
    assert body["totalCount"] == len(expected) and body["totalCountCapped"] is False


@pytest.mark.parametrize("order", ["ASC", "DESC"])
def test_cursors_walk_every_subscriber_once_both_ways(
    make_service: ServiceFactory, order: str
) -> None:
    service = make_service(fixture=crowd_fixture())
    forward: list[list[str]] = []
    with service.http() as http:
        params: dict[str, Any] = {"limit": 3, "orderBy": "createdAt", "orderDirection": order}
        body = http.get(SEARCH, params=params).json()
        assert body["previous"] is None
        forward.append(ids(body))
        while body["next"]:
            body = http.get(SEARCH, params={**params, "after": body["next"]}).json()
            forward.append(ids(body))
        backward = [ids(body)]
        while body["previous"]:
            body = http.get(SEARCH, params={**params, "before": body["previous"]}).json()
            backward.insert(0, ids(body))
    walked = [s for page in forward for s in page]
    assert len(walked) == len(set(walked)) == 9 and body["totalCount"] == 9
    assert [len(p) for p in forward] == [3, 3, 3]
    assert backward == forward
    crowd = [s for s in walked if s.startswith("user-")]
    assert crowd == sorted(crowd, reverse=order == "DESC")


def test_include_cursor_starts_the_page_at_the_cursor(service: Service) -> None:
    with service.http() as http:
        first = http.get(SEARCH, params={"limit": 1}).json()
        again = http.get(
            SEARCH, params={"limit": 1, "after": first["data"][0]["_id"], "includeCursor": "true"}
        ).json()
    assert ids(again) == ids(first)


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"limit": 0}, 422),
        ({"limit": 101}, 422),
        ({"orderDirection": "sideways"}, 422),
        ({"orderBy": "password"}, 422),
        ({"after": jane_message(1), "before": jane_message(2)}, 400),
    ],
)
def test_bad_search_queries(service: Service, params: dict[str, Any], status: int) -> None:
    with service.http() as http:
        response = http.get(SEARCH, params=params)
    assert response.status_code == status
    assert response.json()["path"].startswith(f"{SEARCH}?")


EMPTY = {"data": [], "next": None, "previous": None, "totalCount": 0, "totalCountCapped": False}


@pytest.mark.parametrize(
    "params",
    [
        {"after": "65f0000000000000000fffff"},  # names no subscriber
        {"before": "65f0000000000000000fffff"},
        {"after": "not-an-id"},
        {"before": "x"},
        {"name": "jane", "after": "<joe>"},  # joe's _id, outside a search for jane
    ],
)
def test_a_cursor_naming_no_subscriber_of_the_search_is_an_empty_page(
    service: Service, params: dict[str, str]
) -> None:
    with service.http() as http:
        if params.get("after") == "<joe>":
            joe = http.get(SEARCH, params={"subscriberId": "joe"}).json()["data"][0]["_id"]
            params = {**params, "after": joe}
        response = http.get(SEARCH, params=params)
    assert response.status_code == 200
    assert response.json() == EMPTY


def test_both_cursors_at_once_is_400_in_productions_words(service: Service) -> None:
    with service.http() as http:
        response = http.get(SEARCH, params={"after": jane_message(1), "before": jane_message(2)})
    assert response.status_code == 400
    assert response.json()["message"] == (
        'Cannot specify both "before" and "after" cursors at the same time.'
    )


def test_get_one_and_unknown(service: Service) -> None:
    with service.http() as http:
        jane = http.get("/v2/subscribers/jane").json()["data"]
        missing = http.get("/v2/subscribers/ghost")
        other = http.get("/v2/subscribers/jane", headers={"Authorization": "ApiKey nope"})
    assert jane["subscriberId"] == "jane" and jane["firstName"] == "Jane"
    assert missing.status_code == 404
    assert missing.json()["message"] == "Subscriber ghost not found"
    assert other.status_code == 401, "v2 is behind the same key check"


def test_counts_per_filter_capped_at_100(service: Service) -> None:
    filters = [{"read": False}, {"seen": False}, {"read": True, "seen": True}, {}]
    with service.http() as http:
        body = http.get(
            "/v2/subscribers/jane/notifications/count", params={"filters": json.dumps(filters)}
        ).json()
    assert body == {
        "data": [
            {"count": 8, "filter": {"read": False}},
            {"count": 6, "filter": {"seen": False}},
            {"count": 2, "filter": {"read": True, "seen": True}},
            {"count": 12, "filter": {}},
        ]
    }


@pytest.mark.parametrize("filters", ["{}", "[]", "[1]", json.dumps([{}] * 31)])
def test_bad_count_filters_are_422(service: Service, filters: str) -> None:
    with service.http() as http:
        response = http.get("/v2/subscribers/jane/notifications/count", params={"filters": filters})
    assert response.status_code == 422
    # Production's DTO: every sentence under `general`, each naming `filters`.
    messages = response.json()["errors"]["general"]["messages"]
    assert messages and all("filters" in m for m in messages)


@pytest.mark.parametrize(
    "filters",
    [
        "nope",
        "[" * 5000 + "]" * 5000,
        '[{"read": NaN}]',
        '[{"tags": [Infinity]}]',
        '[{"tags": ["\\ud800"]}]',
        json.dumps([{"data": {f"k{n}": n for n in range(900)}}]),
    ],
    ids=["not-json", "deep", "nan", "infinity", "lone-surrogate", "900-keys"],
)
def test_malformed_count_filters_are_400_never_500(service: Service, filters: str) -> None:
    with service.http() as http:
        response = http.get("/v2/subscribers/jane/notifications/count", params={"filters": filters})
    assert response.status_code == 400, response.text
    assert response.json()["message"] == "Invalid filters, the JSON object should be provided."


def test_counts_of_an_unknown_subscriber_are_400_as_production_says(service: Service) -> None:
    with service.http() as http:
        response = http.get("/v2/subscribers/ghost/notifications/count", params={"filters": "[{}]"})
    assert response.status_code == 400
    assert response.json()["message"] == (
        "Subscriber ghost doesn't exist in environment 65d000000000000000000002"
    )


def test_v2_switched_off_answers_404_as_an_older_service(make_service: ServiceFactory) -> None:
    service = make_service(v2_subscribers=False)
    with service.http() as http:
        for path in ("/v2/subscribers", "/v2/subscribers/jane"):
            response = http.get(path)
            assert response.status_code == 404
            assert response.json()["message"] == f"Cannot GET {path}"
        assert http.get("/v1/subscribers/jane").status_code == 200
