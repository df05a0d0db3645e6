"""A small fixture for the topic tests: Ada follows four topics (one subscription with a
context, one without identifier or records), Grace one; the demo's topic story (Ada's
deploy that came through `deploys`) is added as the demo adds it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from inboxdesk.server.demo.topics import add_topic_story
from tests.conftest import STAGING_KEY

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
SENDGRID = "65f000000000000000000020"
# Ada's subscriptions in `_id` order (the listing's); the demo story's come first.
EXTRA = [f"6600000000000000000000{n:02d}" for n in (1, 2)]
GRACE_SUBSCRIPTION = "660000000000000000000009"


def topic_fixture() -> dict[str, Any]:
    environment: dict[str, Any] = {
        "name": "Staging",
        "apiKey": STAGING_KEY,
        "integrations": [
            {
                "_id": SENDGRID,
                "name": "SendGrid",
                "identifier": "sendgrid",
                "providerId": "sendgrid",
                "channel": "email",
                "primary": True,
                "active": True,
            }
        ],
        "workflows": [
            {
                "name": "Deploy finished",
                "triggers": [{"type": "event", "identifier": "deploy", "variables": []}],
            },
            {
                "name": "Invoice ready",
                "triggers": [{"type": "event", "identifier": "invoice", "variables": []}],
            },
        ],
        "subscribers": [
            {"subscriberId": "ada.lovelace", "firstName": "Ada", "email": "ada@example.com"},
            {"subscriberId": "grace.hopper", "firstName": "Grace"},
        ],
        "notifications": [],
    }
    add_topic_story(NOW, environment)
    environment["topics"] += [
        {
            "key": "status",
            "name": "Status page",
            "subscriptions": [
                # Made without identifier or records: every workflow passes.
                {"_id": EXTRA[0], "subscriberId": "ada.lovelace"},
                {"_id": GRACE_SUBSCRIPTION, "subscriberId": "grace.hopper"},
            ],
        },
        {
            "key": "tenant-news",
            "subscriptions": [
                {
                    "_id": EXTRA[1],
                    "subscriberId": "ada.lovelace",
                    "identifier": "ada-acme-news",
                    "contextKeys": ["tenant:acme"],
                    "preferences": [{"workflow": "Invoice ready", "enabled": False}],
                }
            ],
        },
    ]
    return {"environments": [environment]}
