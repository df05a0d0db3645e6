"""The demo data set: a deterministic fixture that exercises every field of the API.

Same seed and `now`, same data: ids, names, states and times are drawn from one seeded
generator, with times spread over the six weeks before `now`.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from inboxdesk.server.store import iso

BIG_INBOX = "margaret.hamilton"
BIG_INBOX_SIZE = 2100

_PEOPLE = [
    ("ada.lovelace", "Ada", "Lovelace", "en-GB", "Europe/London"),
    ("grace.hopper", "Grace", "Hopper", "en-US", "America/New_York"),
    ("alan.turing", "Alan", "Turing", "en-GB", "Europe/London"),
    ("katherine.johnson", "Katherine", "Johnson", "en-US", "America/Chicago"),
    ("linus.torvalds", "Linus", "Torvalds", "fi-FI", "Europe/Helsinki"),
    (BIG_INBOX, "Margaret", "Hamilton", "en-US", "America/Los_Angeles"),
    ("hedy.lamarr", "Hedy", "Lamarr", "de-AT", "Europe/Vienna"),
]

_INTEGRATIONS: list[tuple[str, str, str, bool, bool, dict[str, str]]] = [
    # channel, name, providerId, active, primary, credentials
    ("in_app", "Inbox", "novu", True, False, {"hmac": "true"}),
    (
        "email",
        "SendGrid",
        "sendgrid",
        True,
        True,
        {"apiKey": "SG.", "from": "hello@acme.test", "senderName": "Acme"},
    ),
    (
        "email",
        "Mailgun EU",
        "mailgun",
        True,
        False,
        {"apiKey": "key-", "domain": "mg.acme.test", "region": "eu", "from": "hello@acme.test"},
    ),
    (
        "email",
        "Amazon SES",
        "ses",
        False,
        False,
        {
            "apiKey": "AKIA",
            "secretKey": "ses/",
            "region": "us-east-1",
            "from": "no-reply@acme.test",
        },
    ),
    (
        "email",
        "Company SMTP",
        "nodemailer",
        True,
        False,
        {
            "host": "smtp.acme.test",
            "port": "587",
            "user": "mailer",
            "password": "pw-",
            "from": "it@acme.test",
        },
    ),
    (
        "sms",
        "Twilio",
        "twilio",
        True,
        True,
        {"accountSid": "AC", "token": "tw-", "from": "+15550100"},
    ),
    ("sms", "Vonage", "nexmo", True, False, {"apiKey": "vn-", "secretKey": "vs-", "from": "ACME"}),
    (
        "sms",
        "Plivo",
        "plivo",
        False,
        False,
        {"accountSid": "MA", "token": "pl-", "from": "+15550111"},
    ),
    (
        "chat",
        "Slack",
        "slack",
        True,
        False,
        {
            "applicationId": "A0",
            "clientId": "c-",
            "secretKey": "sl-",
            "redirectUrl": "https://acme.test/slack",
        },
    ),
    (
        "chat",
        "Discord",
        "discord",
        True,
        False,
        {"webhookUrl": "https://discord.test/api/webhooks/"},
    ),
    (
        "push",
        "Firebase Cloud Messaging",
        "fcm",
        True,
        False,
        {"serviceAccount": '{"type":"service_account"}'},
    ),
    (
        "push",
        "Apple Push",
        "apns",
        False,
        False,
        {"secretKey": "p8-", "user": "team", "token": "ap-"},
    ),
]

_WORKFLOWS = [
    (
        "Comment on your post",
        "engagement",
        "New comment from {actor}",
        "{actor} replied: \u201c{snippet}\u201d",
    ),
    ("Weekly digest", "digest", "Your week at Acme", "{count} updates in {project} this week"),
    (
        "Order shipped",
        "commerce",
        "Order #{order} is on its way",
        "Your order #{order} shipped via {carrier}.",
    ),
    (
        "Security alert",
        "security",
        "New sign-in from {city}",
        "A new sign-in to your account from {city} ({device}).",
    ),
    (
        "Invoice ready",
        "billing",
        "Invoice {invoice} is ready",
        "Your invoice {invoice} for ${amount} is ready to pay.",
    ),
    (
        "Deploy finished",
        "devops",
        "{project} deployed to production",
        "Build {build} of {project} finished in {minutes} min.",
    ),
]

_ACTORS = [
    "Ada",
    "Grace",
    "Alan",
    "Katherine",
    "Linus",
    "Margaret",
    "Hedy",
    "Barbara",
    "Dennis",
    "Ken",
]
_SNIPPETS = [
    "Looks great, ship it!",
    "Can we move this to Thursday?",
    "I left a few notes inline.",
    "This fixes the flaky test \U0001f389",
    "Why does the build take so long?",
    "Approved with one nit.",
    "Let's pair on this tomorrow.",
]
_CITIES = [
    ("Lisbon", "Firefox on Linux"),
    ("Osaka", "Safari on iPhone"),
    ("Denver", "Chrome on macOS"),
    ("Nairobi", "Edge on Windows"),
]
_PROJECTS = ["apollo", "gemini", "mercury", "voyager", "pioneer"]
_CARRIERS = ["DHL", "UPS", "FedEx", "La Poste"]
# Errors that fit the message: a provider's refusal for its channel, or a variable of
# the message's own workflow missing from the payload.
_PROVIDER_ERRORS = {
    "email": "Provider rejected the message: recipient inbox is full",
    "sms": "Provider rejected the message: the number is unreachable",
    "push": "Provider rejected the message: the device token has expired",
    "chat": "Provider rejected the message: the webhook was revoked",
}
_WARNINGS = [("slow_provider", "Provider answered after 12 s; delivered late")]


def rng_for(seed: str) -> random.Random:
    return random.Random(seed)


def _between(rng: random.Random, start: datetime, end: datetime) -> datetime:
    """A time after `start` and not after `end`: the data never dates itself in the future."""
    return start + (end - start) * rng.random() if end > start else start


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


def _hex(rng: random.Random, at: datetime) -> str:
    return f"{int(at.timestamp()) & 0xFFFFFFFF:08x}{rng.getrandbits(64):016x}"


def _filters(rng: random.Random) -> list[dict[str, Any]]:
    return [
        {
            "isNegated": rng.random() < 0.2,
            "type": "GROUP",
            "value": rng.choice(["AND", "OR"]),
            "children": [
                {"field": "locale", "value": "de-AT", "operator": "EQUAL", "on": "subscriber"},
                {"field": "plan", "value": "enterprise,team", "operator": "IN", "on": "payload"},
            ],
        }
    ]


# Conditions as production's database holds them from older dashboards (behaviour.md
# section 2): no `isNegated` or `type`, children with `_id`, `on: tenant`, values that
# are numbers or lists. The client must read every one.
_STORED_CONDITIONS: dict[str, list[dict[str, Any]]] = {
    "ses": [
        {
            "value": "AND",
            "children": [
                {
                    "_id": "6613a1f0c2b4e5a6b7c8d9e0",
                    "field": "region",
                    "value": "eu-west",
                    "operator": "EQUAL",
                    "on": "tenant",
                }
            ],
        }
    ],
    "plivo": [
        {
            "value": "OR",
            "children": [
                {"field": "tier", "value": 3, "operator": "LARGER", "on": "payload"},
                {"field": "tags", "value": ["vip", "beta"], "operator": "IN", "on": "payload"},
            ],
        }
    ],
}
# Each environment's primaries: Production sends email through its own SMTP server.
_PRIMARIES = {
    "Development": {"email": "SendGrid", "sms": "Twilio"},
    "Production": {"email": "Company SMTP", "sms": "Twilio"},
}


def _integrations(rng: random.Random, now: datetime, environment: str) -> list[dict[str, Any]]:
    out = []
    primaries = _PRIMARIES.get(environment, {})
    for n, (channel, name, provider, active, primary, creds) in enumerate(_INTEGRATIONS):
        if channel in primaries:
            primary = primaries[channel] == name
        # Secret-looking values get a random tail; public ones are kept as they are.
        credentials: dict[str, Any] = {}
        for key, value in creds.items():
            if key in {"apiKey", "secretKey", "token", "password", "accountSid", "clientId"}:
                value = value + "".join(rng.choice("abcdef0123456789") for _ in range(24))
            credentials[key] = value == "true" if value in {"true", "false"} else value
        item: dict[str, Any] = {
            "_id": _hex(rng, now - timedelta(days=90 - n)),
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
            item["conditions"] = _filters(rng)
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
        elif provider in _STORED_CONDITIONS:
            item["conditions"] = _STORED_CONDITIONS[provider]
        elif channel != "in_app":
            item["conditions"] = []
        out.append(item)
    # An agent-runtime integration: production gives it no channel.
    out.append(
        {
            "_id": _hex(rng, now - timedelta(days=20)),
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
    _prioritise(out)
    return out


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


def _workflows(rng: random.Random, now: datetime) -> list[dict[str, Any]]:
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
    for n, (name, group, _, _) in enumerate(_WORKFLOWS):
        step_id = _hex(rng, now - timedelta(days=80))
        steps: list[dict[str, Any]] = []
        wait = metadata[n]
        if wait is not None:
            step_name, step_type = _step_name(wait)
            steps.append(
                {
                    "_id": _hex(rng, now),
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
                "_templateId": _hex(rng, now),
                "active": True,
                "shouldStopOnFail": n == 3,
                "template": {"type": "in_app"},
                "filters": _filters(rng) if n % 2 else [],
                "replyCallback": {"active": n == 0, "url": "https://acme.test/replies"},
                "variants": [
                    {
                        "_id": _hex(rng, now),
                        "name": "German",
                        "active": True,
                        "filters": _filters(rng),
                        "_parentId": step_id,
                    }
                ]
                if n == 0
                else [],
            }
        )
        steps.append(
            {
                "_id": _hex(rng, now),
                "uuid": f"step-{n}-email",
                "name": "Email",
                "active": n != 5,
                "shouldStopOnFail": False,
                "template": {"type": "email"},
            }
        )
        out.append(
            {
                "_id": _hex(rng, now - timedelta(days=85 - n)),
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
                "_creatorId": _hex(rng, now),
                "_notificationGroupId": _hex(rng, now),
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


def _subscribers(
    rng: random.Random, now: datetime, people: list[tuple[str, str, str, str, str]]
) -> list[dict[str, Any]]:
    out = []
    for n, (sid, first, last, locale, tz) in enumerate(people):
        created = now - timedelta(days=60 - n)
        online = rng.random() < 0.5
        out.append(
            {
                "_id": _hex(rng, created),
                "subscriberId": sid,
                "firstName": first,
                "lastName": last,
                "email": f"{sid}@example.test",
                "phone": f"+1555{rng.randrange(1000000, 9999999)}",
                "avatar": f"https://avatars.example.test/{sid}.png",
                "locale": locale,
                "timezone": tz,
                "isOnline": online,
                "lastOnlineAt": iso(
                    now - timedelta(minutes=1 if online else rng.randrange(30, 9000))
                ),
                "channels": [
                    {
                        "providerId": "slack",
                        "integrationIdentifier": "slack-main",
                        "_integrationId": _hex(rng, created),
                        "credentials": {
                            "webhookUrl": f"https://hooks.slack.test/{sid}",
                            "channel": "#alerts",
                        },
                    },
                    {
                        "providerId": "fcm",
                        "_integrationId": _hex(rng, created),
                        "credentials": {
                            "deviceTokens": [
                                f"fcm-{rng.getrandbits(48):012x}" for _ in range(1 + n % 2)
                            ]
                        },
                    },
                ],
                "topics": ["product-updates"] if n % 2 else [],
                "__v": 0,
                "data": {
                    "plan": rng.choice(["free", "team", "enterprise"]),
                    "seats": rng.randrange(1, 50),
                },
                "deleted": False,
                "createdAt": iso(created),
                "updatedAt": iso(created + timedelta(days=3)),
            }
        )
    return out


def _message(
    rng: random.Random,
    now: datetime,
    sid: str,
    workflow: tuple[str, str, str, str],
    at: datetime,
    channel: str = "in_app",
) -> dict[str, Any]:
    name, group, title_t, body_t = workflow
    city, device = rng.choice(_CITIES)
    values = {
        "actor": rng.choice(_ACTORS),
        "snippet": rng.choice(_SNIPPETS),
        "count": rng.randrange(2, 40),
        "project": rng.choice(_PROJECTS),
        "order": rng.randrange(10000, 99999),
        "carrier": rng.choice(_CARRIERS),
        "city": city,
        "device": device,
        "invoice": f"INV-{rng.randrange(1000, 9999)}",
        "amount": f"{rng.randrange(10, 900)}.{rng.randrange(0, 99):02d}",
        "build": rng.randrange(100, 999),
        "minutes": rng.randrange(1, 30),
    }
    title = title_t.format(**values)
    text = body_t.format(**values)
    read = rng.random() < 0.45
    seen = read or rng.random() < 0.5
    message: dict[str, Any] = {
        "_id": _hex(rng, at),
        "_notificationId": _hex(rng, at),
        "_messageTemplateId": _hex(rng, at),
        "subscriberId": sid,
        "workflow": name,
        "createdAt": iso(at),
        "deliveredAt": [iso(min(at + timedelta(seconds=rng.randrange(1, 20)), now))],
        "transactionId": f"txn_{rng.getrandbits(48):012x}",
        "channel": channel,
        "read": read,
        "seen": seen,
        "title": title,
        "payload": {k: v for k, v in values.items() if k in body_t or k in title_t},
        "contextKeys": [f"tenant:acme-{rng.choice(['eu', 'us'])}", f"project:{values['project']}"],
        "status": "sent",
        "cta": {},
        "_feedId": None,
    }
    if rng.random() < 0.4:
        message["content"] = [
            {"type": "text", "content": text, "styles": {"textAlign": "left"}},
            {
                "type": "button",
                "content": "Open",
                "url": f"https://app.acme.test/{group}",
                "styles": {"textAlign": "center"},
            },
        ]
    else:
        message["content"] = text
    if rng.random() < 0.5:
        message["subject"] = title
    if rng.random() < 0.6:
        cta: dict[str, Any] = {
            "type": "redirect",
            "data": {"url": f"https://app.acme.test/{group}/{values['order']}"},
        }
        if rng.random() < 0.5:
            done = rng.random() < 0.4
            cta["action"] = {
                "status": "done" if done else "pending",
                "buttons": [
                    {"type": "primary", "content": "Approve", "resultContent": "Approved"},
                    {"type": "secondary", "content": "Dismiss"},
                ],
            }
            if done:
                cta["action"]["result"] = {"type": "primary", "payload": {"approvedBy": sid}}
        message["cta"] = cta
    roll = rng.random()
    if roll < 0.06:
        if channel in _PROVIDER_ERRORS and rng.random() < 0.5:
            error_id, error_text = "provider_error", _PROVIDER_ERRORS[channel]
        else:
            missing = rng.choice(sorted(message["payload"]) or ["actor"])
            error_id = "render_error"
            error_text = f"Variable '{missing}' is missing from the payload"
        message.update(status="error", errorId=error_id, errorText=error_text)
    elif roll < 0.1:
        error_id, error_text = rng.choice(_WARNINGS)
        message.update(status="warning", errorId=error_id, errorText=error_text)
    if rng.random() < 0.08:
        # Snoozed and delivered again; snoozedUntil alone lies ahead, as a snooze does.
        message["deliveredAt"].append(iso(_between(rng, at, now)))
        message["snoozedUntil"] = iso(now + timedelta(hours=rng.randrange(1, 72)))
    if channel == "in_app" and int(message["_id"][-4:], 16) % 9 == 4:
        # Archived (about one in nine, read or not): off the subscriber's Inbox tab. From
        # the id, not the random stream, so the rest of the demo stays as it was.
        message["archived"] = True
        message["archivedAt"] = iso(_between(rng_for(message["_id"]), at, now))
    if rng.random() < 0.2:
        message["overrides"] = {
            "email": {"replyTo": "support@acme.test"},
            "layoutIdentifier": "default",
        }
    seen_at = _between(rng, at, now)
    if seen:
        message["lastSeenDate"] = iso(seen_at)
    if read:
        message["lastReadDate"] = iso(_between(rng, seen_at, now))
    if channel == "email":
        message.update(email=f"{sid}@example.test", providerId="sendgrid", subject=title)
    elif channel == "sms":
        message.update(phone="+15550123", providerId="twilio", content=text)
    elif channel == "push":
        message.update(deviceTokens=["fcm-0123abcd"], providerId="fcm")
    elif channel == "chat":
        message.update(directWebhookUrl="https://hooks.slack.test/x", providerId="slack")
    return message


def _environment(name: str, seed: int, now: datetime, big: bool) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{name}")
    people = _PEOPLE if big else _PEOPLE[:5]
    messages = []
    for sid, *_ in people:
        count = BIG_INBOX_SIZE if sid == BIG_INBOX else rng.randrange(45, 90)
        span = 42 * 24 * 3600
        for _ in range(count):
            at = now - timedelta(seconds=rng.randrange(60, span))
            messages.append(_message(rng, now, sid, rng.choice(_WORKFLOWS), at))
        for channel in ("email", "sms", "push", "chat"):
            at = now - timedelta(seconds=rng.randrange(60, span))
            messages.append(_message(rng, now, sid, rng.choice(_WORKFLOWS), at, channel))
    # One message that is brand new: unread, unseen, on top.
    messages.append(
        _message(
            random.Random(f"{seed}:{name}:new"),
            now,
            people[0][0],
            _WORKFLOWS[0],
            now - timedelta(minutes=2),
        )
        | {"read": False, "seen": False}
    )
    messages[-1].pop("lastSeenDate", None)
    messages[-1].pop("lastReadDate", None)
    return {
        "_id": _hex(rng, now - timedelta(days=120)),
        "name": name,
        "identifier": f"{name[:4].lower()}-{rng.getrandbits(32):08x}",
        "type": "dev" if big else "prod",
        "slug": name.lower(),
        "integrations": _integrations(rng, now, name),
        "workflows": _workflows(rng, now),
        "subscribers": _subscribers(rng, now, people),
        "messages": messages,
    }


def demo_fixture(now: datetime | None = None, seed: int = 7) -> dict[str, Any]:
    """The demo data set as a fixture: Development (with the big inbox) and Production."""
    now = (now or datetime.now(UTC).replace(minute=0, second=0, microsecond=0)).astimezone(UTC)
    development = _environment("Development", seed, now, big=True)
    # Production is made from Development, as production's own environments are.
    production = _environment("Production", seed, now, big=False) | {
        "_parentId": development["_id"]
    }
    return {
        "_organizationId": _hex(random.Random(seed), now - timedelta(days=365)),
        "organization": "Acme Robotics",
        "environments": [development, production],
    }
