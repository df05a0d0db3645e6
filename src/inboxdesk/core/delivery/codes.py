"""The provider's own code in a `raw` answer, one parser per provider family.

A group of failures keys on the provider's code (Twilio `21610`, SMTP `550 5.1.1`,
FCM `UNREGISTERED`), never on its text: the text varies by recipient, the code does
not. A family's parser reads where that family puts its code; a provider of no known
family gets the generic reading ("other"). Nothing is found: the code is "".
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

# Families by the integration's `providerId` (production's ids).
FAMILIES: dict[str, str] = {
    "twilio": "twilio",
    "sendgrid": "sendgrid",
    "fcm": "fcm",
    "apns": "apns",
    # Email providers whose errors carry the mail server's SMTP status.
    "nodemailer": "smtp",
    "ses": "smtp",
    "mailgun": "smtp",
    "mailjet": "smtp",
    "mandrill": "smtp",
    "postmark": "smtp",
    "sparkpost": "smtp",
    "netcore": "smtp",
    "infobip-email": "smtp",
    "resend": "smtp",
    "brevo": "smtp",
    "sendinblue": "smtp",
    "emailjs": "smtp",
    "mailersend": "smtp",
    "outlook365": "smtp",
    "braze": "smtp",
    "plunk": "smtp",
    "mailtrap": "smtp",
}
OTHER = "other"

# A reply code and, where given, the enhanced status (RFC 3463): `550 5.1.1`, `421-4.7.0`.
_SMTP = re.compile(r"(?<![\d.])([245]\d\d)(?:[ -]([245]\.\d{1,3}\.\d{1,3}))?(?![\d.])")
_ENHANCED = re.compile(r"(?<![\d.])([245]\.\d{1,3}\.\d{1,3})(?![\d.])")
# A code is short and one token or a few words; longer is prose, never a key.
_LONGEST = 60


@dataclass(frozen=True)
class ProviderCode:
    """The provider family that read the answer, the code it found ("" for none), and
    the provider's own name for what happened where it gives one (SendGrid's `event`:
    `bounce`, `blocked`, `dropped`), which the advice table keys on."""

    family: str
    code: str = ""
    event: str = ""


def family_of(provider_id: str | None) -> str:
    return FAMILIES.get((provider_id or "").lower(), OTHER)


def provider_code(provider_id: str | None, raw: str | None) -> ProviderCode:
    """The code in the `raw` answer of the provider `provider_id`, read by its family's
    parser."""
    family = family_of(provider_id)
    if not raw:
        return ProviderCode(family)
    try:
        value: object = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested past the reader's depth
        value = raw
    event = _get(value, "event") if family == "sendgrid" else None
    return ProviderCode(
        family, _code(_PARSERS[family](value)), event if isinstance(event, str) else ""
    )


def _code(found: object) -> str:
    """A found value as a code: one line, trimmed; "" when absent or too long to be one."""
    if isinstance(found, bool) or found is None:
        return ""
    text = " ".join(str(found).split())
    return text if len(text) <= _LONGEST else ""


def _get(value: object, *path: str) -> object:
    """The value at `path` in nested objects, or None where any step is missing."""
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _strings(value: object, depth: int = 0) -> list[str]:
    """Every string in a JSON value, in document order, not deeper than 4."""
    if isinstance(value, str):
        return [value]
    if depth > 4:
        return []
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item, depth + 1)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item, depth + 1)]
    return []


def smtp_status(text: str) -> str:
    """The SMTP status a mail server's reply starts with or holds: `550 5.1.1`, else the
    reply code alone (`550`), else the enhanced status alone (`5.1.1`); "" for none."""
    match = _SMTP.search(text)
    if match is not None:
        return " ".join(part for part in match.groups() if part)
    match = _ENHANCED.search(text)
    return match.group(1) if match is not None else ""


def _smtp(value: object) -> object:
    # Where mail APIs put the server's reply, first; then any string of the answer.
    for key in ("response", "diagnosticCode", "smtpResponse", "reason", "message", "error"):
        for text in _strings(_get(value, key)):
            found = smtp_status(text)
            if found:
                return found
    for text in _strings(value):
        found = smtp_status(text)
        if found:
            return found
    return _generic_code(value)


def _twilio(value: object) -> object:
    # Twilio's REST error: {"status": 400, "code": 21610, "message": …, "more_info": …}.
    code = _get(value, "code")
    if isinstance(code, int | str) and str(code).strip().isdigit():
        return str(code).strip()
    code = _get(value, "errorCode") or _get(value, "error_code")
    if code is not None:
        return code
    # A message that names it: "… (Twilio error 21610)", or the docs' address.
    text = value if isinstance(value, str) else _get(value, "message") or _get(value, "more_info")
    if isinstance(text, str):
        match = re.search(r"(?:errors/|error\s*(?:code)?\s*:?\s*)(\d{5})", text, re.IGNORECASE)
        if match is not None:
            return match.group(1)
    return None


def _sendgrid(value: object) -> object:
    # An event webhook's item: {"event": "bounce", "reason": "550 5.1.1 …", "type": …};
    # a dropped one's reason is SendGrid's own ("Bounced Address", "Invalid").
    reason = _get(value, "reason")
    if isinstance(reason, str):
        return smtp_status(reason) or reason
    for text in _strings(_get(value, "errors")):
        found = smtp_status(text)
        if found:
            return found
    if isinstance(value, str):
        return smtp_status(value) or None
    return _get(value, "event")


def _fcm(value: object) -> object:
    # FCM v1: {"error": {"status": "NOT_FOUND", "details": [{"errorCode": "UNREGISTERED"}]}};
    # firebase-admin: {"code": "messaging/registration-token-not-registered"} (or under
    # errorInfo).
    details = _get(value, "error", "details")
    if isinstance(details, list):
        for item in details:
            code = _get(item, "errorCode")
            if isinstance(code, str) and code:
                return code
    paths = (
        ("errorInfo", "code"),
        ("error", "errorInfo", "code"),
        ("errorCode",),
        ("code",),
        ("error", "code"),
    )
    for path in paths:
        code = _get(value, *path)
        if isinstance(code, str) and code:
            return code
    # The legacy API's result: {"error": "NotRegistered"}.
    error = _get(value, "error")
    return error if isinstance(error, str) else _get(value, "error", "status")


def _apns(value: object) -> object:
    # APNs: {"reason": "BadDeviceToken"}; node-apn's failure: {"status": "400",
    # "response": {"reason": "BadDeviceToken"}}.
    for path in (("reason",), ("response", "reason"), ("failed", "response", "reason")):
        code = _get(value, *path)
        if isinstance(code, str) and code:
            return code
    failed = _get(value, "failed")
    if isinstance(failed, list) and failed:
        return _apns(failed[0])
    return None


def _generic_code(value: object) -> object:
    for path in (("code",), ("errorCode",), ("error", "code"), ("reason",), ("status",)):
        code = _get(value, *path)
        if isinstance(code, int | str) and not isinstance(code, bool) and str(code):
            return code
    return None


def _other(value: object) -> object:
    # No known family: a provider's own `code` first, else an SMTP status in its text.
    found = _generic_code(value)
    if found is not None and _code(found):
        return found
    for text in _strings(value):
        status = smtp_status(text)
        if status:
            return status
    return None


_PARSERS: dict[str, Callable[[object], object]] = {
    "twilio": _twilio,
    "smtp": _smtp,
    "sendgrid": _sendgrid,
    "fcm": _fcm,
    "apns": _apns,
    OTHER: _other,
}
