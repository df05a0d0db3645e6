"""The demo's subscribers and their messages."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.server.demo.draws import between, hex_id, rng_for
from inboxdesk.server.demo.tables import (
    ACTORS,
    CARRIERS,
    CITIES,
    PROJECTS,
    PROVIDER_ERRORS,
    SNIPPETS,
    WARNINGS,
)
from inboxdesk.server.store import iso


def subscribers(
    rng: random.Random, now: datetime, people: list[tuple[str, str, str, str, str]]
) -> list[dict[str, Any]]:
    out = []
    for n, (sid, first, last, locale, tz) in enumerate(people):
        created = now - timedelta(days=60 - n)
        online = rng.random() < 0.5
        out.append(
            {
                "_id": hex_id(rng, created),
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
                        "_integrationId": hex_id(rng, created),
                        "credentials": {
                            "webhookUrl": f"https://hooks.slack.test/{sid}",
                            "channel": "#alerts",
                        },
                    },
                    {
                        "providerId": "fcm",
                        "_integrationId": hex_id(rng, created),
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


def message(
    rng: random.Random,
    now: datetime,
    sid: str,
    workflow: tuple[str, str, str, str],
    at: datetime,
    channel: str = "in_app",
) -> dict[str, Any]:
    name, group, title_t, body_t = workflow
    city, device = rng.choice(CITIES)
    values = {
        "actor": rng.choice(ACTORS),
        "snippet": rng.choice(SNIPPETS),
        "count": rng.randrange(2, 40),
        "project": rng.choice(PROJECTS),
        "order": rng.randrange(10000, 99999),
        "carrier": rng.choice(CARRIERS),
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
        "_id": hex_id(rng, at),
        "_notificationId": hex_id(rng, at),
        "_messageTemplateId": hex_id(rng, at),
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
                # In the model's order (payload, type): the demo is stored as built.
                cta["action"]["result"] = {"payload": {"approvedBy": sid}, "type": "primary"}
        message["cta"] = cta
    roll = rng.random()
    if roll < 0.06:
        if channel in PROVIDER_ERRORS and rng.random() < 0.5:
            error_id, error_text = "provider_error", PROVIDER_ERRORS[channel]
        else:
            missing = rng.choice(sorted(message["payload"]) or ["actor"])
            error_id = "render_error"
            error_text = f"Variable '{missing}' is missing from the payload"
        message.update(status="error", errorId=error_id, errorText=error_text)
    elif roll < 0.1:
        error_id, error_text = rng.choice(WARNINGS)
        message.update(status="warning", errorId=error_id, errorText=error_text)
    if rng.random() < 0.08:
        # Snoozed and delivered again; snoozedUntil alone lies ahead, as a snooze does.
        message["deliveredAt"].append(iso(between(rng, at, now)))
        message["snoozedUntil"] = iso(now + timedelta(hours=rng.randrange(1, 72)))
    if channel == "in_app" and int(message["_id"][-4:], 16) % 9 == 4:
        # Archived (about one in nine, read or not): off the subscriber's Inbox tab. From
        # the id, not the random stream, so the rest of the demo stays as it was.
        message["archived"] = True
        message["archivedAt"] = iso(between(rng_for(message["_id"]), at, now))
    if rng.random() < 0.2:
        message["overrides"] = {
            "email": {"replyTo": "support@acme.test"},
            "layoutIdentifier": "default",
        }
    seen_at = between(rng, at, now)
    if seen:
        message["lastSeenDate"] = iso(seen_at)
    if read:
        message["lastReadDate"] = iso(between(rng, seen_at, now))
    if channel == "email":
        message.update(email=f"{sid}@example.test", providerId="sendgrid", subject=title)
    elif channel == "sms":
        message.update(phone="+15550123", providerId="twilio", content=text)
    elif channel == "push":
        message.update(deviceTokens=["fcm-0123abcd"], providerId="fcm")
    elif channel == "chat":
        message.update(directWebhookUrl="https://hooks.slack.test/x", providerId="slack")
    elif channel == "tool":
        message.update(providerId="pagerduty")
    return message
