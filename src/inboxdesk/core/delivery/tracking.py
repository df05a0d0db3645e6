"""Delivery tracking (decisions 95, 127): whether an email or push integration reports
bounces back (`configurations.inboundWebhookEnabled`), and which integration sent a
job. Without tracking "sent" may be the last truth: a bounce is never reported.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inboxdesk.models import Integration
    from inboxdesk.models.delivery import ActivityJob

# The channels whose providers report bounces through the inbound webhook.
TRACKED_CHANNELS = frozenset({"email", "push"})
UNTRACKED = "delivery tracking is off for this integration: a bounce may never be reported"
SELECTED = " provider was selected"


def tracks(item: Integration) -> bool | None:
    """Whether the integration reports bounces; None: a channel with no such tracking."""
    if str(item.channel or "") not in TRACKED_CHANNELS:
        return None
    config = item.configurations
    return config is not None and config.inbound_webhook_enabled is True


def tracking_words(item: Integration) -> str | None:
    """`delivery tracking: on …` / `off …` for an email or push integration, else None."""
    on = tracks(item)
    if on is None:
        return None
    if on:
        return "delivery tracking: on (bounces are reported back)"
    return "delivery tracking: off (a bounce is never reported: sent is not delivered)"


def _selected_id(job: ActivityJob) -> str | None:
    """The integration `_id` of the job's "provider was selected" detail, if any."""
    for detail in job.execution_details:
        if not detail.detail.endswith(SELECTED) or not detail.raw:
            continue
        try:
            raw = json.loads(detail.raw)
        except (ValueError, RecursionError):
            continue
        found = raw.get("_id") if isinstance(raw, dict) else None
        if isinstance(found, str) and found:
            return found
    return None


def sent_through(job: ActivityJob, integrations: Sequence[Integration]) -> Integration | None:
    """The integration that sent the job: the "provider was selected" detail's `_id`;
    only where that is absent, the job's `providerId` when it names one integration of
    the job's channel."""
    chosen = _selected_id(job)
    if chosen is not None:
        return next((i for i in integrations if i.id == chosen), None)
    if not job.provider_id:
        return None
    named = [
        i
        for i in integrations
        if i.provider_id == job.provider_id and str(i.channel or "") == str(job.type)
    ]
    return named[0] if len(named) == 1 else None


def untracked_note(job: ActivityJob, integrations: Sequence[Integration]) -> str | None:
    """Decision 127's words for an email or push job sent through an integration without
    tracking; None where it had tracking, or which integration sent it is unknown."""
    if str(job.type) not in TRACKED_CHANNELS:
        return None
    item = sent_through(job, integrations)
    if item is None or tracks(item) is not False:
        return None
    return UNTRACKED


def reporter_words(job: ActivityJob, integrations: Sequence[Integration]) -> str:
    """For a bounce (or another failure after sending): the integration that reported it,
    by name where known, else the job's provider; "" where neither is known."""
    item = sent_through(job, integrations)
    if item is not None:
        return f"reported by the integration {item.name} ({item.provider_id})"
    return f"reported by the {job.provider_id} integration" if job.provider_id else ""
