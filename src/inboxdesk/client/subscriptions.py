"""A subscriber's topic subscriptions: `GET /v2/subscribers/{id}/subscriptions`, a cursor
listing production answers bare (`{data, next, previous, totalCount, ...}`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inboxdesk.client.parse import parse, unwrap
from inboxdesk.client.sender import segment

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender
    from inboxdesk.models.subscription import SubscriptionPage, TopicSubscription

# Production's largest page; and the most pages read for one subscriber's whole list.
PAGE = 100
MAX_PAGES = 50


class SubscriptionOperations:
    """The subscription reads of the client (its sender is InboxClient's)."""

    _sender: Sender

    async def subscriptions(
        self,
        subscriber_id: str,
        *,
        key: str | None = None,
        limit: int = PAGE,
        after: str | None = None,
    ) -> SubscriptionPage:
        """One page of the subscriber's subscriptions, newest first (`after`: the
        previous page's `next`); `key`: one topic's alone."""
        from inboxdesk.models.subscription import SubscriptionPage

        params: dict[str, Any] = {"limit": limit}
        if key:
            params["key"] = key
        if after:
            params["after"] = after
        body = await self._sender.json(
            "GET", f"/v2/subscribers/{segment(subscriber_id)}/subscriptions", params=params
        )
        # Bare, as production answers; a body wrapped once more is read all the same.
        if isinstance(body, dict) and isinstance(body.get("data"), dict):
            body = unwrap(body)
        return parse(SubscriptionPage, body)

    async def all_subscriptions(
        self, subscriber_id: str, key: str | None = None
    ) -> tuple[list[TopicSubscription], bool]:
        """Every subscription of the subscriber, page after page; and whether more were
        left unread (past MAX_PAGES pages, or a `next` that does not move on)."""
        found: list[TopicSubscription] = []
        after: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            page = await self.subscriptions(subscriber_id, key=key, after=after)
            found += page.data
            if not page.next:
                return found, False
            if page.next in seen or not page.data:
                return found, True
            seen.add(page.next)
            after = page.next
        return found, True
