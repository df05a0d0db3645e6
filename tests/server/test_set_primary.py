"""Set primary over HTTP: a key switches its own environment's integrations; another
environment's answers 403 and changes nothing. In the older organization-wide mode a
key lists and switches every environment's, each in its own environment."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import (
    EXAMPLE,
    FCM,
    INBOX,
    MAILGUN,
    OTHER_KEY,
    OTHER_SMTP,
    POSTMARK,
    SENDGRID,
    SES,
    SLACK,
    STAGING_KEY,
    TWILIO,
    VONAGE,
    Service,
    ServiceFactory,
)

STAGING_ENV, OTHER_ENV = "65d000000000000000000002", "65d000000000000000000003"
KEY_OF = {STAGING_ENV: STAGING_KEY, OTHER_ENV: OTHER_KEY}
# Production's words, whole.
OTHER_ENVIRONMENT = (
    "API key authentication is scoped to a single environment and cannot set as primary "
    "an integration that belongs to a different environment. Use an API key from the "
    "integration's environment, or authenticate with a session token."
)


def primaries(service: Service, channel: str, env: str = STAGING_ENV) -> list[str]:
    """The environment's primaries of a channel, as its own key lists them."""
    with service.http(KEY_OF[env]) as http:
        items = http.get("/v1/integrations").json()["data"]
    return [
        i["_id"]
        for i in items
        if i.get("channel") == channel and i["primary"] and i["_environmentId"] == env
    ]


def priorities(service: Service, *ids: str) -> list[int | None]:
    items = {}
    for key in (STAGING_KEY, OTHER_KEY):
        with service.http(key) as http:
            items |= {i["_id"]: i for i in http.get("/v1/integrations").json()["data"]}
    return [items[i].get("priority") for i in ids]


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


# An organization of its own, with one email integration.
ELSEWHERE = "65e000000000000000077777"
ELSEWHERE_KEY = "elsewhere-key-0123456789abcdef"


def load_foreign(service: Service) -> None:
    """Adds an organization of its own to the service's store."""
    from inboxdesk.server.fixtures import load_fixture

    foreign = {
        "_organizationId": "65d000000000000000077770",
        "environments": [
            {
                "name": "Elsewhere",
                "apiKey": ELSEWHERE_KEY,
                "integrations": [
                    {
                        "_id": ELSEWHERE,
                        "name": "Foreign SMTP",
                        "identifier": "foreign-smtp",
                        "providerId": "nodemailer",
                        "channel": "email",
                    }
                ],
            }
        ],
    }
    load_fixture(service.store, foreign)


@pytest.fixture
def two_organizations(make_service: ServiceFactory) -> Service:
    import json

    service = make_service(json.loads(EXAMPLE.read_text()))
    load_foreign(service)
    return service


@pytest.mark.parametrize(
    ("key", "integration"),
    [(None, "65e000000000000000099999"), (None, ELSEWHERE), (ELSEWHERE_KEY, SENDGRID)],
    ids=["unknown", "other-organization", "from-the-other-organization"],
)
def test_unknown_or_other_organizations_integration_is_404(
    two_organizations: Service, key: str | None, integration: str
) -> None:
    service = two_organizations
    before = service.snapshot()
    with service.http(key or "staging-key-0123456789abcdef") as http:
        response = http.post(f"/v1/integrations/{integration}/set-primary")
    assert response.status_code == 404
    assert response.json()["message"] == f"Integration with id {integration} not found"
    assert service.snapshot() == before


def test_a_key_lists_its_own_environment_only(two_organizations: Service) -> None:
    for key, env in ((STAGING_KEY, STAGING_ENV), (OTHER_KEY, OTHER_ENV)):
        with two_organizations.http(key) as http:
            listed = http.get("/v1/integrations").json()["data"]
            active = http.get("/v1/integrations/active").json()["data"]
        assert listed and {i["_environmentId"] for i in listed} == {env}
        assert active and {i["_environmentId"] for i in active} == {env}
        assert {i["_id"] for i in active} == {i["_id"] for i in listed if i["active"]}


