"""Triggering workflows on the local service: the answers, and the worker carrying each
notification to the final state production's worker gives it. The worker runs on the
store's clock; `settle` runs what is due now, so no test sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.conftest import Service, ServiceFactory
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(make_service: ServiceFactory, clock: Clock) -> Service:
    made = make_service(trigger_fixture())
    made.store.clock = clock
    return made


def http(service: Service) -> httpx.Client:
    return service.http(TRIGGER_KEY)


def trigger(service: Service, name: str, to: Any, **body: Any) -> httpx.Response:
    with http(service) as client:
        return client.post("/v1/events/trigger", json={"name": name, "to": to, **body})


def settle(service: Service) -> None:
    service.store.worker.run_due()


def notifications(service: Service, transaction_id: str) -> list[dict[str, Any]]:
    with http(service) as client:
        found: list[dict[str, Any]] = client.get(
            "/v1/notifications", params={"transactionId": transaction_id}
        ).json()["data"]
    return found


def jobs_of(service: Service, name: str, to: Any, **body: Any) -> list[dict[str, Any]]:
    """Trigger, let the worker run what is due, and read the one notification's jobs."""
    answer = trigger(service, name, to, **body)
    assert answer.status_code == 201, answer.text
    settle(service)
    (found,) = notifications(service, answer.json()["data"]["transactionId"])
    jobs: list[dict[str, Any]] = found["jobs"]
    return jobs


def texts(job: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["detail"], d["status"]) for d in job["executionDetails"]]


SENT = [("Message created", "Pending"), ("Message sent", "Success")]
QUEUED = [("Step queued", "Pending")]

# (workflow, subscriber, job status, the details after `Step queued`), acting.md's tables.
CASES = [
    ("in-app", "ada", "completed", SENT),
    ("email", "ada", "completed", [("SendGrid provider was selected", "Pending"), *SENT]),
    (
        "email",
        "bare",
        "canceled",
        [
            ("SendGrid provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Subscriber missing email address", "Failed"),
        ],
    ),
    ("sms", "ada", "completed", [("Twilio provider was selected", "Pending"), *SENT]),
    (
        "sms",
        "blocked",
        "failed",
        [
            ("Twilio provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Unexpected provider error", "Failed"),
        ],
    ),
    (
        "sms",
        "bare",
        "canceled",
        [
            ("Twilio provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Subscriber missing phone number", "Failed"),
        ],
    ),
    ("push", "ada", "completed", [("FCM provider was selected", "Pending"), *SENT]),
    (
        "push",
        "blocked",
        "failed",
        [
            ("FCM provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Unexpected provider error", "Failed"),
            ("There was one or more errors when trying to execute the notification", "Failed"),
        ],
    ),
    (
        "push",
        "tokenless",
        "canceled",
        [
            (
                "Subscriber credentials is missing the tokens for sending a push notification "
                "message",
                "Failed",
            ),
            ("Some push channels skipped to send the message", "Warning"),
        ],
    ),
    ("push", "bare", "canceled", [("Subscriber does not have a configured channel", "Warning")]),
    ("chat", "ada", "completed", [("Slack provider was selected", "Pending"), *SENT]),
    (
        "chat",
        "blocked",
        "failed",
        [
            ("Slack provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Unexpected provider error", "Failed"),
            ("All chat channels failed to send the message", "Failed"),
        ],
    ),
    (
        "chat",
        "tokenless",
        "canceled",
        [
            ("Slack provider was selected", "Pending"),
            ("Message created", "Pending"),
            ("Webhook URL for the chat channel is missing", "Failed"),
            ("Some chat channels skipped to send the message", "Warning"),
        ],
    ),
    ("chat", "bare", "canceled", [("Subscriber does not have a configured channel", "Warning")]),
]


@pytest.mark.parametrize(("workflow", "subscriber", "status", "details"), CASES)
def test_each_channel_reaches_its_final_state(
    service: Service,
    workflow: str,
    subscriber: str,
    status: str,
    details: list[tuple[str, str]],
) -> None:
    (job,) = jobs_of(service, workflow, subscriber)
    assert job["status"] == status
    assert texts(job) == QUEUED + details
    assert job["providerId"], "every channel job names its provider"
    assert all(d["source"] == "Internal" for d in job["executionDetails"])


