"""The scanned notifications grouped by what became of them: one group per (cause kind,
channel, providerId, provider code), largest first.

Each notification counts once, under its own cause (the cause module's: the first
channel job that did not arrive, else one under way, else delivered), so the app, the
command line and the timeline say the same thing and the counts add up to the scan.
Groups grow as pages arrive (`Grouping.add`); `groups()` sorts them afresh.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inboxdesk.core.delivery.codes import family_of, provider_code
from inboxdesk.delivery import (
    ARRIVED,
    UNDER_WAY,
    Cause,
    job_cause,
    notification_cause,
    of_channels,
)
from inboxdesk.models.delivery import ActivityNotification

# Causes whose deciding detail holds a provider's answer worth a code.
_FROM_PROVIDER = frozenset({Cause.PROVIDER_ERROR, Cause.AFTER_SENDING, Cause.FAILED})
EXAMPLES = 3


@dataclass(frozen=True, order=True)
class GroupKey:
    cause: Cause
    channel: str  # the job's step type ("" where no job decided)
    provider_id: str  # "" where the job names none
    code: str  # the provider's code, "" where none was read


@dataclass
class Group:
    """The notifications of one key: how many, when, of which workflows, for whom."""

    key: GroupKey
    family: str
    # The first notification's cause in words (newest first, as the feed reads).
    words: str
    count: int = 0
    first_seen: str = ""
    last_seen: str = ""
    workflows: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    notifications: list[ActivityNotification] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.key.cause not in ARRIVED | UNDER_WAY

    @property
    def label(self) -> str:
        """`provider error · sms · twilio 21610`: the key in words (untrusted: safe() it)."""
        provider = " ".join(p for p in (self.key.provider_id, self.key.code) if p)
        return " · ".join(p for p in (str(self.key.cause), self.key.channel, provider) if p)

    def top_workflows(self) -> list[str]:
        """Workflow names, the most frequent first (ties: first met first)."""
        return [name for name, _ in self.workflows.most_common()]

    def add(self, notification: ActivityNotification) -> None:
        self.count += 1
        self.notifications.append(notification)
        self.workflows[notification.workflow_name] += 1
        at = notification.created_at or ""
        if at and (not self.first_seen or at < self.first_seen):
            self.first_seen = at
        if at and at > self.last_seen:
            self.last_seen = at
        who = notification.subscriber.subscriber_id if notification.subscriber else ""
        if who and len(self.examples) < EXAMPLES and who not in self.examples:
            self.examples.append(who)

    def to_wire(self) -> dict[str, Any]:
        """The group as `--json` gives it (values from the wire: the caller makes them safe
        where it prints text)."""
        return {
            "cause": str(self.key.cause),
            "failed": self.failed,
            "channel": self.key.channel,
            "providerId": self.key.provider_id or None,
            "family": self.family,
            "code": self.key.code or None,
            "count": self.count,
            "firstSeen": self.first_seen or None,
            "lastSeen": self.last_seen or None,
            "workflows": self.top_workflows(),
            "examples": list(self.examples),
            "words": self.words,
            "notifications": [n.id for n in self.notifications],
        }


def key_of(notification: ActivityNotification) -> tuple[GroupKey, str, str]:
    """The notification's group key, its provider family and its cause in words."""
    found = notification_cause(notification)
    job = found.job
    if job is None:
        return GroupKey(found.cause, "", "", ""), family_of(None), found.words
    detail = None
    if found.cause in _FROM_PROVIDER:
        workflow = notification.template.name if notification.template is not None else ""
        detail = job_cause(job, workflow).detail
    provider = (detail.provider_id if detail is not None else None) or job.provider_id or ""
    code = provider_code(provider, detail.raw) if detail is not None else None
    family = code.family if code is not None else family_of(provider)
    return (
        GroupKey(found.cause, str(job.type), provider, code.code if code is not None else ""),
        family,
        found.words,
    )


class Grouping:
    """Groups that grow as pages of the scan arrive."""

    def __init__(self, channels: Sequence[str] = ()) -> None:
        self._groups: dict[GroupKey, Group] = {}
        self.scanned = 0
        # A search on channels groups each notification by those channels' jobs only.
        self.channels = tuple(channels)

    def add(self, notifications: Iterable[ActivityNotification]) -> None:
        for notification in notifications:
            key, family, words = key_of(of_channels(notification, self.channels))
            group = self._groups.get(key)
            if group is None:
                group = self._groups[key] = Group(key, family, words)
            group.add(notification)
            self.scanned += 1

    def groups(self) -> list[Group]:
        """Largest first; then the latest seen; then by key, so the order is stable."""
        ordered = sorted(self._groups.values(), key=lambda g: g.key)
        ordered.sort(key=lambda g: g.last_seen, reverse=True)
        ordered.sort(key=lambda g: g.count, reverse=True)
        return ordered


def group(notifications: Iterable[ActivityNotification]) -> list[Group]:
    """The notifications grouped by cause, largest group first."""
    grouping = Grouping()
    grouping.add(notifications)
    return grouping.groups()
