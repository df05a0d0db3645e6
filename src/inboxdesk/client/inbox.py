"""The v2 inbox operations, and the one compatibility rule for them: a 404 on the list
is either an unknown subscriber (production's answer) or a missing route (an older
service); one request to the subscriber's own route tells them apart: found there, the
route is missing. A 404 on an action means no such notification. Decided by status
codes and paths, never by the words of a message."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import Field

from inboxdesk.client.bounded import bounded
from inboxdesk.client.errors import NotFoundError, SubscriberNotFound
from inboxdesk.client.parse import json_of, parse, unwrap
from inboxdesk.client.sender import segment
from inboxdesk.models.base import ApiModel
from inboxdesk.models.inbox import InboxAction, InboxNotification, InboxPage
from inboxdesk.models.pages import Count, NotificationCount
from inboxdesk.text import clip

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender


class NoV2Inbox(NotFoundError):
    """The service has no v2 inbox (an older deployment): use the v1 feed."""


async def notifications(
    sender: Sender,
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
    path = f"/v2/subscribers/{segment(subscriber_id)}/notifications"
    try:
        response = await sender.send("GET", path, params=params)
    except NotFoundError as exc:
        try:
            await sender.send("GET", f"/v2/subscribers/{segment(subscriber_id)}")
        except NotFoundError:
            raise unknown_subscriber(subscriber_id, exc.path) from None
        raise NoV2Inbox(
            404,
            "This service has no v2 inbox (an older deployment).",
            "The v1 feed has the same messages, without archive and snooze.",
            path=exc.path,
        ) from None
    return bounded_page(json_of(response), limit)


def bounded_page(body: Any, limit: int) -> InboxPage:
    """The envelope read whole, its notifications one by one (client/bounded.py)."""
    envelope = parse(_Envelope, body)
    read = bounded(InboxNotification, envelope.data, limit, "notification")
    page = InboxPage(data=read.items, hasMore=envelope.has_more, filter=envelope.filter)
    return page.as_read(read.sent, read.last_id, read.said)


class _Envelope(ApiModel):
    data: list[Any]
    has_more: bool = Field(False, alias="hasMore")
    filter: dict[str, Any] | None = None


async def act(
    sender: Sender,
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
        f"/v2/subscribers/{segment(subscriber_id)}/notifications/"
        f"{segment(notification_id)}/{action.value}"
    )
    response = await sender.send("PATCH", path, json_body=body, idempotency_key=idempotency_key)
    return parse(InboxNotification, unwrap(json_of(response)))


# The v2 bulk operations, by their path's last segment.
BULK_OPERATIONS = ("read", "archive", "read-archive", "delete")


async def bulk(
    sender: Sender,
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
    path = f"/v2/subscribers/{segment(subscriber_id)}/notifications/{operation}"
    body = {k: v for k, v in filters.items() if v is not None}
    await sender.send("POST", path, json_body=body, idempotency_key=idempotency_key)


# What to do about an unknown subscriber, the same everywhere.
UNKNOWN_SUBSCRIBER_HINT = (
    "Check the id (a subscriberId, not a name or an email): `inboxdesk subscribers "
    "--email EMAIL` finds one; --environment NAME looks in another environment."
)


def unknown_subscriber(
    subscriber_id: str, path: str = "", environment: str | None = None
) -> SubscriberNotFound:
    """The one error, and the one line, for a subscriber this environment does not hold:
    which subscriber, and where it was looked for."""
    where = f"in {clip(environment, 40)}" if environment else "in this environment"
    return SubscriberNotFound(
        404,
        f"Subscriber {clip(subscriber_id, 80)!r} was not found {where}.",
        hint=UNKNOWN_SUBSCRIBER_HINT,
        path=path or f"/v2/subscribers/{subscriber_id}",
    )


async def count(
    sender: Sender, subscriber_id: str, filters: Sequence[dict[str, Any]]
) -> list[Count]:
    """`GET /v2/subscribers/{id}/notifications/count` for these filters (read, seen,
    archived, snoozed), each count capped at 100 as production caps it."""
    import json

    from inboxdesk.client.errors import ProtocolError
    from inboxdesk.client.parse import items_of

    response = await sender.send(
        "GET",
        f"/v2/subscribers/{segment(subscriber_id)}/notifications/count",
        params={"filters": json.dumps(list(filters), separators=(",", ":"))},
    )
    counts = items_of(NotificationCount, response)
    if len(counts) != len(filters):
        raise ProtocolError(
            f"The count endpoint answered {len(counts)} counts for {len(filters)} filters."
        )
    return [Count.of(c.count) for c in counts]
