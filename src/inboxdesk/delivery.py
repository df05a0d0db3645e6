"""Why a subscriber did or did not get a notification, in words: one rule for the app
and the command line alike.

A job's cause is read from its execution details (the worker's own words, newest
deciding) and then its status. Two things a glance gets wrong are spelled out: a
preference opt-out is a *canceled* job whose detail has status *Success*, and "sent"
is not "delivered" (a bounce arrives later, from the provider).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from inboxdesk.models.delivery import ActivityJob, ActivityNotification, ExecutionDetail
from inboxdesk.models.secrets import is_secret, mask_secret, mask_secrets


class Cause(StrEnum):
    DELIVERED = "delivered"
    SENT = "sent"
    PENDING = "pending"
    PREFERENCE = "preference"
    CONDITION = "condition"
    MISSING_ADDRESS = "missing address"
    MISSING_TOKEN = "missing token"
    NO_INTEGRATION = "no integration"
    PROVIDER_ERROR = "provider error"
    AFTER_SENDING = "after sending"
    PREVIOUS_FAILED = "previous step failed"
    OUTSIDE_SCHEDULE = "outside schedule"
    # Extended to the schedule's next open window: it will arrive.
    SCHEDULED = "extended by schedule"
    THROTTLED = "throttled"
    DIGEST_FIRST = "digest first event"
    WORKFLOW_SKIP = "skipped by the workflow"
    FAILED = "failed"
    CANCELED = "canceled"
    MERGED = "merged"
    UNKNOWN = "unknown"


# Causes under which the subscriber got the message or may still get it.
# A backoff digest's first event is not held: it goes on to the next step at once.
ARRIVED = frozenset({Cause.DELIVERED, Cause.SENT, Cause.MERGED, Cause.DIGEST_FIRST})
UNDER_WAY = frozenset({Cause.PENDING, Cause.SCHEDULED, Cause.UNKNOWN})


@dataclass(frozen=True)
class JobCause:
    """What became of one job: the kind, a sentence, and the detail it rests on."""

    cause: Cause
    words: str
    detail: ExecutionDetail | None = None

    @property
    def failed(self) -> bool:
        """Neither delivered nor on its way: preference cancels, condition skips and
        bounces included."""
        return self.cause not in ARRIVED | UNDER_WAY


@dataclass(frozen=True)
class NotificationCause:
    """The cause that answers "why didn't they get it?" for a whole notification: its
    first channel job that did not arrive, else one still under way, else delivered."""

    cause: Cause
    words: str
    job: ActivityJob | None = None

    @property
    def failed(self) -> bool:
        return self.cause not in ARRIVED | UNDER_WAY


_PREFERENCES = {
    "Step filtered by subscriber workflow preferences": "workflow",
    "Step filtered by subscriber global preferences": "global",
    "Step filtered by workflow preferences": "default",
    "Step filtered by user preferences": "default",
}
_AFTER_SENDING = {
    "Message bounced": "bounced",
    "Message dropped": "dropped",
    "Message spam": "marked as spam",
    "Message rejected": "rejected",
    "Message blocked": "blocked",
    "Message unsubscribed": "unsubscribed",
}
_CONFIRMED = {
    "Message delivered": "delivered",
    "Message opened": "delivered and opened",
    "Message clicked": "delivered and clicked",
    "Message read": "read in the inbox",
    "Message seen": "seen in the inbox",
}
_MISSING = {
    "Subscriber missing email address": (Cause.MISSING_ADDRESS, "has no email address"),
    "Subscriber missing phone number": (Cause.MISSING_ADDRESS, "has no phone number"),
    "Subscriber credentials is missing the tokens for sending a push notification message": (
        Cause.MISSING_TOKEN,
        "has no device token for push",
    ),
}
# The last detail of a job cancelled while it waited (a cancel adds none of its own).
_WAITED = frozenset({"Step delayed", "Step digested"})
_PENDING_STATUSES = {"pending", "queued", "running", "delayed"}


# The deepest provider answer read as JSON. Python's json recurses: a `raw` nested
# thousands deep would overflow its stack, hundreds deep would take minutes to indent and
# draw; a deeper one is shown as the text it is.
RAW_DEPTH = 32
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NOT_JSON = object()


def _nesting(text: str) -> int:
    """How deep the containers of a JSON text go (strings skipped)."""
    depth = most = 0
    for char in _NOT_BRACKET.sub("", _STRING.sub('""', text)):
        depth += 1 if char in "[{" else -1
        most = max(most, depth)
    return most


def _raw_json(raw: str) -> object:
    """A provider's `raw` answer as JSON, or `_NOT_JSON` when it is not JSON or is nested
    deeper than RAW_DEPTH."""
    if _nesting(raw) > RAW_DEPTH:
        return _NOT_JSON
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _next_window(raw: str | None) -> str:
    """` (next open window: 2026-03-02T09:00:00Z, Europe/London)` from an extension's
    `raw` (`nextAvailableTime`, `timezone`), or "" where it names none."""
    value = _raw_json(raw) if raw else None
    when = value.get("nextAvailableTime") if isinstance(value, dict) else None
    if not isinstance(when, str | int) or isinstance(when, bool):
        return ""
    assert isinstance(value, dict)
    zone = value.get("timezone")
    where = f", {' '.join(zone.split())[:64]}" if isinstance(zone, str) and zone.strip() else ""
    return f" (next open window: {' '.join(str(when).split())[:64]}{where})"


def provider_message(raw: str | None, limit: int = 200) -> str:
    """The provider's own words from a `raw` answer: its `message` (or `error`,
    `reason`, `detail`, `description`), else the text itself, on one line, cut."""
    if not raw:
        return ""
    text = raw
    value = _raw_json(raw)
    found = _message_in(value)
    if found:
        text = found
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message_in(value: object, depth: int = 0) -> str:
    if depth > 3:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value:
        return _message_in(value[0], depth + 1)
    if isinstance(value, dict):
        for key in ("message", "error", "reason", "detail", "description", "errors", "response"):
            if key in value:
                found = _message_in(value[key], depth + 1)
                if found:
                    return found
    return ""


def job_cause(job: ActivityJob, workflow: str = "") -> JobCause:
    """The cause of one job, in words that name the channel (and the workflow where a
    preference for it decided)."""
    channel = _channel_words(str(job.type))
    for detail in reversed(job.execution_details):
        found = _from_detail(detail, channel, workflow)
        if found is not None:
            return found
    status = str(job.status)
    if status in _PENDING_STATUSES:
        return JobCause(Cause.PENDING, f"{channel}: {status}, not sent yet")
    if status == "completed":
        return JobCause(Cause.DELIVERED, f"{channel}: completed")
    if status == "merged":
        return JobCause(Cause.MERGED, f"{channel}: merged into a later digest")
    if status == "skipped":
        # No detail says why: production writes the condition's detail on the step it
        # skips, so a bare skip is not a false condition (a throttle before it: job_causes).
        return JobCause(Cause.CANCELED, f"{channel}: skipped")
    last = job.execution_details[-1] if job.execution_details else None
    said = f" ({last.detail})" if last is not None and last.detail else ""
    if status == "failed":
        return JobCause(Cause.FAILED, f"{channel}: failed{said}", last)
    if status == "canceled":
        if last is None or last.detail.strip() in _WAITED:
            # A cancel writes no detail: the job stops at its last wait, or before any.
            return JobCause(
                Cause.CANCELED,
                f"{channel}: cancelled before it ran (the delayed work was cancelled)",
                last,
            )
        return JobCause(Cause.CANCELED, f"{channel}: canceled{said}", last)
    return JobCause(Cause.UNKNOWN, f"{channel}: {status or 'no status'}", last)


def _from_detail(detail: ExecutionDetail, channel: str, workflow: str) -> JobCause | None:
    """The cause one execution detail settles, or None when it settles none."""
    text = detail.detail.strip()
    scope = _PREFERENCES.get(text)
    if scope == "workflow":
        named = f"'{workflow}'" if workflow else "this workflow"
        return JobCause(
            Cause.PREFERENCE,
            f"{channel}: canceled, the subscriber turned {channel} off for {named}",
            detail,
        )
    if scope == "global":
        return JobCause(
            Cause.PREFERENCE,
            f"{channel}: canceled, the subscriber turned {channel} off for every workflow",
            detail,
        )
    if scope == "default":
        return JobCause(
            Cause.PREFERENCE, f"{channel}: canceled, the workflow's default for it is off", detail
        )
    if text == "Step was skipped based on steps conditions":
        return JobCause(Cause.CONDITION, f"{channel}: skipped, a step condition was false", detail)
    if text == THROTTLE_DETAIL:
        return JobCause(Cause.THROTTLED, f"{channel}: {_throttled(detail)}", detail)
    if text == "Digest was skipped, first backoff event":
        return JobCause(
            Cause.DIGEST_FIRST,
            f"{channel}: not digested, the first event of a backoff digest goes out alone",
            detail,
        )
    if text == "Bridge execution skipped":
        return JobCause(
            Cause.WORKFLOW_SKIP, f"{channel}: skipped by the workflow's own code", detail
        )
    if text == "Step was extended to the next available time in the subscriber schedule":
        return JobCause(
            Cause.SCHEDULED,
            f"{channel}: waiting for the subscriber's schedule to open; it will arrive then"
            + _next_window(detail.raw),
            detail,
        )
    if text == (
        "Step was executed due to maximum number of subscriber schedule extensions reached"
    ):
        return JobCause(
            Cause.PENDING,
            f"{channel}: going out despite the subscriber's schedule (its extensions ran out)",
            detail,
        )
    if text in _MISSING:
        cause, words = _MISSING[text]
        return JobCause(cause, f"{channel}: not sent, the subscriber {words}", detail)
    if text == "Subscriber does not have an active integration":
        return JobCause(
            Cause.NO_INTEGRATION, f"{channel}: not sent, no active {channel} integration", detail
        )
    if text == "Unexpected provider error":
        said = provider_message(detail.raw)
        return JobCause(
            Cause.PROVIDER_ERROR,
            f"{channel}: the provider refused it" + (f": {said}" if said else ""),
            detail,
        )
    if text in _AFTER_SENDING:
        said = provider_message(detail.raw)
        return JobCause(
            Cause.AFTER_SENDING,
            f"{channel}: sent, then {_AFTER_SENDING[text]} by the provider (sent is not "
            "delivered)" + (f": {said}" if said else ""),
            detail,
        )
    if text == "Step was canceled because a previous step failed":
        return JobCause(
            Cause.PREVIOUS_FAILED, f"{channel}: canceled, a previous step failed", detail
        )
    if text == "The step was skipped as it fell outside the subscriber's schedule":
        return JobCause(
            Cause.OUTSIDE_SCHEDULE,
            f"{channel}: canceled, outside the subscriber's schedule",
            detail,
        )
    if text in _CONFIRMED:
        return JobCause(Cause.DELIVERED, f"{channel}: {_CONFIRMED[text]}", detail)
    if text == "Message deferred":
        return JobCause(Cause.PENDING, f"{channel}: deferred by the provider, still trying", detail)
    if text == "Message sent":
        if channel == "in-app":  # the inbox is the destination: sent is there
            return JobCause(Cause.DELIVERED, "in-app: in the inbox", detail)
        return JobCause(Cause.SENT, f"{channel}: sent; the provider reported no problem", detail)
    return None


THROTTLE_DETAIL = "Throttle limit exceeded for the given window"


def _throttled(detail: ExecutionDetail | None) -> str:
    """A throttle's skip in words, with its window as the throttle job recorded it
    (`raw`: threshold, executionCount, throttledUntil; any may be missing)."""
    try:
        window = json.loads(detail.raw) if detail is not None and detail.raw else {}
    except ValueError:
        window = {}
    if not isinstance(window, dict):
        window = {}
    words = "skipped, throttled: too many of this workflow for the subscriber in the window"
    threshold, until = window.get("threshold"), window.get("throttledUntil")
    if isinstance(threshold, int | float) and not isinstance(threshold, bool):
        words += f" (limit {threshold:g})"
    if isinstance(until, str) and until:
        words += f", until {until}"
    return words


def job_causes(notification: ActivityNotification) -> list[tuple[ActivityJob, JobCause]]:
    """Each job of the notification (a trigger job left out) with its cause. A throttle
    skips its own job and every one after it, with its detail on the throttle job
    alone: those later skips are told as throttled, with its window."""
    workflow = notification.template.name if notification.template is not None else ""
    throttle: ExecutionDetail | None = None
    out = []
    for job in notification.jobs:
        if str(job.type) == "trigger":
            continue
        found = job_cause(job, workflow)
        if found.cause is Cause.THROTTLED:
            throttle = found.detail
        elif throttle is not None and str(job.status) == "skipped" and found.detail is None:
            channel = _channel_words(str(job.type))
            found = JobCause(Cause.THROTTLED, f"{channel}: {_throttled(throttle)}", throttle)
        out.append((job, found))
    return out


def _channel_words(step_type: str) -> str:
    return {"in_app": "in-app", "sms": "SMS"}.get(step_type, step_type or "step")


def notification_cause(notification: ActivityNotification) -> NotificationCause:
    """The notification's cause: its first channel job that did not arrive, else the
    first still under way, else delivered (named by how many channels)."""
    every = job_causes(notification)
    causes = [(job, found) for job, found in every if job.is_channel] or every
    if not causes:
        return NotificationCause(Cause.PENDING, "no steps run yet")
    for job, found in causes:
        if found.failed:
            others = sum(1 for _, c in causes if c.failed) - 1
            more = f" (and {others} more)" if others > 0 else ""
            return NotificationCause(found.cause, found.words + more, job)
    for job, found in causes:
        if found.cause in UNDER_WAY:
            return NotificationCause(found.cause, found.words, job)
    if len(causes) == 1:
        job, found = causes[0]
        return NotificationCause(found.cause, found.words, job)
    confirmed = all(c.cause is Cause.DELIVERED for _, c in causes)
    word = "delivered" if confirmed else "sent"
    return NotificationCause(
        Cause.DELIVERED if confirmed else Cause.SENT,
        f"{word} on {len(causes)} channels: "
        + ", ".join(_channel_words(str(j.type)) for j, _ in causes),
    )


@dataclass(frozen=True)
class PreferenceSpot:
    """The preference behind a canceled step: a workflow's trigger identifier (None: the
    subscriber's global preference) and the channel."""

    workflow: str | None
    channel: str


