"""The demo's notifications: one for each message, and Ada's delivery stories.

Every message belongs to a notification (same subscriber, transactionId and
`_notificationId`) whose job for the message's channel says how it went. Ada has one
story for each reason a notification did or did not arrive: delivered on every channel,
an email bounced after it was sent, an email canceled by her preference for one
workflow, an sms the provider refused, a push with no device token, a step skipped by
its condition, a chat step with no active integration, a digest, a tool step (paged
through PagerDuty), and one still pending.
Draws come from each message's id, so the rest of the demo stays as it was.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.server.demo.draws import hex_id, rng_for
from inboxdesk.server.store import iso

ADA = "ada.lovelace"
PROVIDERS = {
    "email": "sendgrid",
    "sms": "twilio",
    "push": "fcm",
    "chat": "slack",
    "tool": "pagerduty",
    "in_app": None,
}


def _detail(at: datetime | str, status: str, text: str, **extra: Any) -> dict[str, Any]:
    """A detail at `at` (or at that time already in the service's form)."""
    created = at if isinstance(at, str) else iso(at)
    return {"createdAt": created, "status": status, "detail": text, **extra}


def _sent(
    channel: str, at: datetime, rng: random.Random, created: str | None = None
) -> list[dict[str, Any]]:
    """The normal path: created, then sent with the provider's answer. `created`: `at`
    in the service's form, when the caller has it (formatting a time is most of this)."""
    created = created or iso(at)
    details = [_detail(created, "Pending", "Message created")]
    provider = PROVIDERS.get(channel)
    answer = {"id": f"{provider or 'novu'}-{rng.getrandbits(40):010x}", "date": created}
    extra = {"raw": json.dumps(answer), "providerId": provider} if provider else {}
    details.append(_detail(at + timedelta(seconds=1), "Success", "Message sent", **extra))
    return details


def _job(channel: str, status: str, details: list[dict[str, Any]]) -> dict[str, Any]:
    job: dict[str, Any] = {"type": channel, "status": status, "executionDetails": details}
    provider = PROVIDERS.get(channel)
    if provider:
        job["providerId"] = provider
    return job


def notification_for(message: dict[str, Any]) -> dict[str, Any]:
    """The notification a demo message belongs to, its one job as the message went."""
    rng = rng_for(f"notification:{message['_id']}")
    created = message["createdAt"]
    at = datetime.fromisoformat(created)
    channel = message.get("channel", "in_app")
    if message.get("status") == "error" and channel != "in_app":
        # An in-app message with an error is still in the inbox; elsewhere it was not sent.
        failure = {"message": message.get("errorText", ""), "code": message.get("errorId")}
        text = (
            "Unexpected provider error"
            if message.get("errorId") == "provider_error"
            else "Message content could not be generated"
        )
        details = [
            _detail(created, "Pending", "Message created"),
            _detail(at + timedelta(seconds=1), "Failed", text, raw=json.dumps(failure)),
        ]
        job = _job(channel, "failed", details)
    else:
        details = _sent(channel, at, rng, created)
        if channel == "in_app" and message.get("seen"):
            details.append(_detail(at + timedelta(minutes=5), "Success", "Message seen"))
        if channel == "in_app" and message.get("read"):
            details.append(_detail(at + timedelta(minutes=6), "Success", "Message read"))
        job = _job(channel, "completed", details)
    return {
        "_id": message["_notificationId"],
        "subscriberId": message["subscriberId"],
        "workflow": message["workflow"],
        "transactionId": message["transactionId"],
        "createdAt": message["createdAt"],
        "payload": message.get("payload", {}),
        "contextKeys": message.get("contextKeys", []),
        "jobs": [job],
    }


def ada_stories(
    now: datetime, opted_out: str, workflows: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Ada's stories: their notifications, their in-app messages, and the preference
    behind the canceled email (`opted_out`: the workflow she turned email off for)."""
    rng = rng_for("ada-stories")
    notifications: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []

    def story(
        hours_ago: float, workflow: str, title: str, jobs: list[dict[str, Any]], **extra: Any
    ) -> dict[str, Any]:
        at = now - timedelta(hours=hours_ago)
        notification = {
            "_id": hex_id(rng, at),
            "subscriberId": ADA,
            "workflow": workflow,
            "transactionId": f"txn_{rng.getrandbits(48):012x}",
            "createdAt": iso(at),
            "payload": {"story": title},
            "jobs": jobs,
            **extra,
        }
        notifications.append(notification)
        if any(j["type"] == "in_app" for j in jobs):
            messages.append(
                {
                    "_id": hex_id(rng, at),
                    "_notificationId": notification["_id"],
                    "subscriberId": ADA,
                    "workflow": workflow,
                    "createdAt": iso(at),
                    "deliveredAt": [iso(at)],
                    "transactionId": notification["transactionId"],
                    "channel": "in_app",
                    "read": False,
                    "seen": False,
                    "title": title,
                    "content": f"{title}. Press d to see how every channel went.",
                    "payload": {"story": title},
                    "status": "sent",
                    "cta": {},
                }
            )
        return notification

    def at(hours_ago: float) -> datetime:
        return now - timedelta(hours=hours_ago)

    comment, digest, order, security, invoice, deploy = workflows[:6]
    every = ["in_app", "email", "sms", "chat", "push"]
    story(
        1,
        comment,
        "Delivered on every channel",
        [
            _job(
                channel,
                "completed",
                [
                    *_sent(channel, at(1), rng),
                    _detail(at(0.9), "Success", "Message delivered", source="Webhook"),
                ],
            )
            for channel in every
        ],
    )
    bounce = {
        "event": "bounce",
        "email": "ada.lovelace@example.test",
        "reason": "550 5.1.1 The email account that you tried to reach does not exist",
        "sg_event_id": f"ev-{rng.getrandbits(40):010x}",
    }
    story(
        3,
        order,
        "Email sent, then bounced",
        [
            _job("in_app", "completed", _sent("in_app", at(3), rng)),
            _job(
                "email",
                "completed",
                [
                    *_sent("email", at(3), rng),
                    _detail(
                        at(2.9),
                        "Failed",
                        "Message bounced",
                        source="Webhook",
                        providerId="sendgrid",
                        raw=json.dumps(bounce),
                    ),
                ],
            ),
        ],
    )
    preference = {"enabled": True, "channels": {"email": False, "in_app": True}}
    story(
        5,
        opted_out,
        "Email canceled by Ada's preference for this workflow",
        [
            _job("in_app", "completed", _sent("in_app", at(5), rng)),
            {
                "type": "email",
                "status": "canceled",
                "executionDetails": [
                    _detail(
                        at(5),
                        "Success",
                        "Step filtered by subscriber workflow preferences",
                        raw=json.dumps(preference),
                    )
                ],
            },
        ],
    )
    twilio = {
        "status": 400,
        "code": 21610,
        "message": "Attempt to send to unsubscribed recipient",
        "more_info": "https://www.twilio.com/docs/errors/21610",
    }
    story(
        8,
        security,
        "SMS refused by the provider",
        [
            _job("in_app", "completed", _sent("in_app", at(8), rng)),
            _job(
                "sms",
                "failed",
                [
                    _detail(at(8), "Pending", "Message created"),
                    _detail(
                        at(8),
                        "Failed",
                        "Unexpected provider error",
                        providerId="twilio",
                        raw=json.dumps(twilio),
                    ),
                ],
            ),
        ],
        severity="high",
    )
    story(
        12,
        security,
        "Push with no device token",
        [
            _job("in_app", "completed", _sent("in_app", at(12), rng)),
            {
                "type": "push",
                "status": "failed",
                "providerId": "expo",
                "executionDetails": [
                    _detail(
                        at(12),
                        "Failed",
                        "Subscriber credentials is missing the tokens for sending a push "
                        "notification message",
                        source="Credentials",
                        providerId="expo",
                    )
                ],
            },
        ],
    )
    condition = [
        {
            "isNegated": False,
            "type": "GROUP",
            "value": "AND",
            "children": [
                {"field": "plan", "value": "enterprise", "operator": "EQUAL", "on": "payload"}
            ],
        }
    ]
    story(
        20,
        invoice,
        "Chat step skipped by its condition",
        [
            _job("in_app", "completed", _sent("in_app", at(20), rng)),
            {
                "type": "chat",
                "status": "canceled",
                "providerId": "slack",
                "executionDetails": [
                    _detail(
                        at(20),
                        "Failed",
                        "Step was skipped based on steps conditions",
                        raw=json.dumps(condition),
                    )
                ],
            },
        ],
    )
    digested = story(
        30,
        digest,
        "A weekly digest of three events",
        [
            {
                "type": "digest",
                "status": "completed",
                "digest": {
                    "type": "regular",
                    "amount": 30,
                    "unit": "minutes",
                    "digestKey": "project",
                    "events": [{"project": "Analytical Engine", "n": n} for n in range(3)],
                },
                "executionDetails": [
                    _detail(at(30), "Pending", "Step queued"),
                    _detail(at(30), "Pending", "Start digesting"),
                    _detail(at(29.5), "Success", "Digest triggered events"),
                ],
            },
            _job("in_app", "completed", _sent("in_app", at(29.5), rng)),
        ],
    )
    story(
        30.2,
        digest,
        "Merged into a later digest",
        [
            {
                "type": "digest",
                "status": "merged",
                "executionDetails": [
                    _detail(at(30.2), "Success", "Digest was merged with other digest")
                ],
            }
        ],
        _digestedNotificationId=digested["_id"],
    )
    story(
        40,
        deploy,
        "Chat step with no active integration",
        [
            _job("in_app", "completed", _sent("in_app", at(40), rng)),
            {
                "type": "chat",
                "status": "failed",
                "executionDetails": [
                    _detail(at(40), "Failed", "Subscriber does not have an active integration")
                ],
            },
        ],
    )
    paged = {"status": "success", "message": "Event processed", "dedup_key": "deploy-1042"}
    story(
        44,
        security,
        "A tool step: the on-call engineer paged through PagerDuty",
        [
            _job("in_app", "completed", _sent("in_app", at(44), rng)),
            _job(
                "tool",
                "completed",
                [
                    _detail(at(44), "Pending", "Message created"),
                    _detail(
                        at(44),
                        "Success",
                        "Message sent",
                        providerId="pagerduty",
                        raw=json.dumps(paged),
                    ),
                ],
            ),
        ],
    )
    story(
        0.2,
        deploy,
        "Still on its way: a delay before the email",
        [
            {
                "type": "delay",
                "status": "delayed",
                "executionDetails": [_detail(at(0.2), "Pending", "Step delayed")],
            },
            {
                "type": "email",
                "status": "pending",
                "providerId": "sendgrid",
                "executionDetails": [],
            },
        ],
    )
    preferences = [
        {
            "subscriberId": ADA,
            "workflow": opted_out,
            "channels": {"email": False},
            "updatedAt": iso(now - timedelta(days=2)),
        }
    ]
    return notifications, messages, preferences
