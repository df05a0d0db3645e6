"""A fixture for triggering workflows on the local service: one workflow per channel,
a delay, a digest, a critical one, integrations with and without delivery tracking, and
subscribers holding each kind of address (test scaffolding)."""

from __future__ import annotations

from typing import Any

TRIGGER_KEY = "trigger-key-0123456789abcdef"
ENV = "66a000000000000000000001"
INTEGRATIONS = {
    "novu": "66a000000000000000000101",
    "sendgrid": "66a000000000000000000102",
    "ses": "66a000000000000000000103",
    "twilio": "66a000000000000000000104",
    "fcm": "66a000000000000000000105",
    "slack": "66a000000000000000000106",
}
WORKFLOW_IDS = {
    "in-app": "66a000000000000000000201",
    "email": "66a000000000000000000202",
    "sms": "66a000000000000000000203",
    "push": "66a000000000000000000204",
    "chat": "66a000000000000000000205",
    "delayed": "66a000000000000000000206",
    "digest": "66a000000000000000000207",
    "critical": "66a000000000000000000208",
    "paused": "66a000000000000000000209",
    "welcome": "66a000000000000000000210",
    "strict": "66a000000000000000000211",
}


def _integration(
    provider: str, channel: str, primary: bool = False, tracking: bool = False
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "_id": INTEGRATIONS[provider],
        "name": provider.title(),
        "identifier": f"{provider}-main",
        "providerId": provider,
        "channel": channel,
        "credentials": {},
        "active": True,
        "deleted": False,
        "primary": primary,
    }
    if tracking:
        item["configurations"] = {"inboundWebhookEnabled": True}
    return item


def _step(kind: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": kind.replace("_", "-"),
        "active": True,
        "template": {"type": kind, "content": "Hello {{subscriber.firstName}}", **extra},
    }


def _workflow(key: str, steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "_id": WORKFLOW_IDS[key],
        "name": key.title(),
        "active": True,
        "critical": False,
        "steps": steps,
        "triggers": [{"type": "event", "identifier": key, "variables": []}],
        **extra,
    }


def trigger_fixture() -> dict[str, Any]:
    delay = {
        "name": "Wait",
        "active": True,
        "template": {"type": "delay"},
        "metadata": {"type": "regular", "amount": 5, "unit": "minutes"},
    }
    digest = {
        "name": "Digest",
        "active": True,
        "template": {"type": "digest"},
        "metadata": {"type": "regular", "amount": 10, "unit": "minutes", "digestKey": "project"},
    }
    return {
        "_organizationId": "66a000000000000000000000",
        "organization": "Trigger tests",
        "environments": [
            {
                "_id": ENV,
                "name": "Development",
                "apiKey": TRIGGER_KEY,
                "integrations": [
                    _integration("novu", "in_app"),
                    _integration("sendgrid", "email", primary=True, tracking=True),
                    _integration("ses", "email"),
                    _integration("twilio", "sms", primary=True),
                    _integration("fcm", "push"),
                    _integration("slack", "chat"),
                ],
                "workflows": [
                    _workflow("in-app", [_step("in_app")]),
                    _workflow("email", [_step("email", subject="Hi {{payload.name}}")]),
                    _workflow("sms", [_step("sms")]),
                    _workflow("push", [_step("push")]),
                    _workflow("chat", [_step("chat")]),
                    _workflow("delayed", [delay, _step("in_app")]),
                    _workflow("digest", [digest, _step("in_app")]),
                    _workflow(
                        "critical",
                        [_step("email")],
                        critical=True,
                        preferenceSettings={"email": True},
                    ),
                    _workflow("paused", [_step("in_app")], active=False),
                    _workflow("welcome", [_step("in_app"), _step("email")]),
                    _workflow(
                        "strict",
                        [
                            {**_step("sms"), "shouldStopOnFail": True},
                            _step("email"),
                            {
                                **_step("in_app"),
                                "filters": [
                                    {
                                        "isNegated": False,
                                        "type": "GROUP",
                                        "value": "AND",
                                        "children": [
                                            {
                                                "field": "plan",
                                                "value": "gold",
                                                "operator": "EQUAL",
                                                "on": "payload",
                                            }
                                        ],
                                    }
                                ],
                            },
                        ],
                    ),
                ],
                "subscribers": [
                    {
                        "subscriberId": "ada",
                        "firstName": "Ada",
                        "email": "ada@example.test",
                        "phone": "+15005550006",
                        "channels": [
                            {
                                "providerId": "fcm",
                                "_integrationId": INTEGRATIONS["fcm"],
                                "credentials": {"deviceTokens": ["fcm-token-1"]},
                            },
                            {
                                "providerId": "slack",
                                "_integrationId": INTEGRATIONS["slack"],
                                "credentials": {"webhookUrl": "https://hooks.slack.test/ada"},
                            },
                        ],
                    },
                    {"subscriberId": "bare", "firstName": "Bare"},
                    {
                        "subscriberId": "blocked",
                        "email": "bounce@example.test",
                        "phone": "+15005550004",
                        "channels": [
                            {
                                "providerId": "fcm",
                                "_integrationId": INTEGRATIONS["fcm"],
                                "credentials": {"deviceTokens": ["invalid-token"]},
                            },
                            {
                                "providerId": "slack",
                                "_integrationId": INTEGRATIONS["slack"],
                                "credentials": {"webhookUrl": "https://hooks.slack.invalid/x"},
                            },
                        ],
                    },
                    {
                        "subscriberId": "tokenless",
                        "channels": [
                            {
                                "providerId": "fcm",
                                "_integrationId": INTEGRATIONS["fcm"],
                                "credentials": {},
                            },
                            {
                                "providerId": "slack",
                                "_integrationId": INTEGRATIONS["slack"],
                                "credentials": {},
                            },
                        ],
                    },
                ],
                "messages": [],
            }
        ],
    }
