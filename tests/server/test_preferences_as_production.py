"""Preferences as production keeps them: a `null` channel stored and sent back, a
schedule checked before it is stored, a bulk of 100 full items accepted (no cap meant
for query strings refuses a valid body), and the workflow's `updatedAt` always sent."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Service, ServiceFactory
from tests.preference_fixture import preference_fixture

ADA = "/v2/subscribers/ada.lovelace/preferences"
EVERY = {c: True for c in ("email", "sms", "in_app", "chat", "push", "tool")}


@pytest.fixture
def prefs(make_service: ServiceFactory) -> Service:
    return make_service(preference_fixture())


def test_a_null_channel_is_stored_and_sent_back(prefs: Service) -> None:
    with prefs.http() as http:
        answer = http.patch(ADA, json={"channels": {"email": None, "sms": True}})
        assert answer.status_code == 200, answer.text
        again = http.get(ADA).json()["data"]
    for body in (answer.json()["data"], again):
        assert body["global"]["channels"]["email"] is None
        assert body["global"]["channels"]["sms"] is True
        # Not set: each workflow keeps its own default for email.
        order = next(w for w in body["workflows"] if w["workflow"]["identifier"] == "order-shipped")
        assert order["channels"]["email"] is False, "Ada's own choice for this workflow"
        assert all(w["workflow"]["updatedAt"] for w in body["workflows"])


@pytest.mark.parametrize(
    ("schedule", "said"),
    [
        ({"isEnabled": "yes"}, ["schedule.isEnabled must be a boolean value"]),
        (
            {
                "isEnabled": True,
                "weeklySchedule": {
                    "monday": {"isEnabled": True, "hours": [{"start": "9am", "end": "05:00 PM"}]}
                },
            },
            [
                "schedule.weeklySchedule.monday.hours.0.start must be in 12-hour format "
                "(e.g., 09:00 AM or 9:00 AM)"
            ],
        ),
        (
            {
                "isEnabled": True,
                "weeklySchedule": {"monday": {"isEnabled": "x", "hours": "all day"}},
            },
            [
                "schedule.weeklySchedule.monday.isEnabled must be a boolean value",
                "schedule.weeklySchedule.monday.nested property hours must be either object "
                "or array",
            ],
        ),
        (
            {"isEnabled": True, "weeklySchedule": {}},
            ["weeklySchedule must contain at least one day configuration when isEnabled is true"],
        ),
    ],
)
def test_a_bad_schedule_is_refused_and_never_stored(
    prefs: Service, schedule: dict[str, Any], said: list[str]
) -> None:
    with prefs.http() as http:
        answer = http.patch(ADA, json={"schedule": schedule})
        stored = http.get(ADA).json()["data"]["global"]
    assert answer.status_code == 422
    assert answer.json()["errors"]["general"]["messages"] == said
    assert "schedule" not in stored


def test_a_disabled_schedule_s_days_are_not_counted(prefs: Service) -> None:
    schedule = {"isEnabled": False, "weeklySchedule": {"funday": {"isEnabled": True}}}
    with prefs.http() as http:
        answer = http.patch(ADA, json={"schedule": schedule})
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["global"]["schedule"] == {"isEnabled": False, "weeklySchedule": {}}


def test_a_bulk_of_100_full_items_is_accepted_and_101_refused_in_production_s_words(
    prefs: Service,
) -> None:
    items = [{"workflowId": "order-shipped", "channels": EVERY}] * 99
    items.append({"workflowId": "weekly-digest", "channels": {**EVERY, "email": False}})
    with prefs.http() as http:
        accepted = http.patch(f"{ADA}/bulk", json={"preferences": items})
        refused = http.patch(f"{ADA}/bulk", json={"preferences": [*items, items[0]]})
        empty_ghost = http.patch("/v2/subscribers/ghost/preferences/bulk", json={"preferences": []})
        no_channels = http.patch(f"{ADA}/bulk", json={"preferences": [{"workflowId": "x"}]})
    assert accepted.status_code == 200, accepted.text
    assert [w["workflow"]["identifier"] for w in accepted.json()["data"]] == [
        "order-shipped",
        "weekly-digest",
    ]
    assert refused.status_code == 422
    assert refused.json()["errors"]["general"]["messages"] == [
        "preferences must contain no more than 100 elements"
    ]
    assert empty_ghost.status_code == 404
    assert empty_ghost.json()["message"] == "Subscriber with id: ghost is not found"
    assert no_channels.status_code == 404, "an item without channels is valid: x is unknown"