def test_the_org_wide_list_spans_the_organization_but_not_other_organizations(
    make_service: ServiceFactory,
) -> None:
    service = make_service(org_wide_integrations=True)
    load_foreign(service)
    with service.http() as http:
        items = http.get("/v1/integrations").json()["data"]
        active = http.get("/v1/integrations/active").json()["data"]
    assert {i["_environmentId"] for i in items} == {STAGING_ENV, OTHER_ENV}
    assert {i["_environmentId"] for i in active} == {STAGING_ENV, OTHER_ENV}
    assert ELSEWHERE not in {i["_id"] for i in items}


@pytest.mark.parametrize(
    ("key", "integration"),
    [
        (STAGING_KEY, OTHER_SMTP),
        (STAGING_KEY, POSTMARK),  # already primary there
        (OTHER_KEY, SENDGRID),  # already primary there
        (OTHER_KEY, MAILGUN),
        (OTHER_KEY, INBOX),  # a channel without primary: the 403 comes first
        (OTHER_KEY, SES),  # inactive
    ],
)
def test_another_environments_integration_is_403_and_changes_nothing(
    service: Service, key: str, integration: str
) -> None:
    before = service.snapshot()
    with service.http(key) as http:
        response = http.post(f"/v1/integrations/{integration}/set-primary")
    assert response.status_code == 403
    body = response.json()
    assert body["message"] == OTHER_ENVIRONMENT
    assert (body["statusCode"], body["error"]) == (403, "Forbidden")
    assert body["path"] == f"/v1/integrations/{integration}/set-primary"
    assert service.snapshot() == before


def test_a_malformed_or_unknown_id_is_answered_before_the_403(service: Service) -> None:
    with service.http(OTHER_KEY) as http:
        assert http.post("/v1/integrations/zz/set-primary").status_code == 422
        assert http.post("/v1/integrations/65e000000000000000099999/set-primary").status_code == 404


def test_org_wide_another_environments_integration_switches_that_environment_only(
    make_service: ServiceFactory,
) -> None:
    """A Staging key makes an Other integration primary: Other's primary changes, and
    Staging's stays (found in the organization, switched in its own environment)."""
    service = make_service(org_wide_integrations=True)
    with service.http() as http:
        response = http.post(f"/v1/integrations/{OTHER_SMTP}/set-primary")
    assert response.status_code == 200
    body = response.json()["data"]
    assert (body["_environmentId"], body["primary"]) == (OTHER_ENV, True)
    assert primaries(service, "email", OTHER_ENV) == [OTHER_SMTP]
    assert primaries(service, "email", STAGING_ENV) == [SENDGRID]
    assert primaries(service, "sms", STAGING_ENV) == [TWILIO]
    with service.http(OTHER_KEY) as http:
        response = http.post(f"/v1/integrations/{SENDGRID}/set-primary")
    assert response.status_code == 200, "already primary, from either environment"
    with service.http(OTHER_KEY) as http:
        assert http.post(f"/v1/integrations/{MAILGUN}/set-primary").status_code == 200
    assert primaries(service, "email", STAGING_ENV) == [MAILGUN]
    assert primaries(service, "email", OTHER_ENV) == [OTHER_SMTP]


def test_priority_is_recalculated_among_the_active_ones(service: Service) -> None:
    """The primary highest, the other active ones below in their previous order,
    inactive ones untouched."""
    with service.http() as http:
        assert http.post(f"/v1/integrations/{MAILGUN}/set-primary").status_code == 200
    assert priorities(service, MAILGUN, SENDGRID) == [2, 1]
    assert priorities(service, SES) == [None], "inactive: untouched"
    with service.http() as http:
        body = http.post(f"/v1/integrations/{SES}/set-primary").json()["data"]
    assert body["priority"] == 3
    # Mailgun had 2 and SendGrid 1: that order is kept below the new primary.
    assert priorities(service, SES, MAILGUN, SENDGRID) == [3, 2, 1]
    assert priorities(service, POSTMARK, OTHER_SMTP) == [None, None], "other environment"


