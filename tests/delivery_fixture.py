"""The example fixture with notifications: one for each cause of a delivery, for jane
in Staging, plus one in the Other environment (to prove scoping)."""

from __future__ import annotations

import json
from typing import Any

from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE

HOSTILE = "\x1b[31mred\x1b]8;;http://evil.test\x07link\u202e[bold]x[/bold]"


def _details(*items: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"status": status, "detail": detail} for status, detail in items]


SENT = _details(("Pending", "Message created"), ("Success", "Message sent"))
PREFERENCE_RAW = json.dumps({"enabled": True, "channels": {"email": False}})
PROVIDER_RAW = json.dumps(
    {
        "code": 21610,
        "message": "Attempt to send to unsubscribed recipient",
        "apiKey": "sk_live_1234567890abcdef",
    }
)

# transactionId -> (jobs, the cause kind the notification must show)
STORIES: dict[str, tuple[list[dict[str, Any]], str]] = {
    "txn-delivered": (
        [
            {"type": "in_app", "status": "completed", "executionDetails": SENT},
            {
                "type": "email",
                "status": "completed",
                "providerId": "sendgrid",
                "executionDetails": [
                    *SENT,
                    {"status": "Success", "detail": "Message delivered", "source": "Webhook"},
                ],
            },
        ],
        "delivered",
    ),
    # jane's newest in-app message (txn-11) belongs to this one.
    "txn-11": (
        [
            {"type": "in_app", "status": "completed", "executionDetails": SENT},
            {
                "type": "email",
                "status": "completed",
                "providerId": "sendgrid",
                "executionDetails": [
                    *SENT,
                    {
                        "status": "Failed",
                        "detail": "Message bounced",
                        "source": "Webhook",
                        "raw": json.dumps({"event": "bounce", "reason": "550 mailbox unavailable"}),
                    },
                ],
            },
        ],
        "after sending",
    ),
    "txn-pref-workflow": (
        [
            {
                "type": "email",
                "status": "canceled",
                "executionDetails": [
                    {
                        "status": "Success",
                        "detail": "Step filtered by subscriber workflow preferences",
                        "raw": PREFERENCE_RAW,
                    }
                ],
            }
        ],
        "preference",
    ),
    "txn-pref-global": (
        [
            {
                "type": "sms",
                "status": "canceled",
                "executionDetails": _details(
                    ("Success", "Step filtered by subscriber global preferences")
                ),
            }
        ],
        "preference",
    ),
    "txn-condition": (
        [
            {
                "type": "chat",
                "status": "canceled",
                "executionDetails": _details(
                    ("Failed", "Step was skipped based on steps conditions")
                ),
            }
        ],
        "condition",
    ),
    "txn-no-email": (
        [
            {
                "type": "email",
                "status": "failed",
                "executionDetails": _details(("Failed", "Subscriber missing email address")),
            }
        ],
        "missing address",
    ),
    "txn-no-token": (
        [
            {
                "type": "push",
                "status": "failed",
                "executionDetails": [
                    {
                        "status": "Failed",
                        "source": "Credentials",
                        "detail": "Subscriber credentials is missing the tokens for sending "
                        "a push notification message",
                    }
                ],
            }
        ],
        "missing token",
    ),
    "txn-no-integration": (
        [
            {
                "type": "tool",
                "status": "failed",
                "executionDetails": _details(
                    ("Warning", "Subscriber does not have an active integration")
                ),
            }
        ],
        "no integration",
    ),
    "txn-provider": (
        [
            {
                "type": "sms",
                "status": "failed",
                "providerId": "twilio",
                "executionDetails": [
                    {"status": "Pending", "detail": "Message created"},
                    {
                        "status": "Failed",
                        "detail": "Unexpected provider error",
                        "raw": PROVIDER_RAW,
                    },
                ],
            }
        ],
        "provider error",
    ),
    "txn-pending": (
        [
            {"type": "delay", "status": "delayed", "executionDetails": []},
            {"type": "email", "status": "pending", "executionDetails": []},
        ],
        "pending",
    ),
    "txn-hostile": (
        [
            {
                "type": "email",
                "status": "failed",
                "executionDetails": [
                    {"status": "Failed", "detail": HOSTILE, "raw": json.dumps({"m": HOSTILE})}
                ],
            }
        ],
        "failed",
    ),
}
FAILED = {t for t, (_, kind) in STORIES.items() if kind not in ("delivered", "pending")}


def delivery_fixture() -> dict[str, Any]:
    fixture = read_fixture(EXAMPLE)
    staging, other = fixture["environments"]
    staging["notifications"] = [
        {
            "subscriberId": "jane",
            "workflow": "Order shipped",
            "transactionId": transaction,
            "createdAt": f"2026-11-{10 + n:02d}T10:00:00.000Z",
            "jobs": [{"type": "trigger", "status": "completed", "executionDetails": []}, *jobs],
        }
        for n, (transaction, (jobs, _)) in enumerate(STORIES.items())
    ]
    staging["notifications"][0] |= {"severity": "high", "contextKeys": ["tenant:acme", "a:b"]}
    # joe's one notification: filters by subscriber and email tell the two apart.
    staging["notifications"].append(
        {
            "subscriberId": "joe",
            "workflow": "Order shipped",
            "transactionId": "txn-joe",
            "createdAt": "2026-10-01T10:00:00.000Z",
            "jobs": [{"type": "in_app", "status": "completed", "executionDetails": SENT}],
        }
    )
    # Made after every notification above: a preference changes future ones only.
    staging["preferences"] = [
        {
            "subscriberId": "jane",
            "workflow": "Order shipped",
            "channels": {"email": False},
            "updatedAt": "2026-11-30T10:00:00.000Z",
        }
    ]
    other["notifications"] = [
        {
            "subscriberId": "jane",
            "workflow": "Welcome",
            "transactionId": "txn-other-env",
            "jobs": [{"type": "in_app", "status": "completed", "executionDetails": SENT}],
        }
    ]
    return fixture
