"""The activity feed and one notification's delivery (jobs and execution details).

Finding notifications and scanning the feed's pages build on these
(core/delivery/finding.py).

Every page is bounded before it is used: at most the notifications asked for, each
once, and one that cannot be read costs itself, not the page; each is said.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inboxdesk.client.bounded import bounded
from inboxdesk.client.parse import envelope_page, json_of, parse, unwrap
from inboxdesk.client.sender import segment
from inboxdesk.models.delivery import ActivityNotification

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender

# The most production gives in one page of the feed.
MAX_PAGE = 50


@dataclass(frozen=True)
class ActivityFilter:
    """What the feed is asked for; each list is "any of these" (empty: all)."""

    subscriber_ids: Sequence[str] = ()
    transaction_ids: Sequence[str] = ()
    channels: Sequence[str] = ()
    workflows: Sequence[str] = ()
    after: str | None = None
    before: str | None = None

    def params(self) -> list[tuple[str, str]]:
        """The query, each value its own parameter (production splits no commas)."""
        out = [("subscriberIds", v) for v in self.subscriber_ids]
        out += [("transactionId", v) for v in self.transaction_ids]
        out += [("channels", v) for v in self.channels]
        out += [("templates", v) for v in self.workflows]
        if self.after:
            out.append(("after", self.after))
        if self.before:
            out.append(("before", self.before))
        return out


@dataclass(frozen=True)
class ActivityPage:
    """One page of the feed as read: at most `limit` notifications, each once; `said`
    names what the service sent that was left out (one line each, safe to show)."""

    data: list[ActivityNotification]
    has_more: bool
    said: tuple[str, ...] = ()


async def activity(
    sender: Sender, wanted: ActivityFilter, page: int = 0, limit: int = 10
) -> ActivityPage:
    """`GET /v1/notifications`: one page, newest first; `has_more` means only that the
    page is full (there is no total)."""
    params: list[tuple[str, str | int]] = [("page", page), ("limit", limit)]
    params += wanted.params()
    response = await sender.send("GET", "/v1/notifications", params=params)
    body = json_of(response)
    if isinstance(body, list):
        items, has_more = body, False
    else:
        # The envelope is read as a whole; its items one by one, below.
        envelope = parse(envelope_page(), body)
        items, has_more = envelope.data, envelope.has_more
    return read_page(items, has_more, limit)


def read_page(items: list[Any], has_more: bool, limit: int) -> ActivityPage:
    """The notifications of one page: the first `limit`, each id once, an unreadable
    item left out; what was left out is said (client/bounded.py, as for the inbox)."""
    read = bounded(ActivityNotification, items, limit, "notification")
    return ActivityPage(read.items, has_more, read.said)


async def notification(sender: Sender, notification_id: str) -> ActivityNotification:
    """`GET /v1/notifications/{id}`: the notification with every job and its details."""
    response = await sender.send("GET", f"/v1/notifications/{segment(notification_id)}")
    return parse(ActivityNotification, unwrap(json_of(response)))