def test_already_primary_keeps_its_conditions(service: Service) -> None:
    with service.store.transaction() as db:
        db.execute(
            "UPDATE integrations SET doc = json_set(doc, '$.conditions', json(?)) WHERE id = ?",
            (
                '[{"value": "AND", "children": [{"field": "x", "value": 1, "on": "tenant"}]}]',
                TWILIO,
            ),
        )
    before = service.snapshot()
    with service.http() as http:
        body = http.post(f"/v1/integrations/{TWILIO}/set-primary").json()["data"]
    assert body["conditions"][0]["children"][0]["value"] == 1
    assert service.snapshot() == before


def test_lists_carry_empty_credentials_and_set_primary_none(
    service: Service, make_service: ServiceFactory
) -> None:
    with service.http() as http:
        listed = http.get("/v1/integrations").json()["data"]
        active = http.get("/v1/integrations/active").json()["data"]
        switched = http.post(f"/v1/integrations/{MAILGUN}/set-primary").json()["data"]
    assert all(i["credentials"] == {} for i in listed + active)
    assert "credentials" not in switched
    older = make_service(send_credentials=True)
    with older.http() as http:
        listed = http.get("/v1/integrations").json()["data"]
        switched = http.post(f"/v1/integrations/{MAILGUN}/set-primary").json()["data"]
    assert any(i["credentials"] for i in listed) and switched["credentials"]


def test_deleted_integration_is_404(service: Service) -> None:
    service.store.read().execute("UPDATE integrations SET deleted = 1 WHERE id = ?", (VONAGE,))
    with service.http() as http:
        assert http.post(f"/v1/integrations/{VONAGE}/set-primary").status_code == 404
        listed = [i["_id"] for i in http.get("/v1/integrations").json()["data"]]
    assert VONAGE not in listed


@pytest.mark.parametrize("bad", ["zz", "65g000000000000000000002", "65e00000000000000000002"])
def test_malformed_id_is_422(service: Service, bad: str) -> None:
    with service.http() as http:
        response = http.post(f"/v1/integrations/{bad}/set-primary")
    assert response.status_code == 422
    assert response.json()["errors"]["integrationId"]["messages"] == [
        "integrationId must be a mongodb id"
    ]


@pytest.mark.parametrize("org_wide", [False, True], ids=["own-keys", "org-wide"])
def test_twenty_concurrent_calls_leave_exactly_one_primary_per_environment(
    make_service: ServiceFactory, org_wide: bool
) -> None:
    service = make_service(org_wide_integrations=org_wide)
    targets = [SENDGRID, MAILGUN, SES, POSTMARK, OTHER_SMTP] * 4
    other = {POSTMARK, OTHER_SMTP}
    with (
        service.http() as staging,
        service.http(OTHER_KEY) as there,
        ThreadPoolExecutor(max_workers=20) as pool,
    ):
        # Each with its environment's key; org-wide, all with Staging's.
        http = {i: there if i in other and not org_wide else staging for i in targets}
        statuses = list(
            pool.map(
                lambda i: http[i].post(f"/v1/integrations/{i}/set-primary").status_code, targets
            )
        )
    assert statuses == [200] * 20
    assert len(primaries(service, "email", STAGING_ENV)) == 1
    assert len(primaries(service, "email", OTHER_ENV)) == 1
    for env in (STAGING_ENV, OTHER_ENV):
        count = service.row(
            "SELECT COUNT(*) FROM integrations WHERE channel = 'email' AND is_primary = 1 "
            "AND environment_id = ?",
            env,
        )[0]
        assert count == 1


def test_an_upper_case_id_is_the_same_integration(service: Service) -> None:
    """Production reads ObjectIds in upper-case hex too."""
    with service.http() as http:
        response = http.post(f"/v1/integrations/{MAILGUN.upper()}/set-primary")
    assert response.status_code == 200 and response.json()["data"]["_id"] == MAILGUN
    assert primaries(service, "email") == [MAILGUN]
