"""A small fixture for the subscriber-data tests: push and chat integrations (two of
fcm, the newer one active), and two subscribers: Ada with tokens and a webhook, Grace
missing her phone and push token."""

from __future__ import annotations

from typing import Any

from tests.conftest import STAGING_KEY

FCM_OLD = "65f000000000000000000010"
FCM_NEW = "65f000000000000000000011"
SLACK = "65f000000000000000000012"
# A token that must never be shown whole outside the 0600 journal.
SENTINEL = "tok-SENTINEL-7f3a9c2e5b81"


def _integration(iid: str, provider: str, channel: str, name: str, created: str) -> dict[str, Any]:
    return {
        "_id": iid,
        "name": name,
        "identifier": f"{provider}-{iid[-2:]}",
        "providerId": provider,
        "channel": channel,
        "primary": False,
        "active": True,
        "createdAt": created,
    }


def subscriber_fixture() -> dict[str, Any]:
    return {
        "environments": [
            {
                "name": "Staging",
                "apiKey": STAGING_KEY,
                "integrations": [
                    _integration(FCM_OLD, "fcm", "push", "FCM old", "2026-01-01T00:00:00.000Z"),
                    _integration(FCM_NEW, "fcm", "push", "FCM main", "2026-03-01T00:00:00.000Z"),
                    _integration(SLACK, "slack", "chat", "Slack", "2026-02-01T00:00:00.000Z"),
                ],
                "subscribers": [
                    {
                        "subscriberId": "ada.lovelace",
                        "firstName": "Ada",
                        "lastName": "Lovelace",
                        "email": "ada@example.com",
                        "phone": "+15005550004",
                        "locale": "en-GB",
                        "timezone": "Europe/London",
                        "channels": [
                            {
                                "providerId": "fcm",
                                "_integrationId": FCM_NEW,
                                "credentials": {"deviceTokens": ["tok-a1", "tok-a2"]},
                            },
                            {
                                "providerId": "slack",
                                "_integrationId": SLACK,
                                "credentials": {"webhookUrl": "https://hooks.slack.test/ada"},
                            },
                        ],
                    },
                    {"subscriberId": "grace.hopper", "firstName": "Grace", "email": "grace@ex.com"},
                ],
            }
        ]
    }
