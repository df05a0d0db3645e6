"""Providers simulated by their own published test conventions: nothing leaves the machine.

- sms: Twilio's magic test numbers (`+15005550001` invalid, `…0002` unroutable, `…0003`
  no international permission, `…0004` blocked or opted out, `…0009` not a mobile);
  any other number is sent.
- email: the SES mailbox simulator's local parts, read on any domain: `bounce@` (a hard
  bounce), `complaint@` (delivered, then a complaint), `suppressionlist@` (suppressed),
  `ooto@` (delivered, an out-of-office follows); anything else is delivered.
- push: a device token starting `invalid-` is unregistered.
- chat: a webhook URL whose host ends in `.invalid` cannot be resolved.

Each answer and error has the shape of its provider family's own, as production stores it
in `raw`. What the provider reports after sending (delivered, bounced, a complaint) is
`reports`: the worker writes them only where the integration has tracking on.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

# The display names production writes in "<Provider> provider was selected".
DISPLAY_NAMES = {
    "sendgrid": "SendGrid",
    "mailgun": "Mailgun",
    "ses": "SES",
    "postmark": "Postmark",
    "resend": "Resend",
    "mailjet": "Mailjet",
    "mandrill": "Mandrill",
    "nodemailer": "Custom SMTP",
    "twilio": "Twilio",
    "nexmo": "Nexmo",
    "plivo": "Plivo",
    "sns": "SNS",
    "fcm": "FCM",
    "apns": "APNS",
    "expo": "Expo",
    "one-signal": "OneSignal",
    "slack": "Slack",
    "discord": "Discord",
    "msteams": "MSTeams",
    "pagerduty": "PagerDuty",
}

TWILIO_ERRORS = {
    "+15005550001": (21211, "The 'To' number +15005550001 is not a valid phone number."),
    "+15005550002": (
        21612,
        "The 'To' phone number: +15005550002, is not currently reachable using the 'From' "
        "phone number via SMS.",
    ),
    "+15005550003": (
        21408,
        "Permission to send an SMS has not been enabled for the region indicated by the "
        "'To' number: +15005550003.",
    ),
    "+15005550004": (21610, "Attempt to send to unsubscribed recipient"),
    "+15005550009": (21614, "'To' number is not a valid mobile number"),
}

# SES mailbox simulator local parts, and what follows the send for each.
BOUNCE, COMPLAINT, SUPPRESSED, OUT_OF_OFFICE = "bounce", "complaint", "suppressionlist", "ooto"


def display_name(provider_id: str) -> str:
    return DISPLAY_NAMES.get(provider_id, provider_id.replace("-", " ").title() or "Unknown")


@dataclass(frozen=True)
class Report:
    """A provider's later report, as a Webhook execution detail."""

    text: str
    status: str
    raw: dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """A provider's answer: sent (`raw` its answer) or refused (`raw` its error)."""

    sent: bool
    raw: dict[str, Any]
    reports: list[Report] = field(default_factory=list)


