"""The meaning of a provider's code beside its own words (decision 94), for the timeline
and `inboxdesk delivery`. The code is read here with a small reader of the few shapes
the table covers, until the core's parser (core/delivery/codes.py) replaces it."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from inboxdesk.core.delivery.advice import Advice, advice

if TYPE_CHECKING:
    from inboxdesk.models.delivery import ActivityJob

_SMTP = re.compile(r"\b(5\d\d)(?:[ -](\d\.\d{1,3}\.\d{1,3}))?\b")
_TOKENS = ("UNREGISTERED", "BadDeviceToken")


def _read(provider_id: str, raw: str, channel: str) -> tuple[str, str] | None:
    """(family, code) from one `raw` answer, or None."""
    try:
        value: object = json.loads(raw)
    except (ValueError, RecursionError):
        value = raw
    found = value if isinstance(value, dict) else {}
    provider = provider_id.casefold()
    if "twilio" in provider and isinstance(found.get("code"), int | str):
        return "twilio", str(found["code"])
    if provider == "sendgrid" and isinstance(found.get("event"), str):
        event = found["event"]
        if event in ("bounce", "blocked", "dropped"):
            return "sendgrid", event
    if provider in ("fcm", "apns", "expo", "one-signal"):
        text = raw if isinstance(value, str) else json.dumps(value)
        for token in _TOKENS:
            if token in text:
                return ("fcm" if token == "UNREGISTERED" else "apns"), token
    smtp = _SMTP.search(raw) if channel == "email" else None
    if smtp is not None:
        return "smtp", " ".join(p for p in smtp.groups() if p)
    return None


def advice_of(job: ActivityJob) -> Advice | None:
    """The table's row for the first code a job's details carry that it lists."""
    for detail in job.execution_details:
        if not detail.raw:
            continue
        read = _read(job.provider_id or detail.provider_id or "", detail.raw, str(job.type))
        if read is not None and (found := advice(*read)) is not None:
            return found
    return None
