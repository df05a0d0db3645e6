"""A subscriber's own data: which fields may change and how each is checked, which
providers take credentials, what each channel needs from the subscriber, and how a
secret is masked. One statement for the service, the client, the app and the command
line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

# The fields `PATCH /v2/subscribers/{id}` takes, wire name -> command-line option name.
FIELDS = {
    "email": "email",
    "phone": "phone",
    "firstName": "first-name",
    "lastName": "last-name",
    "avatar": "avatar",
    "locale": "locale",
    "timezone": "timezone",
    "data": "data",
}
# Strings stored as given, "" included; the others refuse "" (a 422): clear them with null.
PLAIN_STRINGS = frozenset({"firstName", "lastName", "avatar", "phone"})

CHAT_PROVIDERS = frozenset(
    {
        "slack",
        "discord",
        "msteams",
        "mattermost",
        "ryver",
        "zulip",
        "grafana-on-call",
        "getstream",
        "rocket-chat",
        "whatsapp-business",
        "chat-webhook",
        "novu-slack",
        "googlechat",
        "sendblue",
    }
)
PUSH_PROVIDERS = frozenset(
    {"fcm", "apns", "expo", "one-signal", "pushpad", "push-webhook", "pusher-beams", "appio"}
)
CHAT_OR_PUSH = CHAT_PROVIDERS | PUSH_PROVIDERS
# Chat providers that write to the subscriber's phone, not a webhook.
PHONE_CHAT = frozenset({"whatsapp-business", "sendblue"})
# Production's limit of tokens in one credentials entry.
MAX_DEVICE_TOKENS = 100

# validator.js's isLocale, in short: language, script, region, variants.
_LOCALE = re.compile(
    r"^[A-Za-z]{2,3}(?:[-_][A-Za-z]{4})?(?:[-_](?:[A-Za-z]{2}|\d{3}))?"
    r"(?:[-_](?:[A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*$"
)
_E164 = re.compile(r"^\+[1-9]\d{6,14}$")


@cache
def _email() -> re.Pattern[str]:
    """class-validator's IsEmail with its defaults: a local part, and a domain with a dot
    and a top-level name of letters (or an IDN's `xn--`). Compiled when first asked: its
    classes of almost all of Unicode take about 40 ms to compile, which a process that
    checks no address (the service, most commands) should not pay at import."""
    return re.compile(
        r"^[^\s@\"(),:;<>\[\\\]]{1,64}@"
        r"(?:[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff-]{0,61}[A-Za-z0-9\u00a1-\uffff])?\.)+"
        r"(?:[A-Za-z\u00a1-\uffff]{2,63}|xn--[A-Za-z0-9-]{2,59})$"
    )


def is_email(value: str) -> bool:
    return bool(_email().match(value))


def is_locale(value: str) -> bool:
    return bool(_LOCALE.match(value))


def is_e164(value: str) -> bool:
    return bool(_E164.match(value))


@cache
def _zones() -> frozenset[str]:
    import zoneinfo

    return frozenset(zoneinfo.available_timezones())


def is_timezone(value: str) -> bool:
    """A known IANA zone (`America/New_York`, `UTC`)."""
    return value in _zones()


@dataclass(frozen=True)
class Checked:
    """What the checks before sending found: refusals (nothing is sent) and warnings."""

    refusals: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def check_fields(fields: Mapping[str, Any]) -> Checked:
    """The checks before sending: email has production's shape, timezone is a known
    zone, a phone not in E.164 is a warning, the locale is left to the service. `""` is
    refused where production refuses it; None clears."""
    refusals: list[str] = []
    warnings: list[str] = []
    for name, value in fields.items():
        if name not in FIELDS:
            refusals.append(f"{name} is not a field of a subscriber that can be changed.")
            continue
        if value is None:
            continue
        if name == "data":
            if not isinstance(value, dict):
                refusals.append("data must be a JSON object.")
            continue
        if not isinstance(value, str):
            refusals.append(f"{name} must be text.")
            continue
        if value == "" and name not in PLAIN_STRINGS:
            refusals.append(f'{name} cannot be empty: clear it instead (the service refuses "").')
        elif name == "email" and not is_email(value):
            refusals.append("email must be an address such as name@example.com (with a domain).")
        elif name == "timezone" and not is_timezone(value):
            refusals.append("timezone must be an IANA time zone, such as Europe/Paris.")
        elif name == "phone" and value and not is_e164(value):
            warnings.append(
                "phone is not in E.164 form (+ and country code, such as +14155550100): the "
                "service stores it as given, and an SMS to it may fail at the provider."
            )
    return Checked(tuple(refusals), tuple(warnings))


def mask(secret: str | None) -> str:
    """A token or webhook URL as it may be shown: its last 4 characters at most."""
    if not secret:
        return ""
    if len(secret) <= 8:
        return "•" * 4
    return "•" * 4 + secret[-4:]


def masked_credentials(credentials: Mapping[str, Any] | None) -> dict[str, Any]:
    """A credentials object with every token and webhook URL masked (`channel` kept)."""
    out: dict[str, Any] = {}
    for key, value in (credentials or {}).items():
        if key == "deviceTokens" and isinstance(value, list):
            out[key] = [mask(str(t)) for t in value]
        elif key == "webhookUrl" and isinstance(value, str):
            out[key] = mask(value)
        else:
            out[key] = value
    return out


@dataclass(frozen=True)
class Need:
    """One channel that would fail for want of one field of the subscriber."""

    channel: str
    field: str  # "email", "phone", "deviceTokens:<provider>", "webhookUrl:<provider>"
    words: str


def needs(subscriber: Mapping[str, Any]) -> list[Need]:
    """Which channel would fail for want of which field, from the
    subscriber's wire document; integrations and overrides are not considered."""
    found: list[Need] = []
    if not subscriber.get("email"):
        found.append(Need("email", "email", "email has no address: Subscriber missing email"))
    if not subscriber.get("phone"):
        found.append(Need("sms", "phone", "sms has no phone number: Subscriber missing phone"))
    entries = [c for c in subscriber.get("channels") or [] if isinstance(c, Mapping)]
    push = [c for c in entries if c.get("providerId") in PUSH_PROVIDERS]
    if not push:
        found.append(Need("push", "deviceTokens", "push has no provider entry with tokens"))
    for entry in push:
        tokens = (entry.get("credentials") or {}).get("deviceTokens") or []
        if not tokens:
            provider = str(entry.get("providerId"))
            found.append(
                Need("push", f"deviceTokens:{provider}", f"push via {provider} has no device token")
            )
    chat = [c for c in entries if c.get("providerId") in CHAT_PROVIDERS]
    for entry in chat:
        provider = str(entry.get("providerId"))
        if provider in PHONE_CHAT:
            continue
        if not (entry.get("credentials") or {}).get("webhookUrl"):
            found.append(
                Need("chat", f"webhookUrl:{provider}", f"chat via {provider} has no webhook URL")
            )
    return found


def field_of_cause(text: str) -> str | None:
    """The subscriber's field that a step's failure names, or None."""
    lowered = text.lower()
    if "missing email" in lowered or "bounce" in lowered:
        return "email"
    if "missing phone" in lowered:
        return "phone"
    if "tokens for sending a push" in lowered or "device token" in lowered:
        return "deviceTokens"
    if "webhook url" in lowered:
        return "webhookUrl"
    return None
