"""A subscriber's feed item: production's NotificationFeedItemDto, not a full Message.

The feed embeds only a subset of the subscriber and of the workflow, and adds the job
and archive state; views that show feed items use only these fields.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import ActorType
from inboxdesk.models.message import MessageFields


class FeedSubscriber(ApiModel):
    """The subscriber subset a feed item carries."""

    id: str | None = Field(None, alias="_id")
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    avatar: str | None = None
    subscriber_id: str = Field(alias="subscriberId")

    @property
    def display_name(self) -> str:
        """Full name, else the subscriberId."""
        name = " ".join(p for p in (self.first_name, self.last_name) if p)
        return name or self.subscriber_id


class FeedTemplate(ApiModel):
    """The workflow subset a feed item carries: its id and tags, no name or steps."""

    id: str | None = Field(None, alias="_id")
    tags: list[str] | None = None


class FeedActor(ApiModel):
    data: str | None
    type: Open[ActorType]


class FeedItem(MessageFields):
    """One item of `GET /v1/subscribers/{id}/notifications/feed`."""

    # The feed item's own id is required; its date may be null (the document says so).
    id: str = Field(alias="_id")
    created_at: str | None = Field(None, alias="createdAt")  # type: ignore[assignment]
    updated_at: str | None = Field(None, alias="updatedAt")
    subscriber: FeedSubscriber | None = None
    template: FeedTemplate | None = None
    actor: FeedActor | None = None
    # Required by the document, read leniently: no view needs them, and a local or
    # older service may leave them out.
    job_id: str | None = Field(None, alias="_jobId")
    archived: bool = False
    data: dict[str, Any] | None = None
    tags: list[str] | None = None
