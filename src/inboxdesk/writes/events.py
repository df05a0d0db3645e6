"""What became of a write: the outbox reports exactly one of these each time it acts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inboxdesk.client import InboxdeskError
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.writes.model import Write

if TYPE_CHECKING:
    from inboxdesk.client.triggers import TriggerAnswer
    from inboxdesk.models import Integration, Message
    from inboxdesk.models.preference import SubscriberPreferences


@dataclass(frozen=True)
class Result:
    """What the service returned. Views redraw rows from `messages`; where it returns
    no objects (`refetch`), the rows in view and the counts are fetched again."""

    messages: tuple[Message, ...] = ()
    notifications: tuple[InboxNotification, ...] = ()  # the v2 inbox's answers
    count: int | float | None = None  # mark-all: how many messages changed, as sent
    integration: Integration | None = None  # set primary: the new primary
    preferences: SubscriberPreferences | None = None  # a preference write: the listing after
    not_updated: tuple[str, ...] = ()  # ids asked for and absent from the answer
    # a subscriber-data write: what its kind journals as "after" (raw, 0600 only)
    values: dict[str, Any] | None = None
    trigger: TriggerAnswer | None = None  # a send or resend: the service's answer
    cancelled: bool | None = None  # a cancel: whether any delayed work was cancelled
    refetch: bool = False


@dataclass(frozen=True)
class Sent:
    """Done: `result` is what the service returned."""

    write: Write
    result: Result


@dataclass(frozen=True)
class Partial:
    """Part of the work done: `result.not_updated` names ids left alone, `failed` of
    `requests` requests were refused."""

    write: Write
    result: Result
    failed: int = 0
    requests: int = 1
    error: InboxdeskError | None = None


@dataclass(frozen=True)
class Queued:
    """Not sent: the service is away. It is sent, in order, when the service is back."""

    write: Write
    behind: int  # how many queued writes go before it
    reason: str = ""  # why it was not sent (the service's answer), raw: show it safe


@dataclass(frozen=True)
class Failed:
    """Not done: the service refused it, or it could not be sent and is not queued (set
    primary, or an outbox that does not queue)."""

    write: Write
    error: InboxdeskError


@dataclass(frozen=True)
class Dropped:
    """Taken out of the queue unsent (undone before it was tried, or dropped by the user)."""

    write: Write


@dataclass(frozen=True)
class Refused:
    """Not made at all, with the reason (an undo whose "before" is unknown, …)."""

    write: Write
    reason: str


Event = Sent | Partial | Queued | Failed | Dropped | Refused
