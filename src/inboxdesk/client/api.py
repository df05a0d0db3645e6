"""The async API client: one connection pool, typed methods, retries, honest errors."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any

import httpx

from inboxdesk import models

# Reading answers is client/parse.py's; the operations keep their short private names.
from inboxdesk.client import inbox
from inboxdesk.client.bounded import bounded
from inboxdesk.client.errors import (
    InboxdeskError,
    NotFoundError,
    ProtocolError,
    SubscriberNotFound,
)
from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.client.limits import Walk
from inboxdesk.client.parse import (
    cursor_page_of as _cursor_page_of,
)
from inboxdesk.client.parse import (
    cursor_page_type as _cursor_page_type,
)
from inboxdesk.client.parse import (
    envelope_page as _envelope_page,
)
from inboxdesk.client.parse import (
    items_of as _items_of,
)
from inboxdesk.client.parse import (
    json_of as _json_of,
)
from inboxdesk.client.parse import (
    number as _number,
)
from inboxdesk.client.parse import (
    page_holding as _page_holding,
)
from inboxdesk.client.parse import (
    page_of as _page_of,
)
from inboxdesk.client.parse import (
    parse as _parse,
)
from inboxdesk.client.parse import (
    unwrap as _unwrap,
)
from inboxdesk.client.preferences import PreferenceOperations
from inboxdesk.client.sender import Sender, segment
from inboxdesk.client.subscriber_data import SubscriberDataOperations
from inboxdesk.client.subscriptions import SubscriptionOperations
from inboxdesk.client.transport import ClientOptions
from inboxdesk.models import (
    COUNT_CAP,
    Channel,
    Count,
    CursorPage,
    MarkAs,
    NotificationCount,
    NotificationCounts,
    Page,
    Subscriber,
)
from inboxdesk.models.inbox import InboxAction, InboxNotification, InboxPage

if TYPE_CHECKING:
    # Read as `models.X` where used: the first inbox page needs none of them, and the
    # models package loads each when first used.
    from inboxdesk.client.activity import ActivityFilter, ActivityPage
    from inboxdesk.client.parse import Listed
    from inboxdesk.client.triggers import TriggerAnswer
    from inboxdesk.models import Environment, FeedItem, Integration, Message
    from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.secrets import mask_secret


@dataclass(frozen=True)
class MarkResult:
    """What a mark-as did: the updated messages and the requested ids it left alone."""

    # Every message the service returned: another subscriber's come back unchanged.
    messages: list[Message]
    requested: list[str]
    not_updated: list[str] = field(default_factory=list)

    @property
    def updated(self) -> list[Message]:
        """The returned messages that are the subscriber's, so were changed."""
        left = set(self.not_updated)
        return [m for m in self.messages if m.id not in left]


