"""The demo's integrations and workflows, in the shapes production gives them."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.server.demo.draws import filters, hex_id
from inboxdesk.server.demo.tables import INTEGRATIONS, PRIMARIES, STORED_CONDITIONS, WORKFLOWS


def _every(amount: int, unit: str) -> str:
    return f"every {unit.removesuffix('s')}" if amount == 1 else f"every {amount} {unit}"


def _step_name(metadata: dict[str, Any]) -> tuple[str, str]:
    """The step's name and template type, from its metadata: digests and delays by kind."""
    if metadata["type"] == "timed":
        return f"Digest by {metadata['digestKey']} at {metadata['timed']['atTime']}", "digest"
    if "digestKey" in metadata:
        when = _every(metadata["amount"], metadata["unit"])
        return f"Digest by {metadata['digestKey']} {when}", "digest"
    if metadata["type"] == "scheduled":
        return f"Delay until {metadata['delayPath']}", "delay"
    return f"Delay {metadata['amount']} {metadata['unit']}", "delay"


def integrations(rng: random.Random, now: datetime, environment: str) -> list[dict[str, Any]]:
    out = []
    primaries = PRIMARIES.get(environment, {})
    for n, (channel, name, provider, active, primary, creds) in enumerate(INTEGRATIONS):
        if channel in primaries:
            primary = primaries[channel] == name
        # Secret-looking values get a random tail; public ones are kept as they are.
        credentials: dict[str, Any] = {}
        for key, value in creds.items():
            if key in {"apiKey", "secretKey", "token", "password", "accountSid", "clientId"}:
                value = value + "".join(rng.choice("abcdef0123456789") for _ in range(24))
            credentials[key] = value == "true" if value in {"true", "false"} else value
        item: dict[str, Any] = {
            "_id": hex_id(rng, now - timedelta(days=90 - n)),
            "name": name,
            "identifier": f"{provider}-{rng.getrandbits(24):06x}",
            "providerId": provider,
            "channel": channel,
            "credentials": credentials,
            "active": active,
            "deleted": False,
            "primary": primary,
        }
        if provider == "mailgun":
            item["conditions"] = filters(rng)
            item["configurations"] = {
                "inboundWebhookEnabled": True,
                "inboundWebhookSigningKey": "whsec_"
                + "".join(rng.choice("abcdef0123456789") for _ in range(24)),
            }
        elif provider == "nexmo":
            item["conditions"] = [
                {
                    "isNegated": False,
                    "type": "TEXT",
                    "value": "AND",
                    "children": [
                        {"field": "phone", "value": "+44", "operator": "LIKE", "on": "subscriber"}
                    ],
                }
            ]
        elif provider in STORED_CONDITIONS:
            item["conditions"] = STORED_CONDITIONS[provider]
        elif channel != "in_app":
            item["conditions"] = []
        out.append(item)
    # An agent-runtime integration: production gives it no channel.
    out.append(
        {
            "_id": hex_id(rng, now - timedelta(days=20)),
            "name": "Support agent",
            "identifier": f"agent-{rng.getrandbits(24):06x}",
            "providerId": "novu-agent",
            "kind": "agent",
            "credentials": {},
            "active": True,
            "deleted": False,
            "primary": False,
        }
    )
    out.append(_pagerduty(random.Random(f"{environment}:tool"), now, environment))
    _prioritise(out)
    return out


def _pagerduty(rng: random.Random, now: datetime, environment: str) -> dict[str, Any]:
    """An incident tool: the `tool` channel, which has no primary. Drawn from a generator
    of its own, so that the rest of the demo stays as it was before the channel came."""
    return {
        "_id": hex_id(rng, now - timedelta(days=10)),
        "name": "PagerDuty",
        "identifier": f"pagerduty-{rng.getrandbits(24):06x}",
        "providerId": "pagerduty",
        "channel": "tool",
        "credentials": {
            "apiKey": "".join(rng.choice("abcdef0123456789") for _ in range(32)),
            "region": "us",
        },
        "active": True,
        "deleted": False,
        "primary": False,
        "conditions": [],
    }


def _prioritise(items: list[dict[str, Any]]) -> None:
    """Priorities as production keeps them: per channel, the primary highest, then the
    other active ones, down to 1; inactive ones 0."""
    for channel in {i.get("channel") for i in items if i.get("channel")}:
        mine = [i for i in items if i.get("channel") == channel]
        ranked = sorted((i for i in mine if i["active"]), key=lambda i: not i["primary"])
        for n, item in enumerate(ranked):
            item["priority"] = len(ranked) - n
        for item in mine:
            item.setdefault("priority", 0)


