"""The v2 inbox operations (behaviour.md 4), and the one compatibility rule for them
(decisions.md 18): only a 404 on the list itself means "no v2 inbox"; a 404 on an action
means no such notification, and a 400 or 404 naming a subscriber is about that
subscriber. Decided by status codes and paths, never by the words of a message."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from inboxdesk.client.errors import ApiError, NotFoundError
from inboxdesk.client.parse import json_of, parse, unwrap
from inboxdesk.models.inbox import InboxAction, InboxNotification, InboxPage
from inboxdesk.models.pages import Count, NotificationCount

if TYPE_CHECKING:
    from inboxdesk.client.api import InboxClient


def _segment(value: str) -> str:
    from inboxdesk.client.api import _segment as segment

    return segment(value)


class NoV2Inbox(NotFoundError):
    """The service has no v2 inbox (an older deployment): use the v1 feed."""


async def notifications(
    client: InboxClient,
    subscriber_id: str,
    *,
    limit: int = 10,
    offset: int | None = None,
    after: str | None = None,
    read: bool | None = None,
    seen: bool | None = None,
    archived: bool | None = None,
    snoozed: bool | None = None,
) -> InboxPage:
    params: dict[str, Any] = {"limit": limit}
    if after is not None:
        params["after"] = after
    elif offset is not None:
        params["offset"] = offset
    flags = {"read": read, "seen": seen, "archived": archived, "snoozed": snoozed}
    for name, value in flags.items():
        if value is not None:
            params[name] = str(value).lower()
    path = f"/v2/subscribers/{_segment(subscriber_id)}/notifications"
    try:
        response = await client._send("GET", path, params=params)
    except NotFoundError as exc:
        if _route_missing(exc):
            client.v2_inbox = False
            raise NoV2Inbox(
                404,
                "This service has no v2 inbox (an older deployment).",
                "The v1 feed has the same messages, without archive and snooze.",
                path=exc.path,
            ) from None
        raise
    client.v2_inbox = True
    return parse(InboxPage, json_of(response))


async def act(
    client: InboxClient,
    subscriber_id: str,
    notification_id: str,
    action: InboxAction | str,
    snooze_until: datetime | None = None,
    idempotency_key: str | None = None,
) -> InboxNotification:
    """One notification read, unread, archived, unarchived, snoozed or unsnoozed."""
    action = InboxAction(action)
    body = None
    if action is InboxAction.SNOOZE:
        if snooze_until is None:
            raise ValueError("a snooze needs its end")
        body = {"snoozeUntil": snooze_until.isoformat()}
    path = (
        f"/v2/subscribers/{_segment(subscriber_id)}/notifications/"
        f"{_segment(notification_id)}/{action.value}"
    )
    response = await client._send("PATCH", path, json_body=body, idempotency_key=idempotency_key)
    return parse(InboxNotification, unwrap(json_of(response)))


async def mark_seen(
    client: InboxClient,
    subscriber_id: str,
    notification_ids: Sequence[str] | None = None,
    idempotency_key: str | None = None,
) -> None:
    """Bulk seen (204): the ids given, or every notification of the subscriber."""
    body = {} if notification_ids is None else {"notificationIds": list(notification_ids)}
    path = f"/v2/subscribers/{_segment(subscriber_id)}/notifications/seen"
    await client._send("POST", path, json_body=body, idempotency_key=idempotency_key)


# The v2 bulk operations, by their path's last segment.
BULK_OPERATIONS = ("read", "archive", "read-archive", "delete")


async def bulk(
    client: InboxClient,
    subscriber_id: str,
    operation: str,
    idempotency_key: str | None = None,
    **filters: Any,
) -> None:
    """A bulk operation (204, no count) on every message of the subscriber, of every
    channel: `read`, `archive`, `read-archive` or `delete`; `filters` (tags, data,
    contextKeys) narrow it, and none means every message."""
    if operation not in BULK_OPERATIONS:
        raise ValueError(f"no bulk operation {operation!r}")
    path = f"/v2/subscribers/{_segment(subscriber_id)}/notifications/{operation}"
    body = {k: v for k, v in filters.items() if v is not None}
    await client._send("POST", path, json_body=body, idempotency_key=idempotency_key)


def _route_missing(error: ApiError) -> bool:
    """A 404 on the list: the route is missing. Production answers an unknown subscriber
    there with a 400, never a 404 (behaviour.md 4)."""
    return error.status == 404


async def every_notification(
    client: InboxClient, subscriber_id: str, **query: Any
) -> list[InboxNotification]:
    """Every notification the filters select, following `after` to the end (at most
    `max_pages` pages of 100)."""
    from inboxdesk.client.limits import too_many_pages

    found: list[InboxNotification] = []
    after: str | None = None
    most = client.options.limits.max_pages
    for _ in range(most):
        page = await notifications(client, subscriber_id, limit=100, after=after, **query)
        found += page.data
        after = page.after
        if after is None:
            return found
    raise too_many_pages(most, "the inbox")


async def count(
    client: InboxClient, subscriber_id: str, filters: Sequence[dict[str, Any]]
) -> list[Count]:
    """`GET /v2/subscribers/{id}/notifications/count` for these filters (read, seen,
    archived, snoozed), each count capped at 100 as production caps it."""
    import json

    from inboxdesk.client.errors import ProtocolError
    from inboxdesk.client.parse import items_of

    response = await client._send(
        "GET",
        f"/v2/subscribers/{_segment(subscriber_id)}/notifications/count",
        params={"filters": json.dumps(list(filters), separators=(",", ":"))},
    )
    counts = items_of(NotificationCount, response)
    if len(counts) != len(filters):
        raise ProtocolError(
            f"The count endpoint answered {len(counts)} counts for {len(filters)} filters."
        )
    return [Count.of(c.count) for c in counts]
