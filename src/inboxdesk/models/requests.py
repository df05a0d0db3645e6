"""Bodies the client sends: the mark-as and mark-all requests."""

from __future__ import annotations

from pydantic import Field

from inboxdesk.models.base import ApiModel
from inboxdesk.models.enums import MarkAs

# The local service's cap on ids in one mark-as request (behaviour.md section 2).
MAX_MARK_IDS = 1000


class MarkAsRequest(ApiModel):
    message_id: str | list[str] = Field(alias="messageId")
    mark_as: MarkAs = Field(alias="markAs")


class MarkAllRequest(ApiModel):
    mark_as: MarkAs = Field(alias="markAs")
