"""Request bodies: one model each, validated by the service and serialised by the client."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, field_validator

from inboxdesk.models.base import ApiModel
from inboxdesk.models.enums import MarkAs
from inboxdesk.models.ids import is_object_id

# The local service's cap on ids in one mark-as request.
MAX_MARK_IDS = 1000


def split_ids(value: str | list[str] | None) -> list[str]:
    """The ids of a `messageId`: a list as it is, a string split at its commas."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [part.strip() for part in value.split(",") if part.strip()]


class RequestModel(ApiModel):
    """A request body. Built at import, not on first use: FastAPI wraps it in a type
    adapter that would otherwise build it later, outside its own warning filter."""

    model_config = ConfigDict(defer_build=False)


class MarkAsRequest(RequestModel):
    """`POST /v1/subscribers/{id}/messages/mark-as`: one id, ids joined by commas, or a list.

    A missing or empty `messageId` passes here: the service answers it with 400
    `messageId is required`, as production does, not with a validation error.
    """

    message_id: str | list[str] | None = Field(None, alias="messageId")
    mark_as: MarkAs = Field(alias="markAs")

    @field_validator("message_id", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        if value is not None and not isinstance(value, str | list):
            raise ValueError("messageId must be a message id or an array of message ids")
        if isinstance(value, list) and not all(isinstance(i, str) for i in value):
            raise ValueError("messageId must be a message id or an array of message ids")
        ids = split_ids(value)
        if len(ids) > MAX_MARK_IDS:
            raise ValueError(f"messageId must contain no more than {MAX_MARK_IDS} ids")
        bad = [i for i in ids if not is_object_id(i)]
        if bad:
            raise ValueError(
                f"messageId must hold 24-character hex ids; not one: {str(bad[0])[:40]!r}"
            )
        return value

    @property
    def ids(self) -> list[str]:
        return split_ids(self.message_id)


class MarkAllRequest(RequestModel):
    """`POST /v1/subscribers/{id}/messages/mark-all`."""

    mark_as: MarkAs = Field(alias="markAs")
