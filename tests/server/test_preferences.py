"""Subscribers' preferences on the local service: the merge of workflow default, global
and per-workflow choices, critical workflows, and every refusal, over loopback HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inboxdesk.models.preference import SubscriberPreferences
from inboxdesk.server.fixtures import FixtureError, load_fixture
from inboxdesk.server.store import Store
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture

ADA = "/v2/subscribers/ada.lovelace/preferences"


@pytest.fixture
def prefs(make_service: ServiceFactory) -> Service:
    return make_service(preference_fixture())


def _workflow(body: dict[str, Any], identifier: str) -> dict[str, Any]:
    found = [w for w in body["data"]["workflows"] if w["workflow"]["identifier"] == identifier]
    assert len(found) == 1, identifier
    return found[0]


def _sources(item: dict[str, Any]) -> dict[str, str]:
    return {o["channel"]: o["source"] for o in item["overrides"]}


def test_effective_channels_merge_default_then_global_then_workflow(prefs: Service) -> None:
    with prefs.http() as http:
        body = http.get(ADA).json()
    SubscriberPreferences.model_validate(body["data"])
    # Globally: only the channels some active step uses, tool included, push (inactive) not.
    assert body["data"]["global"] == {
        "enabled": True,
        "channels": {"in_app": True, "email": True, "sms": False, "tool": True},
    }
    order = _workflow(body, "order-shipped")
    assert order["enabled"] is True
    assert order["channels"] == {"in_app": True, "email": False, "sms": False}
    assert _sources(order) == {"in_app": "template", "email": "subscriber", "sms": "subscriber"}
    assert order["workflow"]["slug"].startswith("order-shipped_wf_")
    assert "updatedAt" in order
    digest = _workflow(body, "weekly-digest")
    # The workflow's own default: email off, from the template.
    assert digest["channels"] == {"in_app": True, "email": False, "tool": True}
    assert _sources(digest)["email"] == "template"
    assert "updatedAt" not in digest
    # The critical workflow is listed apart.
    assert [w["workflow"]["identifier"] for w in body["data"]["workflows"]] == [
        "order-shipped",
        "weekly-digest",
    ]


def test_critical_workflows_are_listed_with_their_defaults_and_refused(prefs: Service) -> None:
    with prefs.http() as http:
        critical = http.get(ADA, params={"criticality": "critical"}).json()
        every = http.get(ADA, params={"criticality": "all"}).json()
        refused = http.patch(ADA, json={"workflowId": "security-alert", "channels": {"sms": True}})
        bad = http.get(ADA, params={"criticality": "some"})
    alert = _workflow(critical, "security-alert")
    # Sent whatever Ada chose: her global SMS opt-out does not reach it.
    assert alert["channels"] == {"email": True, "sms": True}
    assert len(every["data"]["workflows"]) == 3
    assert refused.status_code == 400
    assert refused.json()["message"].startswith("Critical workflow with id: ")
    assert refused.json()["message"].endswith(" can not be updated")
    assert bad.status_code == 422


def test_a_workflow_change_wins_over_global_and_returns_the_listing(prefs: Service) -> None:
    with prefs.http() as http:
        answer = http.patch(ADA, json={"workflowId": "order-shipped", "channels": {"sms": True}})
        assert answer.status_code == 200
        order = _workflow(answer.json(), "order-shipped")
        assert order["channels"] == {"in_app": True, "email": False, "sms": True}
        # Globally still off; another workflow of SMS would follow it.
        assert answer.json()["data"]["global"]["channels"]["sms"] is False
        # Global changes reach workflows without a choice of their own.
        answer = http.patch(ADA, json={"channels": {"in_app": False, "whatsapp": True}})
        assert answer.json()["data"]["global"]["channels"]["in_app"] is False
        assert "whatsapp" not in answer.json()["data"]["global"]["channels"]
        digest = _workflow(answer.json(), "weekly-digest")
        assert digest["channels"]["in_app"] is False
        assert _sources(digest)["in_app"] == "subscriber"
        # By `_id` and by slug, as by identifier.
        slug = digest["workflow"]["slug"]
        answer = http.patch(ADA, json={"workflowId": slug, "channels": {"email": True}})
        assert _workflow(answer.json(), "weekly-digest")["channels"]["email"] is True


def test_refusals_in_order_with_the_services_words(prefs: Service) -> None:
    before = prefs.store.read().execute("SELECT * FROM preferences ORDER BY 1, 2, 3").fetchall()
    with prefs.http() as http:
        schedule = http.patch(
            "/v2/subscribers/nobody/preferences",
            json={"workflowId": "nope", "schedule": {"isEnabled": "yes"}},
        )
        workflow = http.patch(
            "/v2/subscribers/nobody/preferences", json={"workflowId": "nope", "channels": {}}
        )
        # A value is checked before the subscriber, and both before criticality.
        before_subscriber = http.patch(
            "/v2/subscribers/nobody/preferences",
            json={"workflowId": "security-alert", "channels": {"email": 1}},
        )
        subscriber = http.patch(
            "/v2/subscribers/nobody/preferences",
            json={"workflowId": "security-alert", "channels": {"email": True}},
        )
        critical = http.patch(
            ADA, json={"workflowId": "security-alert", "channels": {"email": False}}
        )
        value = http.patch(ADA, json={"workflowId": "order-shipped", "channels": {"email": "no"}})
        unknown = http.get("/v2/subscribers/nobody/preferences")
    assert schedule.status_code == 422
    assert (workflow.status_code, workflow.json()["message"]) == (404, "Workflow cannot be found")
    assert workflow.json()["workflowId"] == "nope"
    assert before_subscriber.status_code == 422
    assert subscriber.status_code == 404
    assert subscriber.json()["message"] == "Subscriber with id: nobody is not found"
    assert critical.status_code == 400
    assert value.status_code == 422
    assert value.json()["message"] == (
        "Validation failed for UpdatePreferencesCommand: email: email must be a boolean value"
    )
    assert "error" not in value.json()
    assert unknown.json()["message"] == "Subscriber with id: nobody not found"
    after = prefs.store.read().execute("SELECT * FROM preferences ORDER BY 1, 2, 3").fetchall()
    assert [tuple(r) for r in after] == [tuple(r) for r in before]


def test_bulk_is_all_or_nothing(prefs: Service) -> None:
    bulk = f"{ADA}/bulk"

    def items(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
        return {"preferences": [{"workflowId": w, "channels": c} for w, c in pairs]}

    with prefs.http() as http:
        before = http.get(ADA).json()
        empty = http.patch(bulk, json={"preferences": []})
        many = http.patch(bulk, json=items(*[("order-shipped", {})] * 101))
        missing = http.patch(
            bulk, json=items(("order-shipped", {"email": True}), ("a", {}), ("b", {}))
        )
        critical = http.patch(
            bulk, json=items(("order-shipped", {"email": True}), ("security-alert", {}))
        )
        value = http.patch(
            bulk, json=items(("order-shipped", {"email": True}), ("weekly-digest", {"tool": 0}))
        )
        assert http.get(ADA).json() == before
        done = http.patch(
            bulk, json=items(("order-shipped", {"email": True}), ("weekly-digest", {"tool": False}))
        )
        after = http.get(ADA).json()
    assert (empty.status_code, empty.json()["message"]) == (
        400,
        "No preferences provided for bulk update",
    )
    assert many.status_code == 422
    assert (missing.status_code, missing.json()["message"]) == (
        404,
        "Workflows with ids: a, b not found",
    )
    assert critical.status_code == 400
    assert critical.json()["message"].startswith("Critical workflows with ids: ")
    assert value.status_code == 422
    assert done.status_code == 200
    answered = {d["workflow"]["identifier"]: d for d in done.json()["data"]}
    assert answered["order-shipped"]["level"] == "template"
    assert answered["order-shipped"]["channels"]["email"] is True
    assert answered["weekly-digest"]["workflow"]["critical"] is False
    assert _workflow(after, "weekly-digest")["channels"]["tool"] is False


def test_a_repeated_change_with_one_key_is_applied_once(prefs: Service) -> None:
    body = {"workflowId": "order-shipped", "channels": {"email": True}}
    with prefs.http() as http:
        first = http.patch(ADA, json=body, headers={"Idempotency-Key": "pref-1"})
        again = http.patch(ADA, json=body, headers={"Idempotency-Key": "pref-1"})
    assert first.status_code == again.status_code == 200
    assert again.headers.get("Idempotency-Replay") == "true"


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ({"subscriberId": "nobody", "channels": {"email": False}}, "subscriberId"),
        (
            {"subscriberId": "ada.lovelace", "workflow": "Nope", "channels": {"email": False}},
            "workflow",
        ),
        ({"subscriberId": "ada.lovelace", "channels": {"fax": False}}, "channels: an object"),
        ({"subscriberId": "ada.lovelace", "channels": {"email": "off"}}, "true or false"),
    ],
)
def test_a_fixtures_bad_preference_is_named_and_nothing_loads(
    tmp_path: Any, item: dict[str, Any], words: str
) -> None:
    fixture = preference_fixture()
    fixture["environments"][0]["preferences"] = [item]
    store = Store(tmp_path / "bad.db")
    with pytest.raises(FixtureError, match=r"environments\[0\]\.preferences\[0\]") as caught:
        load_fixture(store, fixture)
    assert words in str(caught.value)
    assert store.is_empty()


def test_the_routes_answer_401_without_a_key(prefs: Service) -> None:
    with prefs.http(None) as http:
        assert http.get(ADA).status_code == 401


def test_delivers_says_what_staging_would_cancel(prefs: Service) -> None:
    store = prefs.store
    caller = store.authenticate(STAGING_KEY)
    assert caller is not None
    ada = store.subscriber_pk(caller, "ada.lovelace")
    ids = {
        json.loads(r["doc"])["name"]: r["id"]
        for r in store.read().execute("SELECT id, doc FROM workflows")
    }
    assert store.delivers(caller, ada, ids["Order shipped"], "email") is False
    assert store.delivers(caller, ada, ids["Order shipped"], "in_app") is True
    assert store.delivers(caller, ada, ids["Weekly digest"], "sms") is False  # global
    assert store.delivers(caller, ada, ids["Weekly digest"], "email") is False  # default
    assert store.delivers(caller, ada, ids["Security alert"], "sms") is True  # critical
