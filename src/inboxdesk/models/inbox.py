"""A notification of the v2 inbox: production's InboxNotificationDto.

Read loosely, as every model: production's database is looser than its document.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, PrivateAttr

from inboxdesk.models.base import ApiModel


class InboxAction(StrEnum):
    """An action on one notification of the v2 inbox (its PATCH route's last segment)."""

    READ = "read"
    UNREAD = "unread"
    ARCHIVE = "archive"
    UNARCHIVE = "unarchive"
    SNOOZE = "snooze"
    UNSNOOZE = "unsnooze"

    @property
    def inverse(self) -> InboxAction | None:
        """The action that takes this one back; None for unsnooze, since the end of the
        earlier snooze is not known."""
        return _INVERSE.get(self)

    @property
    def done(self) -> str:
        """The action in words, as done: "Archived"."""
        return _DONE[self]


_INVERSE = {
    InboxAction.READ: InboxAction.UNREAD,
    InboxAction.UNREAD: InboxAction.READ,
    InboxAction.ARCHIVE: InboxAction.UNARCHIVE,
    InboxAction.UNARCHIVE: InboxAction.ARCHIVE,
    InboxAction.SNOOZE: InboxAction.UNSNOOZE,
}
_DONE = {
    InboxAction.READ: "Marked read",
    InboxAction.UNREAD: "Marked unread",
    InboxAction.ARCHIVE: "Archived",
    InboxAction.UNARCHIVE: "Unarchived",
    InboxAction.SNOOZE: "Snoozed",
    InboxAction.UNSNOOZE: "Unsnoozed",
}
# The actions inboxdesk sends as inbox writes; read and unread go through mark-as.
INBOX_WRITES = frozenset(
    {InboxAction.ARCHIVE, InboxAction.UNARCHIVE, InboxAction.SNOOZE, InboxAction.UNSNOOZE}
)


class InboxSubscriber(ApiModel):
    id: str = ""
    subscriber_id: str = Field("", alias="subscriberId")
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")


class InboxNotification(ApiModel):
    id: str
    transaction_id: str | None = Field(None, alias="transactionId")
    subject: str | None = None
    body: str = ""
    to: InboxSubscriber | None = None
    is_read: bool = Field(False, alias="isRead")
    is_seen: bool = Field(False, alias="isSeen")
    is_archived: bool = Field(False, alias="isArchived")
    is_snoozed: bool = Field(False, alias="isSnoozed")
    snoozed_until: str | None = Field(None, alias="snoozedUntil")
    delivered_at: list[str] | None = Field(None, alias="deliveredAt")
    created_at: str | None = Field(None, alias="createdAt")
    read_at: str | None = Field(None, alias="readAt")
    first_seen_at: str | None = Field(None, alias="firstSeenAt")
    archived_at: str | None = Field(None, alias="archivedAt")
    severity: str | None = None
    tags: list[str] | None = None
    data: dict[str, Any] | None = None

    @property
    def flags(self) -> tuple[bool, bool]:
        return self.is_read, self.is_seen


class InboxPage(ApiModel):
    data: list[InboxNotification]
    has_more: bool = Field(False, alias="hasMore")
    filter: dict[str, Any] | None = None

    # Set by the client as it reads the page item by item (client/bounded.py): how
    # many items the service sent within the limit, the last one's id, and what was
    # left out, said.
    _sent: int | None = PrivateAttr(None)
    _last_id: str | None = PrivateAttr(None)
    _said: tuple[str, ...] = PrivateAttr(())

    def as_read(self, sent: int, last_id: str | None, said: tuple[str, ...]) -> InboxPage:
        """This page, told what its reading item by item found."""
        self._sent, self._last_id, self._said = sent, last_id, said
        return self

    @property
    def sent(self) -> int:
        """Rows this page took in the listing, readable or not: what offsets page by."""
        return len(self.data) if self._sent is None else self._sent

    @property
    def said(self) -> tuple[str, ...]:
        return self._said

    @property
    def after(self) -> str | None:
        """The cursor of the next page: the last notification's id, while more follow."""
        if not self.has_more:
            return None
        if self._last_id is not None:
            return self._last_id
        return self.data[-1].id if self.data else None