def _message_id(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()[:22]


def _answer(seed: str, at: str) -> dict[str, Any]:
    # Every provider production wraps answers `{id, date}`.
    return {"id": _message_id(seed), "date": at}


def send_sms(provider_id: str, phone: str, seed: str, at: str) -> Outcome:
    number = "".join(c for c in phone if c == "+" or c.isdigit())
    refused = TWILIO_ERRORS.get(number)
    if refused is None:
        return Outcome(True, _answer(seed, at))
    code, message = refused
    more = f"https://www.twilio.com/docs/errors/{code}"
    if provider_id == "twilio":
        # twilio-node's RestException.
        return Outcome(False, {"status": 400, "code": code, "message": message, "moreInfo": more})
    return Outcome(False, {"code": code, "message": message})


def _email_event(
    family: str, kind: str, to: str, message_id: str, at: str, epoch: int
) -> dict[str, Any]:
    """A provider's webhook body for `kind` (delivered, bounce, complaint, dropped)."""
    if family == "sendgrid":
        event: dict[str, Any] = {
            "email": to,
            "timestamp": epoch,
            "event": {"complaint": "spamreport"}.get(kind, kind),
            "sg_event_id": _message_id(f"{message_id}:{kind}"),
            "sg_message_id": message_id,
        }
        if kind == "bounce":
            event |= {
                "type": "bounce",
                "status": "5.1.1",
                "reason": "550 5.1.1 The email account that you tried to reach does not exist.",
            }
        elif kind == "dropped":
            event["reason"] = "Bounced Address"
        return event
    if family == "ses":
        mail = {"messageId": message_id, "timestamp": at, "destination": [to]}
        if kind == "delivered":
            return {
                "eventType": "Delivery",
                "mail": mail,
                "delivery": {"timestamp": at, "recipients": [to], "smtpResponse": "250 Ok"},
            }
        if kind == "complaint":
            return {
                "eventType": "Complaint",
                "mail": mail,
                "complaint": {
                    "complainedRecipients": [{"emailAddress": to}],
                    "timestamp": at,
                    "complaintFeedbackType": "abuse",
                },
            }
        return {
            "eventType": "Bounce",
            "mail": mail,
            "bounce": {
                "bounceType": "Permanent",
                "bounceSubType": "OnAccountSuppressionList" if kind == "dropped" else "General",
                "bouncedRecipients": [
                    {
                        "emailAddress": to,
                        "action": "failed",
                        "status": "5.1.1",
                        "diagnosticCode": "smtp; 550 5.1.1 user unknown",
                    }
                ],
                "timestamp": at,
            },
        }
    if family == "mailgun":
        data: dict[str, Any] = {
            "event": {"delivered": "delivered", "complaint": "complained"}.get(kind, "failed"),
            "timestamp": epoch,
            "recipient": to,
            "message": {"headers": {"message-id": message_id}},
        }
        if kind in ("bounce", "dropped"):
            data |= {
                "severity": "permanent",
                "reason": "bounce" if kind == "bounce" else "suppress-bounce",
                "delivery-status": {
                    "code": 550,
                    "message": "5.1.1 The email account does not exist",
                },
            }
        return {"event-data": data}
    return {"event": kind, "recipient": to, "messageId": message_id, "timestamp": at}


# What each later report is called, with its status (production's detail texts).
_REPORTS = {
    "delivered": ("Message delivered", "Success"),
    "bounce": ("Message bounced", "Failed"),
    "complaint": ("Message complaint", "Failed"),
    "dropped": ("Message dropped", "Failed"),
}


def send_email(provider_id: str, to: str, seed: str, at: str, epoch: int) -> Outcome:
    answer = _answer(seed, at)
    local = to.split("@", 1)[0].split("+", 1)[0].lower()
    kinds = {
        BOUNCE: ["bounce"],
        COMPLAINT: ["delivered", "complaint"],
        SUPPRESSED: ["dropped"],
        OUT_OF_OFFICE: ["delivered"],
    }.get(local, ["delivered"])
    family = provider_id if provider_id in ("sendgrid", "ses", "mailgun") else "other"
    reports = [
        Report(*_REPORTS[kind], _email_event(family, kind, to, answer["id"], at, epoch))
        for kind in kinds
    ]
    return Outcome(True, answer, reports)


def push_error(provider_id: str, token: str) -> dict[str, Any]:
    """The provider's error for an unregistered device token."""
    if provider_id == "fcm":
        return {
            "code": "messaging/registration-token-not-registered",
            "message": "Requested entity was not found.",
        }
    if provider_id == "apns":
        return {"status": "410", "response": {"reason": "Unregistered"}}
    if provider_id == "expo":
        return {
            "status": "error",
            "message": f'"{token}" is not a registered push notification recipient',
            "details": {"error": "DeviceNotRegistered"},
        }
    return {"code": "unregistered", "message": "The device token is not registered"}


def send_push(provider_id: str, token: str, seed: str, at: str) -> Outcome:
    if token.startswith("invalid-"):
        return Outcome(False, push_error(provider_id, token))
    return Outcome(True, _answer(seed, at))


def send_chat(provider_id: str, webhook_url: str, seed: str, at: str) -> Outcome:
    host = (urlsplit(webhook_url).hostname or "").lower().rstrip(".")
    if host == "invalid" or host.endswith(".invalid") or not host:
        # What the HTTP client of every chat provider throws when the host has no address.
        return Outcome(
            False,
            {
                "code": "ENOTFOUND",
                "errno": -3008,
                "syscall": "getaddrinfo",
                "hostname": host,
                "message": f"getaddrinfo ENOTFOUND {host}",
            },
        )
    answer = _answer(seed, at)
    redacted = {"type": "webhook", "endpoint": {"url": "[REDACTED]"}}
    return Outcome(True, {**answer, "channelData": redacted})


def send_other(seed: str, at: str) -> Outcome:
    """A tool or any other provider: sent."""
    return Outcome(True, _answer(seed, at))
