"""The example fixture with the activity of many subscribers, for the feed across
everyone: SMS refused by Twilio for several subscribers (two codes), email bounces,
a missing phone number, deliveries, and older filler that makes three pages of 50.
Times are relative to when the fixture is made, so windows (`1h`, `24h`) select."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE

LOGIN = {
    "_id": "65c0000000000000000000a1",
    "name": "Login code",
    "steps": [{"name": "SMS", "active": True}],
    "triggers": [{"type": "event", "identifier": "login-code", "variables": []}],
}
PEOPLE = ["ann", "bob", "cy", "dee", "eve"]
SENT = [
    {"status": "Pending", "detail": "Message created"},
    {"status": "Success", "detail": "Message sent"},
]
FILLER = 110  # delivered, 4 to 5 days old: with the stories, 3 pages of 50


def refused(code: int) -> dict[str, Any]:
    raw = {"status": 400, "code": code, "message": f"Twilio refused it ({code})"}
    return {
        "type": "sms",
        "status": "failed",
        "providerId": "twilio",
        "executionDetails": [
            {"status": "Pending", "detail": "Message created"},
            {
                "status": "Failed",
                "detail": "Unexpected provider error",
                "providerId": "twilio",
                "raw": json.dumps(raw),
            },
        ],
    }


def bounced(address: str) -> dict[str, Any]:
    reason = f"550 5.1.1 <{address}>: the email account does not exist"
    return {
        "type": "email",
        "status": "completed",
        "providerId": "sendgrid",
        "executionDetails": [
            *SENT,
            {
                "status": "Failed",
                "detail": "Message bounced",
                "source": "Webhook",
                "providerId": "sendgrid",
                "raw": json.dumps({"event": "bounce", "reason": reason}),
            },
        ],
    }


NO_PHONE = {
    "type": "sms",
    "status": "failed",
    "executionDetails": [{"status": "Failed", "detail": "Subscriber missing phone number"}],
}
IN_APP = {"type": "in_app", "status": "completed", "executionDetails": SENT}

# (subscriber, workflow, minutes ago, job, extra fields), newest first.
STORIES: list[tuple[str, str, float, dict[str, Any], dict[str, Any]]] = [
    ("jane", "Order shipped", 1, IN_APP, {}),
    ("ann", "Login code", 5, refused(21610), {"severity": "high"}),
    ("bob", "Login code", 10, refused(21610), {"severity": "high"}),
    ("cy", "Login code", 15, refused(21610), {}),
    ("dee", "Login code", 20, refused(21610), {}),
    ("eve", "Login code", 25, refused(21211), {}),
    ("jane", "Login code", 30, refused(21211), {"contextKeys": ["tenant:acme"]}),
    ("bob", "Login code", 40, NO_PHONE, {}),
    ("joe", "Order shipped", 50, IN_APP, {}),
    (
        "ann",
        "Order shipped",
        120,
        bounced("ann@example.test"),
        {"topics": [{"_topicId": "65c0000000000000000000f1", "topicKey": "orders"}]},
    ),
    ("joe", "Order shipped", 180, bounced("joe@example.test"), {}),
    ("cy", "Login code", 3 * 24 * 60, refused(21610), {}),
]
FAILED_LAST_HOUR = 7  # the refusals and the missing phone


def at(minutes_ago: float, now: datetime) -> str:
    return (now - timedelta(minutes=minutes_ago)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def feed_fixture(now: datetime | None = None) -> dict[str, Any]:
    now = now or datetime.now(UTC)
    fixture = read_fixture(EXAMPLE)
    staging = fixture["environments"][0]
    staging["workflows"].append(LOGIN)
    staging["subscribers"] += [
        {"subscriberId": who, "firstName": who.title(), "email": f"{who}@example.test"}
        for who in PEOPLE
    ]
    notifications = [
        {
            "subscriberId": who,
            "workflow": workflow,
            "transactionId": f"txn-{n}",
            "createdAt": at(minutes, now),
            "jobs": [job],
            **extra,
        }
        for n, (who, workflow, minutes, job, extra) in enumerate(STORIES)
    ]
    notifications += [
        {
            "subscriberId": PEOPLE[n % len(PEOPLE)],
            "workflow": "Order shipped",
            "transactionId": f"txn-filler-{n}",
            "createdAt": at(4 * 24 * 60 + n, now),
            "jobs": [IN_APP],
        }
        for n in range(FILLER)
    ]
    staging["notifications"] = notifications
    return fixture


# The fixture of the last minute, and when it was made (time.monotonic()).
_recent: list[tuple[float, dict[str, Any]]] = []
FRESH_FOR = 60.0


def recent_feed_fixture() -> dict[str, Any]:
    """The feed fixture made less than a minute ago, the same object for the tests that
    ask within that minute: one template load serves them all (each still gets a store of
    its own; tests/templates.py). A window a test asks for moves by that minute at most;
    the narrowest edge any test draws is 2.5 minutes from a story (17.5 minutes, against
    cy's 15). Shared: nothing changes it."""
    now = time.monotonic()
    if not _recent or now - _recent[0][0] > FRESH_FOR:
        _recent[:] = [(now, feed_fixture())]
    return _recent[0][1]