# The workflow that also pages the on-call engineer through the tool integrations.
TOOL_WORKFLOW = "Security alert"


def _page_on_call(n: int, now: datetime) -> dict[str, Any]:
    """A tool step, from a generator of its own (the rest of the demo stays as it was)."""
    return {
        "_id": hex_id(random.Random(f"{TOOL_WORKFLOW}:tool"), now),
        "uuid": f"step-{n}-tool",
        "name": "Page on-call",
        "active": True,
        "shouldStopOnFail": False,
        "template": {"type": "tool"},
    }


def workflows(rng: random.Random, now: datetime) -> list[dict[str, Any]]:
    out = []
    metadata = [
        None,
        {
            "type": "regular",
            "amount": 1,
            "unit": "weeks",
            "digestKey": "project",
            "backoff": True,
            "backoffAmount": 10,
            "backoffUnit": "minutes",
            "updateMode": False,
        },
        {"type": "regular", "amount": 30, "unit": "minutes"},
        None,
        {"type": "scheduled", "delayPath": "payload.dueAt"},
        {
            "type": "timed",
            "amount": 1,
            "unit": "days",
            "digestKey": "project",
            "timed": {
                "atTime": "09:00",
                "weekDays": ["monday", "thursday"],
                "monthDays": ["1", "15"],
                "ordinal": "last",
                "ordinalValue": "weekday",
                "monthlyType": "on",
            },
        },
    ]
    for n, (name, group, _, _) in enumerate(WORKFLOWS):
        step_id = hex_id(rng, now - timedelta(days=80))
        steps: list[dict[str, Any]] = []
        wait = metadata[n]
        if wait is not None:
            step_name, step_type = _step_name(wait)
            steps.append(
                {
                    "_id": hex_id(rng, now),
                    "uuid": f"step-{n}-{step_type}",
                    "name": step_name,
                    "template": {"type": step_type},
                    "active": True,
                    "shouldStopOnFail": False,
                    "metadata": wait,
                }
            )
        steps.append(
            {
                "_id": step_id,
                "uuid": f"step-{n}-inbox",
                "name": "In-app",
                "_templateId": hex_id(rng, now),
                "active": True,
                "shouldStopOnFail": n == 3,
                "template": {"type": "in_app"},
                "filters": filters(rng) if n % 2 else [],
                "replyCallback": {"active": n == 0, "url": "https://acme.test/replies"},
                "variants": [
                    {
                        "_id": hex_id(rng, now),
                        "name": "German",
                        "active": True,
                        "filters": filters(rng),
                        "_parentId": step_id,
                    }
                ]
                if n == 0
                else [],
            }
        )
        if name == TOOL_WORKFLOW:
            steps.append(_page_on_call(n, now))
        steps.append(
            {
                "_id": hex_id(rng, now),
                "uuid": f"step-{n}-email",
                "name": "Email",
                "active": n != 5,
                "shouldStopOnFail": False,
                "template": {"type": "email"},
            }
        )
        out.append(
            {
                "_id": hex_id(rng, now - timedelta(days=85 - n)),
                "name": name,
                "description": f"Sent when: {name.lower()}.",
                "active": True,
                "draft": False,
                "preferenceSettings": {
                    "email": True,
                    "sms": n == 3,
                    "in_app": True,
                    "chat": n == 5,
                    "push": n in (0, 3),
                },
                "critical": n == 3,
                "tags": [group],
                "steps": steps,
                "triggers": [
                    {
                        "type": "event",
                        "identifier": name.lower().replace(" ", "-"),
                        "variables": [{"name": "actor"}, {"name": "project"}],
                        "subscriberVariables": [{"name": "email"}],
                    }
                ],
                "_creatorId": hex_id(rng, now),
                "_notificationGroupId": hex_id(rng, now),
                "deleted": False,
                "deletedAt": "",
                "deletedBy": "",
                "data": {"owner": "platform-team"},
                "workflowIntegrationStatus": {
                    "hasActiveIntegrations": True,
                    "hasPrimaryIntegrations": {"email": True, "sms": True},
                },
            }
        )
    return out
