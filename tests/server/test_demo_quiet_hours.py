"""Ada's quiet-hours and context stories in the demo, read over HTTP from the local
service and from a production-shaped server in front of it: an email skipped outside
her schedule, one extended to her next open window, and an comment email canceled by
her preference for one tenant, which the service serves as that context's own only
where context preferences are on (both ways of the setting)."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

import pytest

from inboxdesk.delivery import Cause, job_causes
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.server.demo.quiet_hours import SCHEDULE, TENANT
from tests.client.faults import loopback_client
from tests.conftest import Service, ServiceFactory
from tests.production_shaped import production_shaped
from tests.templates import demo_at

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)  # a Sunday, as the other demo stories' tests
KEY = "demo-quiet-hours-key-0123456789"


@functools.cache
def _demo_fixture() -> dict[str, Any]:
    """Made once: the same data as test_demo_stories', so one template serves both."""
    return demo_at(NOW)


SKIPPED = "Email skipped outside Ada's quiet hours"
HELD = "Email held for Ada's next open hours"
TENANT_OFF = "Comment email canceled by Ada's preference for tenant acme-eu"


def _demo(make_service: ServiceFactory, contexts: bool) -> Service:
    service = make_service(_demo_fixture(), context_preferences=contexts)
    service.store.clock = lambda: NOW
    development = next(e for e in service.store.environments() if e["name"] == "Development")
    service.store.add_api_key(development["id"], KEY)
    return service


def _story(url: str, title: str) -> ActivityNotification:
    transaction = next(
        n["transactionId"]
        for n in _demo_fixture()["environments"][0]["notifications"]
        if n["payload"].get("story") == title
    )

    with loopback_client(base_url=url, headers={"Authorization": f"ApiKey {KEY}"}) as http:
        answer = http.get("/v1/notifications", params={"transactionId": transaction})
    assert answer.status_code == 200, answer.text
    (found,) = answer.json()["data"]
    return ActivityNotification.model_validate(found)


def test_the_quiet_hours_stories_say_skipped_and_extended(make_service: ServiceFactory) -> None:
    service = _demo(make_service, contexts=True)
    with production_shaped(service.url) as shaped:
        for url in (service.url, shaped):
            ((_, skipped),) = job_causes(_story(url, SKIPPED))
            assert skipped.cause is Cause.OUTSIDE_SCHEDULE
            assert skipped.words == "email: canceled, outside the subscriber's schedule"
            with loopback_client(base_url=url, headers={"Authorization": f"ApiKey {KEY}"}) as http:
                ada = http.get("/v2/subscribers/ada.lovelace/preferences").json()["data"]
            assert ada["global"]["schedule"] == SCHEDULE, "her quiet hours, as the stories say"
            (delay, _email) = job_causes(_story(url, HELD))
            assert delay[1].cause is Cause.SCHEDULED
            # Held on Sunday: her schedule opens at 09:00 on Monday.
            assert delay[1].words == (
                "delay: waiting for the subscriber's schedule to open; it will arrive then "
                "(next open window: 2026-11-23T09:00:00.000Z, Europe/London)"
            )


@pytest.mark.parametrize("contexts", [True, False])
def test_the_tenant_opt_out_is_that_contexts_own(
    make_service: ServiceFactory, contexts: bool
) -> None:
    service = _demo(make_service, contexts)

    with production_shaped(service.url) as shaped:
        for url in (service.url, shaped):
            story = _story(url, TENANT_OFF)
            assert story.context_keys == [TENANT]
            ((_, canceled),) = job_causes(story)
            assert canceled.cause is Cause.PREFERENCE
            with loopback_client(base_url=url, headers={"Authorization": f"ApiKey {KEY}"}) as http:
                path = "/v2/subscribers/ada.lovelace/preferences"
                tenant = http.get(path, params={"contextKeys": TENANT}).json()["data"]
                plain = http.get(path).json()["data"]
            comment = {
                "tenant": next(
                    w
                    for w in tenant["workflows"]
                    if w["workflow"]["name"] == "Comment on your post"
                ),
                "plain": next(
                    w for w in plain["workflows"] if w["workflow"]["name"] == "Comment on your post"
                ),
            }
            assert comment["plain"]["channels"]["email"] is True
            # Off, the service answers as production without the flag: the no-context records.
            assert comment["tenant"]["channels"]["email"] is (not contexts)
