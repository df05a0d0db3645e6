"""`GET /v2/subscribers/{id}/subscriptions` on the real service, as acting.md 4.1 says
production answers it: the body (checked against the excerpt), paging both ways, the
filters, and the refusals in production's order (422, then 404, then 400)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from inboxdesk.server.demo.topics import ATLAS_ONLY, DEPLOYS_SUBSCRIPTION, INVOICES_SUBSCRIPTION
from tests.conftest import Service, ServiceFactory
from tests.contract.test_server_contract import check
from tests.topic_fixture import EXTRA, GRACE_SUBSCRIPTION, topic_fixture

ADA = "/v2/subscribers/ada.lovelace/subscriptions"


@pytest.fixture
def topics(make_service: ServiceFactory) -> Service:
    return make_service(topic_fixture())


def listed(http: httpx.Client, **params: Any) -> dict[str, Any]:
    response = http.get(ADA, params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = check(response)
    return body


def test_the_body_is_production_s_newest_first_with_conditions(topics: Service) -> None:
    with topics.http() as http:
        body = listed(http)
    assert body["totalCount"] == 4 and body["totalCountCapped"] is False
    assert body["next"] is None and body["previous"] is None
    identifiers = [s["identifier"] for s in body["data"]]
    assert identifiers == [INVOICES_SUBSCRIPTION, DEPLOYS_SUBSCRIPTION, "ada-acme-news", ""]
    deploys = body["data"][1]
    assert deploys["topic"]["key"] == "deploys" and deploys["topic"]["name"] == "Production deploys"
    assert deploys["subscriber"]["subscriberId"] == "ada.lovelace"
    (record,) = deploys["preferences"]
    assert record["subscriptionId"] == DEPLOYS_SUBSCRIPTION
    assert record["condition"] == ATLAS_ONLY and record["enabled"] is True
    assert record["workflow"]["name"] == "Deploy finished"
    assert record["workflow"]["identifier"] == "deploy"
    # No records: no `preferences` at all; no identifier: "".
    bare = body["data"][3]
    assert "preferences" not in bare and bare["_id"] == EXTRA[0]
    news = body["data"][2]
    assert news["contextKeys"] == ["tenant:acme"]
    # A record's subscriptionId is the identifier (production's default when it has none).
    assert news["preferences"][0] == {
        "subscriptionId": "ada-acme-news",
        "workflow": news["preferences"][0]["workflow"],
        "enabled": False,
    }


def test_pages_forwards_and_back_by_cursor(topics: Service) -> None:
    with topics.http() as http:
        everything = [s["_id"] for s in listed(http)["data"]]
        first = listed(http, limit=3)
        assert [s["_id"] for s in first["data"]] == everything[:3]
        assert first["next"] == everything[2] and first["previous"] is None
        second = listed(http, limit=3, after=first["next"])
        assert [s["_id"] for s in second["data"]] == everything[3:]
        assert second["next"] is None and second["previous"] == everything[3]
        back = listed(http, limit=3, before=second["previous"])
        assert [s["_id"] for s in back["data"]] == everything[:3]
        assert back["previous"] is None and back["next"] == everything[2]
        again = listed(http, limit=2, after=everything[1], includeCursor="true")
        assert [s["_id"] for s in again["data"]] == everything[1:3]
        ascending = listed(http, orderDirection="ASC")
        assert [s["_id"] for s in ascending["data"]] == everything[::-1]
        # Another subscriber's subscription is a cursor too; an unknown id an empty page.
        assert listed(http, after=GRACE_SUBSCRIPTION)["totalCount"] == 4
        unknown = listed(http, after="65f0000000000000000fffff")
        assert unknown == {
            "data": [],
            "next": None,
            "previous": None,
            "totalCount": 0,
            "totalCountCapped": False,
        }
        # limit=0 is production's `limit || 10`.
        assert len(listed(http, limit=0)["data"]) == 4


def test_filters_by_topic_key_and_exact_context(topics: Service) -> None:
    with topics.http() as http:
        assert [s["topic"]["key"] for s in listed(http, key="deploys")["data"]] == ["deploys"]
        assert listed(http, key="nope")["data"] == []
        acme = listed(http, contextKeys="tenant:acme")["data"]
        assert [s["identifier"] for s in acme] == ["ada-acme-news"]
        # `contextKeys=` alone: the subscriptions without context.
        plain = listed(http, contextKeys="")
        assert plain["totalCount"] == 3
        assert listed(http, contextKeys=["tenant:acme", "region:eu"])["data"] == []


def test_refusals_in_production_s_order(topics: Service) -> None:
    with topics.http() as http:
        for limit in ("101", "many"):
            refused = http.get(ADA, params={"limit": limit})
            assert refused.status_code == 422, refused.text
            assert check(refused)["errors"]["limit"]["messages"] == [
                "limit must not be greater than 100"
            ]
        refused = http.get(ADA, params={"limit": "-1"})
        assert refused.status_code == 422 and "whole number" in refused.text
        # The query's refusal comes before the unknown subscriber.
        nobody = "/v2/subscribers/nobody/subscriptions"
        assert http.get(nobody, params={"limit": 500}).status_code == 422
        unknown = http.get(nobody)
        assert unknown.status_code == 404
        assert check(unknown)["message"] == "Subscriber not found"
        both = http.get(ADA, params={"after": EXTRA[0], "before": EXTRA[1]})
        assert both.status_code == 400
        assert (
            check(both)["message"]
            == 'Cannot specify both "before" and "after" cursors at the same time.'
        )
        assert http.get(nobody, params={"after": EXTRA[0], "before": EXTRA[1]}).status_code == 404
        repeated = http.get(ADA, params=[("key", "a"), ("key", "b")])
        assert repeated.status_code == 422 and "key must be a string" in repeated.text


def test_the_demo_has_ada_s_topic_story() -> None:
    """A topic let-through (the deploy, its timeline's words) and a subscription whose
    condition would filter (invoices under 1,000), in the demo's data (test_demo loads
    it whole; the contract test checks every demo subscriber's subscriptions)."""
    from datetime import UTC, datetime

    from inboxdesk.core.delivery.topics import condition_words, topic_words
    from inboxdesk.models.delivery import ActivityNotification
    from inboxdesk.server.demo.topics import TITLE
    from tests.templates import demo_at

    # The process's one demo at that moment (built apart, it cost a third of a second).
    fixture = demo_at(datetime(2026, 11, 22, 12, tzinfo=UTC))
    development, production = fixture["environments"]
    assert "topics" not in production
    conditions = {
        s["identifier"]: condition_words(s["preferences"][0]["condition"])
        for topic in development["topics"]
        for s in topic["subscriptions"]
        if s["subscriberId"] == "ada.lovelace"
    }
    assert conditions == {
        INVOICES_SUBSCRIPTION: "payload.amount > 1000",
        DEPLOYS_SUBSCRIPTION: 'payload.project is "Atlas"',
    }
    (deploy,) = [n for n in development["notifications"] if n["payload"].get("story") == TITLE]
    # As the feed serves it: the topic's ids alone, the evaluation on `Step queued`.
    deploy = {**deploy, "topics": [{"_topicId": "t", "topicKey": "deploys"}]}
    assert topic_words(ActivityNotification.model_validate(deploy)) == [
        "came through topic deploys; subscription ada-deploys let it through "
        '(condition: payload.project is "Atlas")'
    ]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda t: t[0].update(key=""), "topics[0].key: a non-empty string is required"),
        (lambda t: t[1].update(key="deploys"), "topics[1].key: topic 'deploys' is listed twice"),
        (
            lambda t: t[2]["subscriptions"][0].update(subscriberId="nobody"),
            "topics[2].subscriptions[0].subscriberId: names no subscriber",
        ),
        (
            lambda t: t[0]["subscriptions"][0]["preferences"][0].update(condition="x > 1"),
            "topics[0].subscriptions[0].preferences[0].condition: must be a JSON Logic object",
        ),
        (
            lambda t: t[3]["subscriptions"][0].update(contextKeys=["acme"]),
            "topics[3].subscriptions[0].contextKeys: a list of 'type:id' strings",
        ),
    ],
)
def test_a_fixture_s_bad_topic_is_refused_naming_it(change: Any, said: str) -> None:
    from inboxdesk.server.fixtures import FixtureError, load_fixture
    from inboxdesk.server.store import Store

    fixture = topic_fixture()
    change(fixture["environments"][0]["topics"])
    store = Store(":memory:")
    with pytest.raises(FixtureError, match=re.escape(said)):
        load_fixture(store, fixture)
    assert store.read().execute("SELECT COUNT(*) FROM topics").fetchone()[0] == 0
