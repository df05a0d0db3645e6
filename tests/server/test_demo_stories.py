"""The demo's stories an agent can act on, against the demo's own data on the local
service: Ada's SMS refusal happens for real through the worker, and Grace Hopper's
stories each show the cause a fix of her data addresses. The worker runs on the store's
clock (`run_due`), so nothing sleeps."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from inboxdesk.delivery import Cause, job_cause, notification_cause
from inboxdesk.models.delivery import ActivityNotification
from tests.conftest import Service, ServiceFactory
from tests.templates import demo_at

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
KEY = "demo-stories-key-0123456789"


@pytest.fixture
def demo(make_service: ServiceFactory) -> Service:
    service = make_service(demo_at(NOW))
    service.store.clock = lambda: NOW
    development = next(e for e in service.store.environments() if e["name"] == "Development")
    service.store.add_api_key(development["id"], KEY)
    return service


def _http(service: Service) -> httpx.Client:
    return service.http(KEY)


def _notifications(service: Service, transaction_id: str) -> list[ActivityNotification]:
    with _http(service) as http:
        answer = http.get("/v1/notifications", params={"transactionId": transaction_id})
    assert answer.status_code == 200, answer.text
    return [ActivityNotification.model_validate(n) for n in answer.json()["data"]]


def _send(service: Service, to: Any) -> ActivityNotification:
    """Trigger the security alert (critical: Ada's SMS opt-out does not stop it), run
    what is due, and read the notification."""
    with _http(service) as http:
        answer = http.post("/v1/events/trigger", json={"name": "security-alert", "to": to})
    assert answer.status_code == 201, answer.text
    assert answer.json()["data"]["status"] == "processed"
    service.store.worker.run_due()
    (found,) = _notifications(service, answer.json()["data"]["transactionId"])
    return found


def _sms(notification: ActivityNotification) -> Any:
    (sms,) = [j for j in notification.jobs if str(j.type) == "sms"]
    return sms


def test_a_send_to_ada_by_sms_is_refused_until_her_number_changes(demo: Service) -> None:
    for _ in range(2):
        sms = _sms(_send(demo, "ada.lovelace"))
        assert str(sms.status) == "failed"
        refused = sms.execution_details[-1]
        assert (refused.detail, str(refused.status)) == ("Unexpected provider error", "Failed")
        assert json.loads(refused.raw or "{}")["code"] == 21610
        found = job_cause(sms)
        assert found.cause is Cause.PROVIDER_ERROR
        assert "unsubscribed recipient" in found.words
    # A trigger's `to` updates her phone: the same send now goes out.
    sms = _sms(_send(demo, {"subscriberId": "ada.lovelace", "phone": "+15550100"}))
    assert str(sms.status) == "completed"
    assert job_cause(sms).cause is Cause.SENT


def _grace_stories() -> dict[str, str]:
    """Grace's staged stories: title to transactionId."""
    development = demo_at(NOW)["environments"][0]
    return {
        n["payload"]["story"]: n["transactionId"]
        for n in development["notifications"]
        if n["subscriberId"] == "grace.hopper" and "story" in n["payload"]
    }


def test_grace_s_stories_each_show_the_cause_a_fix_of_her_data_addresses(
    demo: Service,
) -> None:
    stories = _grace_stories()
    expected = {
        "SMS not sent: no phone number": (Cause.MISSING_ADDRESS, "no phone number"),
        "Push not sent: no device token": (Cause.MISSING_TOKEN, "no device token"),
        "Email to a mistyped address, bounced": (Cause.AFTER_SENDING, "bounced"),
        "Email sent through an integration that reports no bounces": (Cause.SENT, "sent"),
    }
    assert set(stories) == set(expected)
    for title, (cause, words) in expected.items():
        (notification,) = _notifications(demo, stories[title])
        found = notification_cause(notification)
        assert (found.cause, title) == (cause, title)
        assert words in found.words
        assert notification.subscriber is not None
        assert notification.subscriber.subscriber_id == "grace.hopper"
    # Her data is as the stories left it.
    with _http(demo) as http:
        grace = http.get("/v2/subscribers/grace.hopper").json()["data"]
    assert not grace.get("phone")
    assert grace["email"] == "grace.hoper@example.test"
    (fcm,) = [c for c in grace["channels"] if c["providerId"] == "fcm"]
    assert "deviceTokens" not in (fcm.get("credentials") or {})


def test_the_untracked_integration_is_served_and_named_by_its_story(demo: Service) -> None:
    with _http(demo) as http:
        items = http.get("/v1/integrations").json()["data"]
    email = {i["_id"]: i for i in items if i.get("channel") == "email"}
    (primary,) = [i for i in email.values() if i["primary"]]
    assert primary["providerId"] == "sendgrid"
    assert primary["configurations"]["inboundWebhookEnabled"] is True
    (notification,) = _notifications(
        demo, _grace_stories()["Email sent through an integration that reports no bounces"]
    )
    (job,) = [j for j in notification.jobs if str(j.type) == "email"]
    selected = job.execution_details[0]
    assert selected.detail.endswith("provider was selected")
    used = email[json.loads(selected.raw or "{}")["_id"]]
    assert used["active"] and not used["primary"]
    assert not (used.get("configurations") or {}).get("inboundWebhookEnabled")


def test_a_send_to_grace_meets_her_missing_phone_for_real(demo: Service) -> None:
    sms = _sms(_send(demo, "grace.hopper"))
    assert str(sms.status) == "canceled"
    assert job_cause(sms).cause is Cause.MISSING_ADDRESS
