"""Staging applies the subscribers' stored preferences: a channel step they turned off
(for the workflow or for every workflow) and not yet run loads as the canceled step
production records; a fixture whose step and preference disagree is refused, naming
the step. A preference counts from its `updatedAt` on; critical workflows ignore them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from inboxdesk.models.preference import Criticality
from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
from inboxdesk.server.store import Store
from tests.conftest import EXAMPLE, ServiceFactory

BEFORE = "2026-11-01T10:00:00.000Z"  # the choices
MADE = "2026-11-05T10:00:00.000Z"  # the notification
AFTER = "2026-11-09T10:00:00.000Z"
GLOBAL_TEXT = "Step filtered by subscriber global preferences"
WORKFLOW_TEXT = "Step filtered by subscriber workflow preferences"
SENT = [
    {"status": "Pending", "detail": "Message created"},
    {"status": "Success", "detail": "Message sent"},
]


def fixture_with(
    jobs: list[dict[str, Any]], chosen_at: str = BEFORE, critical: bool = False
) -> dict[str, Any]:
    """jane in Staging: SMS off everywhere and email off for Order shipped, chosen at
    `chosen_at`; one Order shipped notification made at MADE with `jobs`."""
    fixture = read_fixture(EXAMPLE)
    staging = fixture["environments"][0]
    if critical:
        staging["workflows"][0]["critical"] = True
    staging["preferences"] = [
        {"subscriberId": "jane", "channels": {"sms": False}, "updatedAt": chosen_at},
        {
            "subscriberId": "jane",
            "workflow": "Order shipped",
            "channels": {"email": False},
            "updatedAt": chosen_at,
        },
    ]
    staging["notifications"] = [
        {
            "subscriberId": "jane",
            "workflow": "Order shipped",
            "transactionId": "txn-staged",
            "createdAt": MADE,
            "jobs": jobs,
        }
    ]
    return fixture


def pending(channel: str) -> dict[str, Any]:
    return {"type": channel, "status": "pending", "executionDetails": []}


def loaded_jobs(make_service: ServiceFactory, fixture: dict[str, Any]) -> list[dict[str, Any]]:
    service = make_service(fixture)
    with service.http() as http:
        listed = http.get("/v1/notifications", params={"transactionId": "txn-staged"}).json()
        (found,) = listed["data"]
        body = http.get(f"/v1/notifications/{found['_id']}").json()["data"]
    return [j for j in body["jobs"] if j["type"] != "trigger"]


def test_a_step_not_yet_run_loads_canceled_by_the_choice_that_turned_it_off(
    make_service: ServiceFactory,
) -> None:
    jobs = loaded_jobs(
        make_service, fixture_with([pending("in_app"), pending("email"), pending("sms")])
    )
    by_type = {j["type"]: j for j in jobs}
    assert by_type["in_app"]["status"] == "pending", "a channel left on is left alone"
    for channel, text in (("email", WORKFLOW_TEXT), ("sms", GLOBAL_TEXT)):
        job = by_type[channel]
        assert job["status"] == "canceled"
        (detail,) = job["executionDetails"]
        assert (detail["status"], detail["detail"]) == ("Success", text)
        assert json.loads(detail["raw"])["channels"][channel] is False


@pytest.mark.parametrize(
    ("chosen_at", "critical"),
    [(AFTER, False), (BEFORE, True)],
    ids=["chosen-after-it-was-made", "critical-workflow"],
)
def test_a_choice_made_later_or_a_critical_workflow_leaves_steps_as_they_are(
    make_service: ServiceFactory, chosen_at: str, critical: bool
) -> None:
    delivered = {"type": "sms", "status": "completed", "executionDetails": SENT}
    jobs = loaded_jobs(
        make_service, fixture_with([delivered, pending("email")], chosen_at, critical)
    )
    assert [j["status"] for j in jobs] == ["completed", "pending"]


@pytest.mark.parametrize(
    ("job", "said"),
    [
        (
            {"type": "sms", "status": "completed", "executionDetails": SENT},
            "a sms step completed, but the subscriber turned sms off for every workflow",
        ),
        (
            {
                "type": "email",
                "status": "failed",
                "executionDetails": [{"status": "Failed", "detail": "Unexpected provider error"}],
            },
            "turned email off for 'Order shipped'",
        ),
        (
            {
                "type": "sms",
                "status": "canceled",
                "executionDetails": [{"status": "Success", "detail": WORKFLOW_TEXT}],
            },
            f"it would say '{GLOBAL_TEXT}'",
        ),
        (
            {
                "type": "push",
                "status": "canceled",
                "executionDetails": [{"status": "Success", "detail": GLOBAL_TEXT}],
            },
            "stored preferences leave push on",
        ),
    ],
    ids=["delivered-opted-out", "failed-opted-out", "wrong-scope", "canceled-while-on"],
)
def test_a_step_that_disagrees_with_the_stored_preference_is_refused_naming_it(
    tmp_path: Any, job: dict[str, Any], said: str
) -> None:
    with pytest.raises(FixtureError, match=r"environments\[0\]\.notifications\[0\]\.jobs\[1\]"):
        load_fixture(Store(tmp_path / "x.db"), fixture_with([pending("in_app"), job]))
    with pytest.raises(FixtureError) as caught:
        load_fixture(Store(tmp_path / "y.db"), fixture_with([pending("in_app"), job]))
    assert said in str(caught.value)


def test_the_demo_agrees_with_ada_s_preferences_and_applies_them_to_a_later_step(
    tmp_path: Any,
) -> None:
    from inboxdesk.server.demo import demo_fixture

    now = datetime(2026, 11, 22, tzinfo=UTC)
    fixture = demo_fixture(now)
    development = fixture["environments"][0]
    ada = [p for p in development["preferences"] if p["subscriberId"] == "ada.lovelace"]
    # Her global channel choice (her quiet hours are a global record of their own).
    (opt_out,) = [p for p in ada if "workflow" not in p and p.get("channels")]
    assert opt_out["channels"] == {"sms": False}
    assert any(p.get("workflow") and p["channels"] == {"email": False} for p in ada)
    critical = {w["name"] for w in development["workflows"] if w.get("critical")}
    ran = [
        n
        for n in development["notifications"]
        if n["subscriberId"] == "ada.lovelace"
        and n.get("workflow") not in critical
        and any(j["type"] == "sms" and j["status"] in ("completed", "failed") for j in n["jobs"])
    ]
    assert ran, "her SMS stories are there"
    assert all(n["createdAt"] < opt_out["updatedAt"] for n in ran), "made before she opted out"
    # The demo's settings without its thousands of stories, which the choices below do
    # not read (loading them cost two CPU-seconds a load; the demo's template loads them
    # whole, tests/server/test_demo.py).
    for environment in fixture["environments"]:
        environment["notifications"], environment["messages"] = [], []
    # After her opt-out, an SMS step of hers is canceled as production records it.
    development["notifications"].append(
        {
            "subscriberId": "ada.lovelace",
            "workflow": "Order shipped",
            "transactionId": "txn-after-opt-out",
            "createdAt": now.isoformat().replace("+00:00", "Z"),
            "jobs": [{"type": "sms", "status": "completed", "executionDetails": SENT}],
        }
    )
    with pytest.raises(FixtureError, match="turned sms off for every workflow"):
        load_fixture(Store(tmp_path / "refused.db"), fixture)
    development["notifications"][-1]["jobs"] = [pending("sms")]
    store = Store(tmp_path / "demo.db")
    loaded = load_fixture(store, fixture)
    row = (
        store.read()
        .execute(
            "SELECT j.doc AS job, d.doc AS detail FROM notifications n"
            " JOIN jobs j ON j.notification_id = n.id JOIN execution_details d ON d.job_id = j.id"
            " WHERE n.transaction_id = ?",
            ("txn-after-opt-out",),
        )
        .fetchone()
    )
    assert json.loads(row["job"])["status"] == "canceled"
    assert json.loads(row["detail"])["detail"] == GLOBAL_TEXT
    # Her choices as the service answers them, in every environment of the demo (a
    # critical security alert among its workflows), and Grace's email turned off.
    for env in loaded:
        caller = store.authenticate(env.api_key)
        assert caller is not None
        mine = store.preferences(caller, "ada.lovelace")
        assert mine["global"]["channels"]["sms"] is False
        (shipped,) = [
            w for w in mine["workflows"] if w["workflow"]["identifier"] == "order-shipped"
        ]
        assert shipped["channels"]["email"] is False
        critical = store.preferences(caller, "ada.lovelace", Criticality.CRITICAL)
        assert [w["workflow"]["name"] for w in critical["workflows"]] == ["Security alert"]
        others = store.preferences(caller, "grace.hopper")
        assert any(w["channels"].get("email") is False for w in others["workflows"])