def preference_behind(notification: ActivityNotification) -> PreferenceSpot | None:
    """Where the preference that decided the notification's cause lives, when its cause
    is a preference; None otherwise."""
    found = notification_cause(notification)
    if found.cause is not Cause.PREFERENCE or found.job is None:
        return None
    template = notification.template
    decided = job_cause(found.job, template.name if template is not None else "")
    scope = _PREFERENCES.get(decided.detail.detail.strip()) if decided.detail else None
    workflow = template.identifier if template is not None else ""
    return PreferenceSpot(None if scope == "global" else (workflow or None), str(found.job.type))


def has_failed(notification: ActivityNotification) -> bool:
    """Whether a channel job of it did not arrive (the "failed" filter)."""
    return any(found.failed for job, found in job_causes(notification) if job.is_channel)


def of_channels(
    notification: ActivityNotification, channels: Sequence[str]
) -> ActivityNotification:
    """The notification as a filter on `channels` asks about it: their jobs and the
    workflow's own steps (delay, digest), without the other channels' jobs; whole when
    no channel is named. The feed's `channels` picks notifications that have one of
    them: an SMS search must not call one failed, or group it, for its in-app step."""
    if not channels:
        return notification
    jobs = [j for j in notification.jobs if not j.is_channel or str(j.type) in channels]
    return notification.model_copy(update={"jobs": jobs})


