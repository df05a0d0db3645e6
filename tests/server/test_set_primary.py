"""Set primary over HTTP: behaviour.md section 1."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import (
    FCM,
    INBOX,
    MAILGUN,
    OTHER_KEY,
    POSTMARK,
    SENDGRID,
    SES,
    SLACK,
    TWILIO,
    VONAGE,
    Service,
)


def primaries(service: Service, channel: str) -> list[str]:
    with service.http() as http:
        items = http.get("/v1/integrations").json()["data"]
    return [i["_id"] for i in items if i["channel"] == channel and i["primary"]]


def test_set_primary_demotes_the_old_primary_and_clears_conditions(service: Service) -> None:
    with service.http() as http:
        response = http.post(f"/v1/integrations/{MAILGUN}/set-primary")
    assert response.status_code == 200
    body = response.json()["data"]
    assert body["_id"] == MAILGUN
    assert (body["primary"], body["active"], body["conditions"]) == (True, True, [])
    assert primaries(service, "email") == [MAILGUN]
    old = service.row("SELECT is_primary, active FROM integrations WHERE id = ?", SENDGRID)
    assert tuple(old) == (0, 1), "the demoted primary stays active"
    assert primaries(service, "sms") == [TWILIO], "other channels are untouched"


def test_set_primary_activates_an_inactive_integration(service: Service) -> None:
    with service.http() as http:
        body = http.post(f"/v1/integrations/{SES}/set-primary").json()["data"]
    assert body["active"] is True and body["primary"] is True
    assert primaries(service, "email") == [SES]


def test_already_primary_is_returned_unchanged(service: Service) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(f"/v1/integrations/{TWILIO}/set-primary")
    assert response.status_code == 200
    assert response.json()["data"]["primary"] is True
    assert service.snapshot() == before


@pytest.mark.parametrize("integration", [INBOX, SLACK, FCM])
def test_channels_without_primary_answer_400(service: Service, integration: str) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(f"/v1/integrations/{integration}/set-primary")
    assert response.status_code == 400
    body = response.json()
    channel = {INBOX: "in_app", SLACK: "chat", FCM: "push"}[integration]
    assert body["message"] == f"Channel {channel} does not support primary"
    assert body["statusCode"] == 400 and body["path"].endswith("/set-primary")
    assert service.snapshot() == before


@pytest.mark.parametrize(
    ("key", "integration"),
    [(None, "65e000000000000000099999"), (OTHER_KEY, SENDGRID), (None, POSTMARK)],
    ids=["unknown", "staging-id-from-other-env", "other-env-id-from-staging"],
)
def test_unknown_or_foreign_integration_is_404(
    service: Service, key: str | None, integration: str
) -> None:
    before = service.snapshot()
    with service.http(key or "staging-key-0123456789abcdef") as http:
        response = http.post(f"/v1/integrations/{integration}/set-primary")
    assert response.status_code == 404
    assert response.json()["message"] == f"Integration with id {integration} not found"
    assert service.snapshot() == before


def test_deleted_integration_is_404(service: Service) -> None:
    service.store.read().execute("UPDATE integrations SET deleted = 1 WHERE id = ?", (VONAGE,))
    with service.http() as http:
        assert http.post(f"/v1/integrations/{VONAGE}/set-primary").status_code == 404
        listed = [i["_id"] for i in http.get("/v1/integrations").json()["data"]]
    assert VONAGE not in listed


@pytest.mark.parametrize("bad", ["zz", "65E000000000000000000002", "65e00000000000000000002"])
def test_malformed_id_is_422(service: Service, bad: str) -> None:
    with service.http() as http:
        response = http.post(f"/v1/integrations/{bad}/set-primary")
    assert response.status_code == 422
    assert response.json()["errors"]["integrationId"]["messages"] == [
        "integrationId must be a mongodb id"
    ]


def test_twenty_concurrent_calls_leave_exactly_one_primary(service: Service) -> None:
    targets = [SENDGRID, MAILGUN, SES] * 7
    with service.http() as http, ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(
            pool.map(
                lambda i: http.post(f"/v1/integrations/{i}/set-primary").status_code, targets[:20]
            )
        )
    assert statuses == [200] * 20
    assert len(primaries(service, "email")) == 1
    count = service.row(
        "SELECT COUNT(*) FROM integrations WHERE channel = 'email' AND is_primary = 1 "
        "AND environment_id = (SELECT environment_id FROM integrations WHERE id = ?)",
        SENDGRID,
    )[0]
    assert count == 1
