"""The demo's stories a support agent can act on.

Ada's phone is the provider's number for a recipient who opted out (Twilio's test number
`+15005550004`), so a send to her by SMS is refused for real (21610), again and again
until the number changes. Grace Hopper (Development) holds the stories fixed by
correcting her data: an SMS with no phone number, a push with no device token, an email
to a mistyped address that bounced, and an email sent through an integration that does
not report bounces (its "sent" is the last word). Her stories are staged, like Ada's:
the worker never touches them.

Nothing here draws from the demo's generators, so the rest of the demo stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.server.demo.delivery import ADA
from inboxdesk.server.demo.draws import hex_id, rng_for
from inboxdesk.server.store import iso

GRACE = "grace.hopper"
# Twilio's test number for a recipient who unsubscribed: error 21610.
BLOCKED_PHONE = "+15005550004"
# Her address with a letter dropped: the provider bounced it.
MISTYPED_EMAIL = "grace.hoper@example.test"
# The email integration without delivery tracking (it reports no bounces).
UNTRACKED = "Company SMTP"


def add_tracking(integrations: list[dict[str, Any]]) -> None:
    """SendGrid reports deliveries and bounces back (its inbound webhook is on)."""
    for item in integrations:
        if item["providerId"] == "sendgrid":
            item["configurations"] = {"inboundWebhookEnabled": True}


def fix_people(subscribers: list[dict[str, Any]], stories: bool) -> None:
    """Ada's phone everywhere; where Grace's stories are (`stories`), her data as they
    left it: no phone, a push entry without tokens, a mistyped email."""
    for person in subscribers:
        if person["subscriberId"] == ADA:
            person["phone"] = BLOCKED_PHONE
        elif person["subscriberId"] == GRACE and stories:
            person.pop("phone", None)
            person["email"] = MISTYPED_EMAIL
            for entry in person["channels"]:
                if entry["providerId"] == "fcm":
                    entry["credentials"] = {}


def _detail(at: datetime, status: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"createdAt": iso(at), "status": status, "detail": text, **extra}


def _selected(at: datetime, integration: Mapping[str, Any], name: str) -> dict[str, Any]:
    """`<Provider> provider was selected`, naming the integration used (its `_id`)."""
    raw = {
        "providerId": integration["providerId"],
        "identifier": integration["identifier"],
        "name": integration["name"],
        "_id": integration["_id"],
    }
    return _detail(
        at,
        "Pending",
        f"{name} provider was selected",
        providerId=integration["providerId"],
        raw=json.dumps(raw),
    )


def _in_app(at: datetime, rng_seed: str) -> dict[str, Any]:
    answer = {"id": f"novu-{rng_for(rng_seed).getrandbits(40):010x}", "date": iso(at)}
    return {
        "type": "in_app",
        "status": "completed",
        "executionDetails": [
            _detail(at, "Pending", "Message created"),
            _detail(at + timedelta(seconds=1), "Success", "Message sent", raw=json.dumps(answer)),
        ],
    }


def grace_stories(
    now: datetime, integrations: list[dict[str, Any]], workflows: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Grace's notifications and their in-app messages."""
    rng = rng_for("grace-stories")
    by_name = {i["name"]: i for i in integrations}
    twilio, sendgrid, smtp = by_name["Twilio"], by_name["SendGrid"], by_name[UNTRACKED]
    comment, _, _, security, invoice, _ = workflows[:6]
    notifications: list[dict[str, Any]] = []
    messages: list[dict[str, Any]] = []

    def story(hours_ago: float, workflow: str, title: str, job: dict[str, Any]) -> None:
        at = now - timedelta(hours=hours_ago)
        notification = {
            "_id": hex_id(rng, at),
            "subscriberId": GRACE,
            "workflow": workflow,
            "transactionId": f"txn_{rng.getrandbits(48):012x}",
            "createdAt": iso(at),
            "payload": {"story": title},
            # No trigger job: the feed shows none, as the worker's own notifications.
            "jobs": [_in_app(at, f"{title}:in_app"), job],
        }
        if workflow == security:
            notification["severity"] = "high"
        notifications.append(notification)
        messages.append(
            {
                "_id": hex_id(rng, at),
                "_notificationId": notification["_id"],
                "subscriberId": GRACE,
                "workflow": workflow,
                "createdAt": iso(at),
                "deliveredAt": [iso(at)],
                "transactionId": notification["transactionId"],
                "channel": "in_app",
                "read": False,
                "seen": False,
                "title": title,
                "content": f"{title}. Press d to see what to fix.",
                "payload": {"story": title},
                "status": "sent",
                "cta": {},
            }
        )

    def at(hours_ago: float) -> datetime:
        return now - timedelta(hours=hours_ago)

    story(
        2,
        security,
        "SMS not sent: no phone number",
        {
            "type": "sms",
            "status": "canceled",
            "providerId": "twilio",
            "executionDetails": [
                _selected(at(2), twilio, "Twilio"),
                _detail(at(2), "Pending", "Message created", providerId="twilio"),
                _detail(at(2), "Failed", "Subscriber missing phone number", providerId="twilio"),
            ],
        },
    )
    story(
        4,
        security,
        "Push not sent: no device token",
        {
            "type": "push",
            "status": "canceled",
            "providerId": "fcm",
            "executionDetails": [
                _detail(
                    at(4),
                    "Failed",
                    "Subscriber credentials is missing the tokens for sending a push "
                    "notification message",
                    source="Credentials",
                    providerId="fcm",
                ),
                _detail(at(4), "Warning", "Some push channels skipped to send the message"),
            ],
        },
    )
    sent = {"id": f"sendgrid-{rng.getrandbits(40):010x}", "date": iso(at(6))}
    bounce = {
        "email": MISTYPED_EMAIL,
        "timestamp": int(at(5.95).timestamp()),
        "event": "bounce",
        "type": "bounce",
        "status": "5.1.1",
        "reason": "550 5.1.1 The email account that you tried to reach does not exist.",
        "sg_event_id": f"ev-{rng.getrandbits(40):010x}",
        "sg_message_id": sent["id"],
    }
    story(
        6,
        comment,
        "Email to a mistyped address, bounced",
        {
            "type": "email",
            "status": "completed",
            "providerId": "sendgrid",
            "executionDetails": [
                _selected(at(6), sendgrid, "SendGrid"),
                _detail(at(6), "Pending", "Message created", providerId="sendgrid"),
                _detail(
                    at(6), "Success", "Message sent", providerId="sendgrid", raw=json.dumps(sent)
                ),
                _detail(
                    at(5.95),
                    "Failed",
                    "Message bounced",
                    source="Webhook",
                    providerId="sendgrid",
                    raw=json.dumps(bounce),
                ),
            ],
        },
    )
    answer = {"id": f"smtp-{rng.getrandbits(40):010x}", "date": iso(at(9))}
    story(
        9,
        invoice,
        "Email sent through an integration that reports no bounces",
        {
            "type": "email",
            "status": "completed",
            "providerId": "nodemailer",
            "executionDetails": [
                _selected(at(9), smtp, "Custom SMTP"),
                _detail(at(9), "Pending", "Message created", providerId="nodemailer"),
                _detail(
                    at(9),
                    "Success",
                    "Message sent",
                    providerId="nodemailer",
                    raw=json.dumps(answer),
                ),
            ],
        },
    )
    return notifications, messages