def test_provider_errors_carry_the_provider_family_shape(service: Service) -> None:
    (sms,) = jobs_of(service, "sms", "blocked")
    raw = sms["executionDetails"][-1]["raw"]
    assert '"code": 21610' in raw and "moreInfo" in raw, "Twilio's RestException"
    (push,) = jobs_of(service, "push", "blocked")
    assert "messaging/registration-token-not-registered" in push["executionDetails"][-2]["raw"]
    (chat,) = jobs_of(service, "chat", "blocked")
    assert "ENOTFOUND hooks.slack.invalid" in chat["executionDetails"][-2]["raw"]


def test_in_app_arrives_in_the_inbox(service: Service) -> None:
    (job,) = jobs_of(service, "in-app", "ada")
    with http(service) as client:
        feed = client.get("/v1/subscribers/ada/notifications/feed").json()["data"]
    (message,) = feed
    assert message["content"] == "Hello Ada"
    assert message["transactionId"] == job["transactionId"]
    assert message["_notificationId"] == job["_notificationId"]
    assert (message["read"], message["seen"]) == (False, False)


def test_a_missing_integration_fails_the_step(service: Service) -> None:
    (job,) = jobs_of(
        service, "email", "ada", overrides={"email": {"integrationIdentifier": "nope"}}
    )
    assert job["status"] == "failed"
    assert texts(job)[-1] == ("Subscriber does not have an active integration", "Failed")


def test_a_step_that_stops_on_failure_cancels_the_rest_and_conditions_skip(
    service: Service,
) -> None:
    sms, email, in_app = jobs_of(service, "strict", "blocked")
    assert sms["status"] == "failed"
    halted = [("Step was canceled because a previous step failed", "Failed")]
    assert texts(email) == texts(in_app) == halted
    assert email["status"] == in_app["status"] == "canceled"
    sms, email, in_app = jobs_of(service, "strict", "ada", payload={"plan": "silver"})
    assert (sms["status"], email["status"]) == ("completed", "completed")
    assert in_app["status"] == "canceled"
    assert texts(in_app)[-1] == ("Step was skipped based on steps conditions", "Failed")


def test_preferences_cancel_a_step_and_critical_workflows_bypass_them(service: Service) -> None:
    with http(service) as client:
        done = client.patch("/v2/subscribers/ada/preferences", json={"channels": {"email": False}})
        assert done.status_code == 200, done.text
    (job,) = jobs_of(service, "email", "ada")
    assert job["status"] == "canceled"
    assert texts(job)[-1] == ("Step filtered by subscriber global preferences", "Success")
    (critical,) = jobs_of(service, "critical", "ada")
    assert critical["status"] == "completed"


def test_a_delay_waits_on_the_clock(service: Service, clock: Clock) -> None:
    answer = trigger(service, "delayed", "ada")
    settle(service)
    transaction = answer.json()["data"]["transactionId"]
    delay, in_app = notifications(service, transaction)[0]["jobs"]
    assert (delay["status"], in_app["status"]) == ("delayed", "pending")
    assert texts(delay) == [*QUEUED, ("Step delayed", "Pending")]
    assert '"delay": 300000' in delay["executionDetails"][-1]["raw"]
    clock.now = NOW + timedelta(minutes=4, seconds=59)
    settle(service)
    assert notifications(service, transaction)[0]["jobs"][0]["status"] == "delayed"
    clock.now = NOW + timedelta(minutes=5)
    settle(service)
    delay, in_app = notifications(service, transaction)[0]["jobs"]
    assert texts(delay)[-1] == ("Delay is finished", "Success")
    assert (delay["status"], in_app["status"]) == ("completed", "completed")


def test_cancel_stops_a_delayed_step(service: Service, clock: Clock) -> None:
    transaction = trigger(service, "delayed", "ada").json()["data"]["transactionId"]
    settle(service)
    with http(service) as client:
        first = client.delete(f"/v1/events/trigger/{transaction}")
        again = client.delete(f"/v1/events/trigger/{transaction}")
        unknown = client.delete("/v1/events/trigger/txn_unknown")
    assert (first.status_code, first.json()) == (200, {"data": True})
    assert again.json() == unknown.json() == {"data": False}
    clock.now = NOW + timedelta(hours=1)
    settle(service)
    delay, in_app = notifications(service, transaction)[0]["jobs"]
    assert (delay["status"], in_app["status"]) == ("canceled", "canceled")
    assert texts(delay)[-1] == ("Step delayed", "Pending"), "a cancel writes no detail"
    assert in_app["executionDetails"] == []
    with http(service) as client:
        assert client.get("/v1/subscribers/ada/notifications/feed").json()["data"] == []