# Causes a rule chose (the subscriber's, the workflow's or a throttle's), not a fault.
STOPPED_ON_PURPOSE = frozenset(
    {
        Cause.PREFERENCE,
        Cause.CONDITION,
        Cause.OUTSIDE_SCHEDULE,
        Cause.THROTTLED,
        Cause.DIGEST_FIRST,
        Cause.WORKFLOW_SKIP,
    }
)

# One glyph per job status, for rows that show every job of a notification at a glance.
GLYPHS = {
    Cause.DELIVERED: "✓",
    Cause.SENT: "✓",
    Cause.MERGED: "⤵",
    Cause.PENDING: "…",
    Cause.SCHEDULED: "…",
    Cause.UNKNOWN: "?",
}


def glyph(found: JobCause) -> str:
    """✓ arrived, … under way, ⊘ canceled by a preference or condition, ✗ failed."""
    if found.cause in GLYPHS:
        return GLYPHS[found.cause]
    if found.cause in STOPPED_ON_PURPOSE:
        return "⊘"
    return "✗"


def shown_raw(raw: str | None) -> str:
    """A provider's `raw` answer as it may be shown: JSON indented with every
    secret-looking value masked, or the text itself (masked whole if it looks like
    one). Still untrusted: callers pass it through `safe()`."""
    if raw is None:
        return ""
    value = _raw_json(raw)
    if value is _NOT_JSON:
        return mask_secret(raw) if is_secret("raw", raw.strip()) else raw
    return json.dumps(mask_secrets(value), indent=2, ensure_ascii=False)
