"""The client reads production as it is, through a production-shaped server on
loopback: an unknown subscriber on the v2 inbox (404), a throttled notification, and a
preference channel production stores and sends back as `null`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.client import ClientOptions, InboxClient, NoV2Inbox, RetryPolicy, SubscriberNotFound
from inboxdesk.client.source import V1, V2, source_of
from inboxdesk.delivery import Cause, job_causes, notification_cause
from inboxdesk.models.delivery import ActivityNotification
from tests.client.conftest import run
from tests.client.faults import FaultTransport
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.production_shaped import production_shaped

FAST = ClientOptions(timeout=5, retry=RetryPolicy(base=0.01, cap=0.02, deadline=1))
NOTIFICATION = "65f1000000000000000000aa"


def _use(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str) -> None:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)


async def test_an_unknown_subscriber_on_the_v2_inbox_is_not_taken_for_an_older_service(
    service: Service,
) -> None:
    with production_shaped(service.url) as url:
        transport = FaultTransport()
        async with InboxClient(url, STAGING_KEY, FAST, transport=transport) as client:
            with pytest.raises(SubscriberNotFound) as unknown:
                await client.notifications("ghost")
            assert not isinstance(unknown.value, NoV2Inbox)
            assert unknown.value.message == "Subscriber 'ghost' was not found in this environment."
            assert client.v2_inbox is not False, "the v2 inbox is still there"
            assert source_of(client) is V2, "archive and snooze stay on"
    # On the error path only: the subscriber's own route decides, and the v2 listing
    # shows that route exists (a service with no v2 subscribers says nothing by its 404).
    assert [(r.method, r.url.path) for r in transport.seen] == [
        ("GET", "/v2/subscribers/ghost/notifications"),
        ("GET", "/v2/subscribers/ghost"),
        ("GET", "/v2/subscribers"),
    ]


def test_the_command_line_says_an_unknown_subscriber_in_one_line(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with production_shaped(service.url) as url:
        _use(monkeypatch, tmp_path, url)
        code, out, err = run(capsys, "messages", "ghost")
    assert code == 1 and out == ""
    assert err.splitlines()[0] == "inboxdesk: Subscriber 'ghost' was not found in this environment."
    assert "subscriberId, not a name" in err, "what to do, the same everywhere"


@pytest.mark.parametrize("v2_subscribers", [True, False])
async def test_a_missing_route_with_a_known_subscriber_is_an_older_service(
    make_service: ServiceFactory, v2_subscribers: bool
) -> None:
    service = make_service(v2_inbox=False, v2_subscribers=v2_subscribers)
    with production_shaped(service.url) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            with pytest.raises(NoV2Inbox):
                await client.notifications("jane")
            assert client.v2_inbox is False
            assert source_of(client) is V1


def _throttled() -> dict[str, Any]:
    """A notification as production stores a throttled one: the throttle job skipped with
    its detail and window, and the email after it skipped with no detail of its own."""
    window = {"shouldSkip": True, "executionCount": 4, "threshold": 3}
    window["throttledUntil"] = "2026-11-28T16:00:00.000Z"
    step = {"_id": "65f1000000000000000000b1", "_parentId": None, "active": True}
    return {
        "_id": NOTIFICATION,
        "_environmentId": "65f1000000000000000000e1",
        "_organizationId": "65f1000000000000000000e2",
        "_subscriberId": "65f1000000000000000000e3",
        "transactionId": "txn-throttled",
        "createdAt": "2026-11-28T15:00:00.000Z",
        "channels": ["email"],
        "severity": "none",
        "template": {"_id": "65f1000000000000000000e4", "name": "Order shipped", "triggers": []},
        "jobs": [
            {
                "_id": "65f1000000000000000000c1",
                "type": "throttle",
                "status": "skipped",
                "step": step,
                "stepOutput": {**window, "throttled": True},
                "executionDetails": [
                    {
                        "_id": "65f1000000000000000000d1",
                        "status": "Success",
                        "detail": "Throttle limit exceeded for the given window",
                        "source": "Internal",
                        "isRetry": False,
                        "isTest": False,
                        "raw": json.dumps(window),
                    }
                ],
            },
            {
                "_id": "65f1000000000000000000c2",
                "type": "email",
                "status": "skipped",
                "providerId": "sendgrid",
                # Fields the document requires, sent as null: each reads as left out.
                "step": {**step, "filters": None, "name": None},
                "payload": None,
                "executionDetails": None,
            },
        ],
    }


async def test_a_throttled_email_is_told_as_throttled_with_its_window(service: Service) -> None:
    canned = {f"GET /v1/notifications/{NOTIFICATION}": (200, {"data": _throttled()})}
    with production_shaped(service.url, canned=canned) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            found = await client.activity_notification(NOTIFICATION)
    cause = notification_cause(found)
    assert cause.cause is Cause.THROTTLED and cause.failed
    assert cause.words == (
        "email: skipped, throttled: too many of this workflow for the subscriber in the "
        "window (limit 3), until 2026-11-28T16:00:00.000Z"
    )
    assert "condition" not in cause.words
    assert [c.cause for _, c in job_causes(found)] == [Cause.THROTTLED, Cause.THROTTLED]


@pytest.mark.parametrize(
    ("detail", "status", "cause", "words"),
    [
        (
            "Digest was skipped, first backoff event",
            "skipped",
            Cause.DIGEST_FIRST,
            "digest: not digested, the first event of a backoff digest goes out alone",
        ),
        (
            "Bridge execution skipped",
            "skipped",
            Cause.WORKFLOW_SKIP,
            "digest: skipped by the workflow's own code",
        ),
        (
            "Step was skipped based on steps conditions",
            "skipped",
            Cause.CONDITION,
            "digest: skipped, a step condition was false",
        ),
        (
            "Step was extended to the next available time in the subscriber schedule",
            "delayed",
            Cause.SCHEDULED,
            "digest: waiting for the subscriber's schedule to open; it will arrive then",
        ),
        (
            "The step was skipped as it fell outside the subscriber's schedule",
            "canceled",
            Cause.OUTSIDE_SCHEDULE,
            "digest: canceled, outside the subscriber's schedule",
        ),
        (
            "Step was executed due to maximum number of subscriber schedule extensions reached",
            "running",
            Cause.PENDING,
            "digest: going out despite the subscriber's schedule (its extensions ran out)",
        ),
    ],
)
def test_each_skip_and_each_schedule_detail_has_its_own_cause(
    detail: str, status: str, cause: Cause, words: str
) -> None:
    body = _throttled()
    body["jobs"] = [{"type": "digest", "status": status, "executionDetails": [{"detail": detail}]}]
    ((_, found),) = job_causes(ActivityNotification.model_validate(body))
    assert (found.cause, found.words) == (cause, words)
    # "Extended" is on its way, never a failure; a bare skip is not a false condition.
    assert found.failed is (cause not in (Cause.SCHEDULED, Cause.PENDING, Cause.DIGEST_FIRST))


def test_a_skip_with_no_detail_is_not_called_a_false_condition() -> None:
    body = _throttled()
    body["jobs"] = [{"type": "email", "status": "skipped"}]
    assert "condition" not in notification_cause(ActivityNotification.model_validate(body)).words


def _null_email(service: Service) -> dict[str, tuple[int, Any]]:
    """Ada's listing as production sends it after a PATCH of `email: null`."""
    path = "/v2/subscribers/ada.lovelace/preferences"
    with service.http() as http:
        body = http.get(path, params={"criticality": "nonCritical"}).json()
    body["data"]["global"]["channels"]["email"] = None
    return {f"GET {path}?criticality=nonCritical": (200, body)}


async def test_a_null_channel_is_read_never_refused(make_service: ServiceFactory) -> None:
    service = make_service(preference_fixture())
    with production_shaped(service.url, canned=_null_email(service)) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            prefs = await client.preferences("ada.lovelace")
    assert prefs.global_.channels["email"] is None


def test_a_null_channel_shows_as_not_set(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    service = make_service(preference_fixture())
    with production_shaped(service.url, canned=_null_email(service)) as url:
        _use(monkeypatch, tmp_path, url)
        code, out, err = run(capsys, "preferences", "ada.lovelace")
        assert code == 0, err
        (glob,) = [line for line in out.splitlines() if line.startswith("Global")]
        # in_app, email (null), sms (Ada's own off), tool
        assert glob.split()[3:7] == ["on", "·", "OFF*", "on"]
        assert "· not set" in out
        code, out, err = run(capsys, "preferences", "ada.lovelace", "--json")
    assert code == 0, err
    assert json.loads(out)["data"][0]["channels"]["email"] is None