def test_a_repeated_transaction_id_is_dropped(service: Service) -> None:
    first = trigger(service, "in-app", "ada", transactionId="txn_same")
    second = trigger(service, "email", "ada", transactionId="txn_same")
    for answer in (first, second):
        assert answer.status_code == 201
        assert answer.json()["data"] == {
            "acknowledged": True,
            "status": "processed",
            "transactionId": "txn_same",
        }
    settle(service)
    (only,) = notifications(service, "txn_same")
    assert only["template"]["name"] == "In-App"


def test_a_digest_merges_later_events(service: Service, clock: Clock) -> None:
    first = trigger(service, "digest", "ada", payload={"project": "a"}).json()["data"]
    second = trigger(service, "digest", "ada", payload={"project": "a"}).json()["data"]
    settle(service)
    main = notifications(service, first["transactionId"])[0]
    merged = notifications(service, second["transactionId"])[0]
    assert [j["status"] for j in main["jobs"]] == ["delayed", "pending"]
    assert [j["status"] for j in merged["jobs"]] == ["merged", "merged"]
    assert merged["_digestedNotificationId"] == main["_id"]
    clock.now = NOW + timedelta(minutes=10)
    settle(service)
    digest, in_app = notifications(service, first["transactionId"])[0]["jobs"]
    assert texts(digest)[-1] == ("Digest triggered events", "Success")
    assert in_app["status"] == "completed"


def _reports(job: dict[str, Any]) -> list[tuple[str, str]]:
    return [(d["detail"], d["status"]) for d in job["executionDetails"] if d["source"] == "Webhook"]


def test_a_bounce_is_reported_only_where_tracking_is_on(service: Service, clock: Clock) -> None:
    tracked = trigger(service, "email", "blocked").json()["data"]["transactionId"]
    untracked = trigger(
        service, "email", "blocked", overrides={"email": {"integrationIdentifier": "ses-main"}}
    ).json()["data"]["transactionId"]
    settle(service)
    (job,) = notifications(service, tracked)[0]["jobs"]
    assert job["status"] == "completed" and _reports(job) == [], "sent before it bounces"
    clock.now = NOW + timedelta(seconds=2)
    settle(service)
    (job,) = notifications(service, tracked)[0]["jobs"]
    assert _reports(job) == [("Message bounced", "Failed")]
    assert '"event": "bounce"' in job["executionDetails"][-1]["raw"], "SendGrid's event"
    (quiet,) = notifications(service, untracked)[0]["jobs"]
    assert quiet["status"] == "completed" and _reports(quiet) == []
    assert texts(quiet)[1] == ("SES provider was selected", "Pending")


def test_the_answers_and_errors_in_order(service: Service) -> None:
    with http(service) as client:
        bad = client.post("/v1/events/trigger", json={"to": ""})
        unknown = client.post("/v1/events/trigger", json={"name": "nope", "to": "ada"})
        paused = client.post("/v1/events/trigger", json={"name": "paused", "to": "ada"})
        tenant = client.post(
            "/v1/events/trigger", json={"name": "in-app", "to": "ada", "tenant": "acme"}
        )
        attached = client.post(
            "/v1/events/trigger",
            json={"name": "in-app", "to": "ada", "payload": {"attachments": [{"name": "a"}]}},
        )
        contexts = client.post(
            "/v1/events/trigger",
            json={"name": "in-app", "to": "ada", "context": {f"k{n}": "x" for n in range(6)}},
        )
    assert bad.status_code == 422
    assert bad.json()["errors"]["general"]["messages"][0] == "name must be a string"
    assert unknown.status_code == 422
    assert (unknown.json()["message"], unknown.json()["error"]) == (
        "workflow_not_found",
        "Unprocessable Entity",
    )
    assert paused.status_code == tenant.status_code == 201
    assert paused.json()["data"]["status"] == "trigger_not_active"
    assert tenant.json()["data"]["status"] == "no_tenant_found"
    assert paused.json()["data"]["transactionId"].startswith("txn_")
    assert attached.status_code == 400
    assert attached.json()["message"].startswith("Payload validation failed: attachments.0.file")
    assert contexts.json()["errors"]["general"]["messages"] == [
        "Too many contexts: 6 provided, maximum allowed is 5"
    ]
    settle(service)
    with http(service) as client:
        assert client.get("/v1/notifications").json()["data"] == [], "nothing was queued"


def test_a_trigger_creates_an_unknown_subscriber_and_updates_a_known_one(
    service: Service,
) -> None:
    (job,) = jobs_of(service, "email", {"subscriberId": "newcomer", "email": "new@example.test"})
    assert job["status"] == "completed"
    with http(service) as client:
        found = client.get("/v2/subscribers/newcomer").json()["data"]
    assert found["email"] == "new@example.test"
