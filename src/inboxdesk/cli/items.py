"""The one JSON item of a message on the command line, whichever endpoint gave it.

The v2 inbox names a message `id`, `isRead` and `subject`; the v1 endpoints `_id`,
`read` and `title`. Every command that prints messages as JSON prints this item
(docs/json.md lists its fields); `--raw` prints the service's bodies as sent.
"""

from __future__ import annotations

from typing import Any

from inboxdesk.models.feed import FeedItem
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.models.message import MessageFields

# The item's fields, in order.
FIELDS = (
    "id",
    "subscriberId",
    "transactionId",
    "channel",
    "read",
    "seen",
    "archived",
    "snoozedUntil",
    "createdAt",
    "subject",
    "body",
    "workflow",
)


def message_item(entry: InboxNotification | MessageFields) -> dict[str, Any]:
    """The item of one message: `archived` is null where the endpoint does not say."""
    if isinstance(entry, InboxNotification):
        return {
            "id": entry.id,
            "subscriberId": entry.to.subscriber_id if entry.to is not None else None,
            "transactionId": entry.transaction_id,
            "channel": "in_app",
            "read": entry.is_read,
            "seen": entry.is_seen,
            "archived": entry.is_archived,
            "snoozedUntil": entry.snoozed_until if entry.is_snoozed else None,
            "createdAt": entry.created_at,
            "subject": entry.subject,
            "body": entry.body,
            "workflow": None,
        }
    subscriber = getattr(entry, "subscriber", None)
    return {
        "id": entry.id,
        "subscriberId": getattr(subscriber, "subscriber_id", None),
        "transactionId": entry.transaction_id,
        "channel": str(entry.channel),
        "read": entry.read,
        "seen": entry.seen,
        "archived": (
            entry.archived
            if isinstance(entry, FeedItem) and "archived" in entry.model_fields_set
            else None
        ),
        "snoozedUntil": entry.snoozed_until,
        "createdAt": entry.created_at,
        "subject": entry.title or entry.subject,
        "body": entry.preview,
        "workflow": entry.workflow_name or None,
    }