class InboxClient(PreferenceOperations, SubscriberDataOperations, SubscriptionOperations):
    """Async client of the service's API; use as `async with InboxClient(...) as client`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        options: ClientOptions | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.options = options or ClientOptions()
        self.base_url = base_url.rstrip("/")
        self._key_hint = mask_secret(api_key)
        # Whether the service has the v2 endpoints; None until one answers.
        self._subscribers_v2: bool | None = None
        # Whether the service has the v2 inbox; None until its list answers.
        self.v2_inbox: bool | None = None
        self._counts_v2: bool | None = None
        self._sender = Sender(self.base_url, api_key, self.options, transport)
        # The session's requests, for the app's request log (never the key).
        self.requests = self._sender.requests

    def key_fingerprint(self, secret: bytes) -> str:
        return self._sender.key_fingerprint(secret)

    def __repr__(self) -> str:
        return f"InboxClient(base_url={self.base_url!r}, api_key={self._key_hint!r})"

    async def __aenter__(self) -> InboxClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._sender.aclose()

    # -- the operations ----------------------------------------------------------------

    async def set_primary(
        self, integration_id: str, idempotency_key: str | None = None
    ) -> Integration:
        body = await self._sender.json(
            "POST",
            f"/v1/integrations/{segment(integration_id)}/set-primary",
            idempotency_key=idempotency_key,
        )
        return _parse(models.Integration, _unwrap(body))

    async def mark_as(
        self,
        subscriber_id: str,
        message_ids: str | Sequence[str],
        mark_as: MarkAs | str,
        idempotency_key: str | None = None,
    ) -> MarkResult:
        """Mark one or many messages; more than 1,000 ids go in several requests.

        With `idempotency_key`, a call repeated later (e.g. after an outage) is applied
        once: each request of it sends that key (with `.N` for the Nth chunk after the first).
        """
        requested = [message_ids] if isinstance(message_ids, str) else list(message_ids)
        if not requested:
            return MarkResult([], [])
        state = MarkAs(mark_as)
        messages: list[Message] = []
        path = f"/v1/subscribers/{segment(subscriber_id)}/messages/mark-as"
        step = models.MAX_MARK_IDS
        for start in range(0, len(requested), step):
            chunk = requested[start : start + step]
            # Serialised, not validated, here: the service says what is wrong with an id.
            payload = models.MarkAsRequest.model_construct(
                message_id=chunk[0] if isinstance(message_ids, str) else chunk, mark_as=state
            ).to_wire()
            key = idempotency_key
            if key is not None and start:
                key = f"{key}.{start // step}"
            response = await self._sender.send("POST", path, json_body=payload, idempotency_key=key)
            messages += _items_of(models.Message, response)
        # Production answers the addressed subscriber's messages only: an id absent from
        # the answer was not updated, with no further request. An older deployment also
        # returned other subscribers' messages, unchanged: those are told apart by owner.
        owners = {m.subscriber_internal_id for m in messages}
        owner = await self._owner(subscriber_id, messages) if len(owners) > 1 else None
        updated = {m.id for m in messages if owner is None or m.subscriber_internal_id == owner}
        missing = [i for i in dict.fromkeys(requested) if i not in updated]
        return MarkResult(messages, requested, missing)

    async def _owner(self, subscriber_id: str, messages: Sequence[Message]) -> str | None:
        """The subscriber's `_id`, when an older deployment's answer mixes owners: from a
        message that embeds it, else looked up (None if that fails: the marks are done)."""
        for message in messages:
            embedded = message.subscriber
            if embedded is not None and embedded.subscriber_id == subscriber_id and embedded.id:
                return embedded.id
        try:
            return (await self.get_subscriber(subscriber_id)).id
        except InboxdeskError:
            return None

    # -- the v2 inbox (client/inbox.py) ----------------------------------------------------

    async def notifications(self, subscriber_id: str, **query: Any) -> InboxPage:
        """`GET /v2/subscribers/{id}/notifications`: limit, offset or after, read, seen,
        archived, snoozed. Raises NoV2Inbox on a service without it, SubscriberNotFound
        for a subscriber this environment does not hold."""
        try:
            page = await inbox.notifications(self._sender, subscriber_id, **query)
        except NoV2Inbox:
            self.v2_inbox = False
            raise
        except SubscriberNotFound as exc:
            # The subscriber's route answered 404 too: on a service with no v2
            # subscribers at all (older still), that says nothing about the subscriber.
            if self._subscribers_v2 is not True and not await self._has_v2_subscribers():
                self.v2_inbox = False
                raise NoV2Inbox(
                    404,
                    "This service has no v2 inbox (an older deployment).",
                    "The v1 feed has the same messages, without archive and snooze.",
                    path=exc.path,
                ) from None
            raise
        self.v2_inbox = True
        return page

    async def notification_pages(
        self, subscriber_id: str, **query: Any
    ) -> AsyncIterator[list[InboxNotification]]:
        """Every notification the filters select, a page of 100 as each arrives, following
        cursors (at most max_pages; a service that loops is stopped)."""
        walk = Walk(self.options.limits.max_pages, "the inbox")
        after: str | None = None
        while True:
            page = await self.notifications(subscriber_id, limit=100, after=after, **query)
            yield page.data
            if (after := page.after) is None:
                return
            walk.onward((n.id for n in page.data), after)

    async def notification_action(
        self,
        subscriber_id: str,
        notification_id: str,
        action: InboxAction | str,
        snooze_until: datetime | None = None,
        idempotency_key: str | None = None,
    ) -> InboxNotification:
        return await inbox.act(
            self._sender, subscriber_id, notification_id, action, snooze_until, idempotency_key
        )

    async def bulk(
        self, subscriber_id: str, operation: str, idempotency_key: str | None = None
    ) -> None:
        """A v2 bulk operation on every channel's messages of the subscriber (`read`,
        `archive`, `read-archive`, `delete`): 204, no count."""
        await inbox.bulk(self._sender, subscriber_id, operation, idempotency_key)

    async def count_notifications(
        self, subscriber_id: str, filters: Sequence[dict[str, Any]]
    ) -> list[Count]:
        """The v2 count for each filter (capped at 100); the header counts what the
        subscriber's Unread and Unseen tabs show."""
        return await inbox.count(self._sender, subscriber_id, filters)

    async def mark_all(
        self, subscriber_id: str, mark_as: MarkAs | str, idempotency_key: str | None = None
    ) -> int | float:
        body = await self._sender.json(
            "POST",
            f"/v1/subscribers/{segment(subscriber_id)}/messages/mark-all",
            json_body=models.MarkAllRequest(mark_as=MarkAs(mark_as)).to_wire(),
            idempotency_key=idempotency_key,
        )
        return _number(_unwrap(body), "mark-all")

    # -- listings ----------------------------------------------------------------------

    # -- the activity feed (client/activity.py; finding and scanning: core/delivery/finding.py) --

    async def activity(
        self, wanted: ActivityFilter | None = None, page: int = 0, limit: int = 10
    ) -> ActivityPage:
        """One page of `GET /v1/notifications` (limit 1 to 50), newest first."""
        from inboxdesk.client import activity

        return await activity.activity(
            self._sender, wanted or activity.ActivityFilter(), page, limit
        )

    async def trigger(
        self,
        name: str,
        to: str | Mapping[str, Any],
        payload: Mapping[str, Any] | None,
        transaction_id: str,
        idempotency_key: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> TriggerAnswer:
        """`POST /v1/events/trigger` with the caller's transactionId, never sent twice
        (client/triggers.py); `extra`: other fields of the body (context, overrides)."""
        from inboxdesk.client import triggers

        return await triggers.trigger(
            self._sender, name, to, payload, transaction_id, idempotency_key, extra
        )

    async def cancel_trigger(self, transaction_id: str, idempotency_key: str | None = None) -> bool:
        """`DELETE /v1/events/trigger/{transactionId}`: whether delayed work was cancelled."""
        from inboxdesk.client import triggers

        return await triggers.cancel(self._sender, transaction_id, idempotency_key)

    async def activity_notification(self, notification_id: str) -> ActivityNotification:
        """`GET /v1/notifications/{id}`: its jobs in order, each with its details."""
        from inboxdesk.client import activity

        return await activity.notification(self._sender, notification_id)

    async def list_integrations(self, active_only: bool = False) -> list[Integration]:
        path = "/v1/integrations/active" if active_only else "/v1/integrations"
        return _items_of(models.Integration, await self._sender.send("GET", path))

    async def list_environments(self) -> list[Environment]:
        """The organization's environments (`GET /v1/environments`), never their keys."""
        return _items_of(models.Environment, await self._sender.send("GET", "/v1/environments"))

    async def own_environment(self) -> Environment | None:
        """The key's own environment (`GET /v1/environments/me`); None where not served."""
        try:
            body = await self._sender.json("GET", "/v1/environments/me")
        except NotFoundError:
            return None
        return _parse(models.Environment, _unwrap(body))

    async def search_subscribers(
        self,
        *,
        email: str | None = None,
        name: str | None = None,
        phone: str | None = None,
        subscriber_id: str | None = None,
        limit: int = 10,
        after: str | None = None,
    ) -> CursorPage[Subscriber]:
        """Subscribers matching every filter given, `limit` at a time (`after`: next page).

        Uses `GET /v2/subscribers`; a service without it (404) is searched through the
        v1 listing, filtered here, with the v1 page number as the cursor.
        """
        search = {"email": email, "name": name, "phone": phone, "subscriberId": subscriber_id}
        wanted = {k: v for k, v in search.items() if v}
        if self._subscribers_v2 is not False:
            params: dict[str, Any] = {**wanted, "limit": limit}
            if after:
                params["after"] = after
            try:
                response = await self._sender.send("GET", "/v2/subscribers", params=params)
            except NotFoundError:
                self._subscribers_v2 = False
            else:
                self._subscribers_v2 = True
                return _cursor_page_of(Subscriber, response)
        page = int(after) if after and after.isdigit() else 0
        result = await self.list_subscribers(page, limit)
        found = [s for s in result.data if _matches(s, wanted)]
        following = str(page + 1) if result.has_more and result.data else None
        return _cursor_page_type(Subscriber)(data=found, next=following, previous=None)  # type: ignore[return-value]

    async def list_subscribers(self, page: int = 0, limit: int = 10) -> Page[Subscriber]:
        """One page of `GET /v1/subscribers`, which only older deployments serve."""
        params = {"page": page, "limit": limit}
        return _page_of(
            Subscriber, await self._sender.send("GET", "/v1/subscribers", params=params)
        )

    async def get_subscriber(self, subscriber_id: str) -> Subscriber:
        """`GET /v2/subscribers/{id}`; v1 only on a service whose `/v2/subscribers` itself
        answers 404: decided by status codes, never by an answer's words."""
        path_id = segment(subscriber_id)
        if self._subscribers_v2 is not False:
            try:
                body = await self._sender.json("GET", f"/v2/subscribers/{path_id}")
            except NotFoundError:
                if self._subscribers_v2 or await self._has_v2_subscribers():
                    raise  # the service has v2: the subscriber is unknown
                self._subscribers_v2 = False
            else:
                self._subscribers_v2 = True
                return _parse(Subscriber, _unwrap(body))
        body = await self._sender.json("GET", f"/v1/subscribers/{path_id}")
        return _parse(Subscriber, _unwrap(body))

    async def _has_v2_subscribers(self) -> bool:
        """Whether `GET /v2/subscribers` exists here: one request, judged by its status."""
        try:
            await self._sender.send("GET", "/v2/subscribers", params={"limit": 1})
        except NotFoundError:
            return False
        self._subscribers_v2 = True
        return True

    async def feed(
        self,
        subscriber_id: str,
        page: int = 0,
        limit: int = 10,
        read: bool | None = None,
        seen: bool | None = None,
    ) -> Page[FeedItem]:
        params: dict[str, Any] = {"page": page, "limit": limit}
        if read is not None:
            params["read"] = str(read).lower()
        if seen is not None:
            params["seen"] = str(seen).lower()
        response = await self._sender.send(
            "GET", f"/v1/subscribers/{segment(subscriber_id)}/notifications/feed", params=params
        )
        return _feed_page(_json_of(response), limit)

    async def iter_feed(
        self,
        subscriber_id: str,
        limit: int = 100,
        read: bool | None = None,
        seen: bool | None = None,
    ) -> AsyncIterator[FeedItem]:
        """Every item of the feed, following pages to the end (at most `max_pages`, and
        never past a loop)."""
        walk = Walk(self.options.limits.max_pages, "the feed")
        for page in itertools.count():
            result = await self.feed(subscriber_id, page, limit, read, seen)
            for message in result.data:
                yield message
            if not result.has_more or not result.data:
                return
            walk.onward(m.id for m in result.data)

    async def unseen_count(
        self, subscriber_id: str, seen: bool = False, limit: int = COUNT_CAP
    ) -> int | float:
        """`GET /v1/.../notifications/unseen`: at most `limit` (100 at most), as sent (an
        odd number is the caller's to mark)."""
        body = await self._sender.json(
            "GET",
            f"/v1/subscribers/{segment(subscriber_id)}/notifications/unseen",
            params={"seen": str(seen).lower(), "limit": limit},
        )
        data = _unwrap(body)
        if not isinstance(data, dict):
            raise ProtocolError(f"unseen count answered {data!r} where {{count}} was expected.")
        return _number(data.get("count"), "the unseen count")

    async def notification_counts(
        self, subscriber_id: str, all_states: bool = False
    ) -> NotificationCounts:
        """Unread and unseen in-app notifications, each marked capped past production's cap:
        those the subscriber's Inbox shows (neither archived nor snoozed, as production's
        own Inbox counts them), or with `all_states` every one (what mark-all changes).

        Uses `GET /v2/subscribers/{id}/notifications/count`; a service without it (404)
        answers through v1: the unseen count, and the unread feed's first page. A 404
        turns v2 counts off only once v1 has answered for the same subscriber: a 404
        about the subscriber (older services) is then v1's error too, and v2 stays on.
        """
        path_id = segment(subscriber_id)
        if self._counts_v2 is not False:
            shown = {} if all_states else {"archived": False, "snoozed": False}
            filters = [{"read": False, **shown}, {"seen": False, **shown}]
            try:
                response = await self._sender.send(
                    "GET",
                    f"/v2/subscribers/{path_id}/notifications/count",
                    params={"filters": json.dumps(filters, separators=(",", ":"))},
                )
            except NotFoundError:
                counts_v1 = await self._counts_v1(subscriber_id)
                self._counts_v2 = False
                return counts_v1
            else:
                self._counts_v2 = True
                counts = _items_of(NotificationCount, response)
                if len(counts) != len(filters):
                    raise ProtocolError(
                        f"The count endpoint answered {len(counts)} counts for 2 filters."
                    )
                return NotificationCounts(Count.of(counts[0].count), Count.of(counts[1].count))
        return await self._counts_v1(subscriber_id)

    async def _counts_v1(self, subscriber_id: str) -> NotificationCounts:
        unseen, unread = await asyncio.gather(
            self.unseen_count(subscriber_id),
            self.feed(subscriber_id, 0, COUNT_CAP, read=False),
        )
        # The feed's totalCount stops at the page size; hasMore says there are more.
        total = unread.total_count if unread.total_count is not None else len(unread.data)
        return NotificationCounts(
            Count(min(total, COUNT_CAP), unread.has_more or total >= COUNT_CAP),
            Count.of(unseen),
        )

    async def list_messages(
        self,
        page: int = 0,
        limit: int = 10,
        channel: Channel | str | None = None,
        subscriber_id: str | None = None,
        transaction_ids: Sequence[str] = (),
    ) -> Page[Message]:
        params = _messages_query(page, limit, channel, subscriber_id, transaction_ids)
        return _page_of(
            models.Message, await self._sender.send("GET", "/v1/messages", params=params)
        )

    async def find_in_messages(
        self,
        message_id: str,
        page: int,
        limit: int,
        channel: Channel | str | None = None,
        subscriber_id: str | None = None,
    ) -> tuple[Page[Listed], tuple[Message, int] | None]:
        """A page of `list_messages` read for its ids, and the message `message_id` names
        on it, read in full, with its index on the page (None when it is not there)."""
        params = _messages_query(page, limit, channel, subscriber_id, ())
        response = await self._sender.send("GET", "/v1/messages", params=params)
        return _page_holding(models.Message, response, message_id)


def _messages_query(
    page: int,
    limit: int,
    channel: Channel | str | None,
    subscriber_id: str | None,
    transaction_ids: Sequence[str],
) -> list[tuple[str, str | int]]:
    params: list[tuple[str, str | int]] = [("page", page), ("limit", limit)]
    if channel is not None:
        params.append(("channel", str(channel)))
    if subscriber_id is not None:
        params.append(("subscriberId", subscriber_id))
    return params + [("transactionId", t) for t in transaction_ids]


def _matches(subscriber: Subscriber, wanted: dict[str, str]) -> bool:
    """The v1 fallback's search: each filter a case-insensitive part of its field."""
    fields = {
        "email": subscriber.email or "",
        "phone": subscriber.phone or "",
        "subscriberId": subscriber.subscriber_id,
        "name": " ".join(p for p in (subscriber.first_name, subscriber.last_name) if p),
    }
    return all(v.casefold() in fields[k].casefold() for k, v in wanted.items())


def _feed_page(body: Any, limit: int) -> Page[FeedItem]:
    """A page of the v1 feed: the envelope read whole, its items one by one
    (client/bounded.py); a bare list is one whole page."""
    if isinstance(body, list):
        body = {"data": body, "page": 0, "pageSize": len(body), "hasMore": False}
    envelope = _parse(_envelope_page(), body)
    read = bounded(models.FeedItem, envelope.data, limit, "message")
    page = envelope.model_copy(update={"data": read.items})
    return page.as_read(read.sent, read.said)
