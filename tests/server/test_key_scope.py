"""What a key reads of its organization: its own environment's keys on the environment
list, no webhook signing key on integrations, and production's words for an agent."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest

from tests.conftest import (
    INBOX,
    MAILGUN,
    OTHER_KEY,
    SENDGRID,
    STAGING_KEY,
    Service,
    ServiceFactory,
)

STAGING_ENV, OTHER_ENV = "65d000000000000000000002", "65d000000000000000000003"
SIGNING_KEY = "whsec_sentinel0123456789abcdef"


def environments(service: Service, key: str) -> dict[str, list[dict[str, str]]]:
    with service.http(key) as http:
        response = http.get("/v1/environments")
    assert response.status_code == 200
    return {e["_id"]: e["apiKeys"] for e in response.json()["data"]}


@pytest.mark.parametrize(
    ("key", "own", "other"),
    [(STAGING_KEY, STAGING_ENV, OTHER_ENV), (OTHER_KEY, OTHER_ENV, STAGING_ENV)],
)
def test_a_key_reads_its_own_environments_keys_and_no_others(
    service: Service, key: str, own: str, other: str
) -> None:
    listed = environments(service, key)
    assert listed[other] == []
    (mine,) = listed[own]
    assert mine["key"] == key
    assert mine["hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert len(mine["_userId"]) == 24
    with service.http(key) as http:
        me = http.get("/v1/environments/me").json()["data"]
    assert me["_id"] == own and "apiKeys" not in me


def test_every_key_of_the_environment_is_listed_oldest_first(service: Service) -> None:
    second = "second-staging-key-0123456789"
    service.store.add_api_key(STAGING_ENV, second)
    listed = environments(service, second)
    assert [k["key"] for k in listed[STAGING_ENV]] == [STAGING_KEY, second]
    assert listed[OTHER_ENV] == []


def test_every_environments_keys_when_the_organization_flag_is_on(
    make_service: ServiceFactory,
) -> None:
    service = make_service(every_environment_key=True)
    listed = environments(service, STAGING_KEY)
    assert [k["key"] for k in listed[STAGING_ENV]] == [STAGING_KEY]
    assert [k["key"] for k in listed[OTHER_ENV]] == [OTHER_KEY]


def test_keys_stored_before_they_were_kept_are_left_out(service: Service) -> None:
    with service.store.transaction() as db:
        db.execute("UPDATE api_keys SET api_key = NULL")
    assert environments(service, STAGING_KEY) == {STAGING_ENV: [], OTHER_ENV: []}


def test_the_database_holding_keys_is_the_users_alone(service: Service) -> None:
    mode = stat.S_IMODE(Path(service.db_path).stat().st_mode)
    assert mode & 0o077 == 0, oct(mode)


def _with_signing_key(service: Service) -> None:
    configurations = {"inboundWebhookEnabled": True, "inboundWebhookSigningKey": SIGNING_KEY}
    with service.store.transaction() as db:
        db.execute(
            "UPDATE integrations SET doc = json_set(doc, '$.configurations', json(?)) "
            "WHERE id IN (?, ?)",
            (json.dumps(configurations), MAILGUN, SENDGRID),
        )


def test_integrations_never_carry_the_webhook_signing_key(service: Service) -> None:
    _with_signing_key(service)
    with service.http() as http:
        answers = [
            http.get("/v1/integrations"),
            http.get("/v1/integrations/active"),
            http.post(f"/v1/integrations/{MAILGUN}/set-primary"),
            http.post(f"/v1/integrations/{MAILGUN}/set-primary"),  # already primary
        ]
    for response in answers:
        assert response.status_code == 200
        assert SIGNING_KEY not in response.text
    switched = answers[2].json()["data"]
    assert switched["configurations"] == {"inboundWebhookEnabled": True}


def test_an_older_deployment_sends_the_signing_key(make_service: ServiceFactory) -> None:
    service = make_service(send_credentials=True)
    _with_signing_key(service)
    with service.http() as http:
        listed = http.get("/v1/integrations").json()["data"]
    (mailgun,) = [i for i in listed if i["_id"] == MAILGUN]
    assert mailgun["configurations"]["inboundWebhookSigningKey"] == SIGNING_KEY


def _agent(service: Service) -> None:
    """The in-app integration made an agent-kind one: no channel, as production has them."""
    with service.store.transaction() as db:
        db.execute(
            "UPDATE integrations SET channel = '', "
            "doc = json_set(json_remove(doc, '$.channel'), '$.kind', 'agent') WHERE id = ?",
            (INBOX,),
        )


def test_an_agent_kind_integration_has_no_channel_to_make_primary(service: Service) -> None:
    _agent(service)
    before = service.snapshot()
    with service.http() as http:
        response = http.post(f"/v1/integrations/{INBOX}/set-primary")
        listed = {i["_id"]: i for i in http.get("/v1/integrations").json()["data"]}
    assert response.status_code == 400
    assert response.json()["message"] == "Channel unknown does not support primary"
    assert "channel" not in listed[INBOX] and listed[INBOX]["kind"] == "agent"
    with service.http(OTHER_KEY) as http:
        assert http.post(f"/v1/integrations/{INBOX}/set-primary").status_code == 403
    assert service.snapshot() == before
