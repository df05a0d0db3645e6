"""The activity feed and one notification's delivery on the local service, over HTTP:
filters, paging without a total, production's error texts, scoping, stored jobs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inboxdesk.server.fixtures import FixtureError, load_fixture
from inboxdesk.server.store import Store
from tests.conftest import OTHER_KEY, Service, ServiceFactory
from tests.delivery_fixture import STORIES, delivery_fixture


@pytest.fixture
def delivered(make_service: ServiceFactory) -> Service:
    return make_service(delivery_fixture())


def feed(service: Service, key: str | None = None, **query: Any) -> Any:
    with service.http(key) if key else service.http() as http:
        return http.get("/v1/notifications", params=query)


def test_the_feed_lists_newest_first_with_jobs_and_no_total(delivered: Service) -> None:
    answer = feed(delivered, subscriberIds="jane", limit=50)
    assert answer.status_code == 200
    assert feed(delivered, limit=50).json()["data"][-1]["transactionId"] == "txn-joe"
    body = answer.json()
    assert set(body) == {"data", "page", "pageSize", "hasMore"}, "no totalCount"
    created = [n["createdAt"] for n in body["data"]]
    assert created == sorted(created, reverse=True)
    assert [n["transactionId"] for n in body["data"]] == list(reversed(STORIES))
    first = body["data"][0]
    assert first["subscriber"]["subscriberId"] == "jane"
    assert first["template"]["name"] == "Order shipped"
    assert first["severity"] == "none" and first["jobs"], "jobs are in the list too"
    assert body["hasMore"] is False


def test_has_more_means_this_page_is_full_even_the_last(delivered: Service) -> None:
    size = len(STORIES)
    full = feed(delivered, subscriberIds="jane", limit=size).json()
    assert full["hasMore"] is True and len(full["data"]) == size
    after = feed(delivered, subscriberIds="jane", limit=size, page=1).json()
    assert after == {"data": [], "page": 1, "pageSize": size, "hasMore": False}
    pages = [feed(delivered, subscriberIds="jane", limit=4, page=p).json() for p in range(3)]
    ids = [n["_id"] for page in pages for n in page["data"]]
    assert len(ids) == len(set(ids)) == size


def test_filters_by_transaction_channel_workflow_and_dates(delivered: Service) -> None:
    one = feed(delivered, transactionId=["txn-11", "txn-provider"]).json()["data"]
    assert {n["transactionId"] for n in one} == {"txn-11", "txn-provider"}
    tools = feed(delivered, channels="tool").json()["data"]
    assert [n["transactionId"] for n in tools] == ["txn-no-integration"]
    comma = feed(delivered, transactionId="txn-11,txn-provider").json()["data"]
    assert comma == [], "comma-joined values are not split"
    workflow = one[0]["_templateId"]
    assert len(feed(delivered, templates=workflow, limit=50).json()["data"]) == len(STORIES) + 1
    window = feed(delivered, after="2026-11-12T00:00:00Z", before="2026-11-13T23:00:00Z")
    assert [n["transactionId"] for n in window.json()["data"]] == [
        "txn-pref-global",
        "txn-pref-workflow",
    ]
    nobody = feed(delivered, subscriberIds="nobody", page=3).json()
    assert nobody == {"data": [], "page": 0, "pageSize": 10, "hasMore": False}


def test_filters_by_email_severity_and_context_keys(delivered: Service) -> None:
    by_email = feed(delivered, emails="joe@example.test").json()["data"]
    assert [n["transactionId"] for n in by_email] == ["txn-joe"]
    both = feed(delivered, emails="joe@example.test", subscriberIds="jane").json()
    assert both["data"] == [], "both filters: the subscribers both name"
    high = feed(delivered, severity="high").json()["data"]
    assert [n["transactionId"] for n in high] == ["txn-delivered"]
    none = feed(delivered, severity="none", limit=50).json()["data"]
    assert len(none) == len(STORIES), "none matches those without a severity"
    keys = feed(delivered, contextKeys=["a:b", "tenant:acme"]).json()["data"]
    assert [n["transactionId"] for n in keys] == ["txn-delivered"], "order insensitive"
    assert feed(delivered, contextKeys="a:b").json()["data"] == [], "the exact set"


@pytest.mark.parametrize(
    ("query", "status", "where", "text"),
    [
        ({"limit": 51}, 422, "general", "limit must not be greater than 50"),
        ({"limit": 0}, 422, "general", "limit must not be less than 1"),
        ({"channels": "fax"}, 422, "channels", "each value in channels must be one of"),
        ({"templates": "nope"}, 422, "templates", "must be a mongodb id"),
        ({"after": "yesterday"}, 400, "", "Invalid date format for parameter 'after': yesterday"),
        (
            {"after": "2026-02-01", "before": "2026-01-01"},
            400,
            "",
            "Invalid date range: start date (after) must be earlier than end date (before)",
        ),
    ],
)
def test_bad_queries_get_production_s_answers(
    delivered: Service, query: dict[str, Any], status: int, where: str, text: str
) -> None:
    answer = feed(delivered, **query)
    assert answer.status_code == status
    body = answer.json()
    if where:
        assert text in body["errors"][where]["messages"][0]
        assert "error" not in body
    else:
        assert body["message"].startswith(text)


def test_past_the_plan_s_retention_is_a_402(make_service: ServiceFactory) -> None:
    service = make_service(delivery_fixture(), activity_retention_hours=24)
    answer = feed(service, after="2020-01-01T00:00:00Z")
    assert answer.status_code == 402
    assert answer.json()["message"].startswith(
        "Requested date range exceeds your plan's retention period."
    )


def test_one_notification_with_its_jobs_and_details_in_order(delivered: Service) -> None:
    (listed,) = feed(delivered, transactionId="txn-provider").json()["data"]
    with delivered.http() as http:
        answer = http.get(f"/v1/notifications/{listed['_id'].upper()}")
        assert answer.status_code == 200
        notification = answer.json()["data"]
        # The stored trigger job is left out, as production's feed leaves it out.
        (sms,) = notification["jobs"]
        assert sms["providerId"] == "twilio" and sms["step"]["_parentId"] is None
        assert [d["detail"] for d in sms["executionDetails"]] == [
            "Message created",
            "Unexpected provider error",
        ]
        raw = json.loads(sms["executionDetails"][1]["raw"])
        assert raw["code"] == 21610
        detail = sms["executionDetails"][0]
        assert {"_id", "status", "detail", "isRetry", "isTest", "source"} <= set(detail)
        assert sms["step"]["_templateId"] and "filters" in sms["step"]

        bad = http.get("/v1/notifications/not-an-id")
        assert bad.status_code == 422
        assert bad.json()["message"] == (
            "Validation failed for GetActivityCommand: notificationId: "
            "notificationId must be a mongodb id"
        )
        assert "notificationId" in bad.json()["errors"]
        missing = http.get(f"/v1/notifications/{'0' * 24}")
        assert (missing.status_code, missing.json()["message"]) == (404, "Notification not found")


def test_scoped_to_the_key_s_environment(delivered: Service) -> None:
    (other,) = feed(delivered, key=OTHER_KEY).json()["data"]
    assert other["transactionId"] == "txn-other-env"
    assert feed(delivered, key=OTHER_KEY, transactionId="txn-11").json()["data"] == []
    with delivered.http() as http:
        assert http.get(f"/v1/notifications/{other['_id']}").status_code == 404


def test_a_deleted_subscriber_or_workflow_is_left_out(delivered: Service) -> None:
    db = delivered.store
    with db.transaction() as sql:
        sql.execute(
            "UPDATE workflows SET doc = json_set(doc, '$.deleted', json('true')) "
            "WHERE json_extract(doc, '$.name') = 'Order shipped'"
        )
        sql.execute(
            "UPDATE subscribers SET doc = json_set(doc, '$.deleted', json('true')) "
            "WHERE subscriber_id = 'jane'"
        )
    (found,) = feed(delivered, transactionId="txn-11").json()["data"]
    assert "template" not in found and "subscriber" not in found
    assert found["_templateId"] and found["_subscriberId"]


def test_an_in_app_message_belongs_to_its_notification(delivered: Service) -> None:
    (notification,) = feed(delivered, transactionId="txn-11").json()["data"]
    row = delivered.row(
        "SELECT json_extract(doc, '$._notificationId') FROM messages WHERE transaction_id = ?",
        "txn-11",
    )
    assert row[0] == notification["_id"]


def test_preferences_are_stored_as_loaded(delivered: Service) -> None:
    row = delivered.row("SELECT workflow_id, channels FROM preferences")
    assert row[0] and json.loads(row[1]) == {"email": False}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"type": "fax"}, "jobs[0].type: must be one of"),
        ({"status": "exploded"}, "jobs[0].status: must be one of"),
        ({"executionDetails": [{"status": "Fine", "detail": "x"}]}, "status: must be one of"),
        ({"executionDetails": [{"status": "Success", "detail": "x", "raw": {}}]}, "raw: must be"),
    ],
)
def test_a_fixture_s_bad_job_is_refused_naming_it(
    tmp_path: Any, change: dict[str, Any], said: str
) -> None:
    fixture = delivery_fixture()
    job = {"type": "email", "status": "completed", "executionDetails": [], **change}
    fixture["environments"][0]["notifications"] = [
        {"subscriberId": "jane", "workflow": "Order shipped", "jobs": [job]}
    ]
    with pytest.raises(FixtureError, match=r"notifications\[0\]") as caught:
        load_fixture(Store(tmp_path / "x.db"), fixture)
    assert said in str(caught.value)


def test_the_demo_has_ada_s_stories_and_every_message_its_notification(tmp_path: Any) -> None:
    from tests.templates import demo_at

    fixture = demo_at()  # the process's one demo (built apart, a third of a second)
    development = fixture["environments"][0]
    by_txn = {n["transactionId"]: n for n in development["notifications"]}
    assert all(m["transactionId"] in by_txn for m in development["messages"])
    ada = [n for n in development["notifications"] if n["subscriberId"] == "ada.lovelace"]
    details = {d["detail"] for n in ada for j in n["jobs"] for d in j["executionDetails"]}
    for text in (
        "Message bounced",
        "Step filtered by subscriber workflow preferences",
        "Unexpected provider error",
        "Subscriber credentials is missing the tokens for sending a push notification message",
        "Step was skipped based on steps conditions",
        "Subscriber does not have an active integration",
        "Message delivered",
    ):
        assert text in details
    types = {j["type"] for n in ada for j in n["jobs"]}
    assert {"digest", "tool", "in_app", "email", "sms", "chat", "push"} <= types
    assert development["preferences"][0]["channels"] == {"email": False}
