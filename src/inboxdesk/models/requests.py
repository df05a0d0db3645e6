"""Request bodies: one model each, validated by the service and serialised by the client.

The service validates them as production's DTOs do: a field that is missing or null,
an id that is not an ObjectId, ids joined by commas, an empty list or an unknown state
are each refused with production's own sentences (its validators run every rule of a
field, so a missing one gets two), which the service answers as one 422.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from inboxdesk.models.base import ApiModel
from inboxdesk.models.enums import MarkAs
from inboxdesk.models.ids import is_object_id

# The local service's cap on ids in one mark-as request.
MAX_MARK_IDS = 1000

OBJECT_IDS = "messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds"
MARK_STATES = "markAs must be one of the following values: " + ", ".join(m.value for m in MarkAs)
# Where a refusal keeps its sentences for the service's error body.
MESSAGES = "messages"


def refused(*messages: str) -> PydanticCustomError:
    """A validation error carrying each of production's sentences for one field."""
    return PydanticCustomError("refused", messages[0], {MESSAGES: list(messages)})


def _missing(field: str, invalid: str) -> PydanticCustomError:
    return refused(f"{field} should not be null or undefined", invalid)


class RequestModel(ApiModel):
    """A request body. Built at import, not on first use: FastAPI wraps it in a type
    adapter that would otherwise build it later, outside its own warning filter."""

    model_config = ConfigDict(defer_build=False)

    @model_validator(mode="before")
    @classmethod
    def _absent_is_null(cls, data: Any) -> Any:
        """A missing field is validated as null, so that its own rules say what is wrong."""
        if not isinstance(data, dict):
            return data
        absent = {
            info.alias or name: None
            for name, info in cls.model_fields.items()
            if name not in data and (info.alias or name) not in data
        }
        return {**absent, **data}


def _mark_as(value: Any) -> Any:
    if value is None:
        raise _missing("markAs", MARK_STATES)
    return value


class MarkAsRequest(RequestModel):
    """`POST /v1/subscribers/{id}/messages/mark-as`: one message id, or a non-empty list."""

    message_id: str | list[str] = Field(alias="messageId")
    mark_as: MarkAs = Field(alias="markAs")

    @field_validator("message_id", mode="before")
    @classmethod
    def _ids(cls, value: Any) -> Any:
        if value is None:
            raise _missing("messageId", OBJECT_IDS)
        if isinstance(value, str):
            if not is_object_id(value.lower()):
                raise refused(OBJECT_IDS)
            return value
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(i, str) and is_object_id(i.lower()) for i in value)
        ):
            raise refused(OBJECT_IDS)
        if len(value) > MAX_MARK_IDS:
            raise refused(f"messageId must contain no more than {MAX_MARK_IDS} ids")
        return value

    @field_validator("mark_as", mode="before")
    @classmethod
    def _state(cls, value: Any) -> Any:
        return _mark_as(value)

    @property
    def ids(self) -> list[str]:
        """The ids as stored (production reads upper-case hex too)."""
        ids = [self.message_id] if isinstance(self.message_id, str) else self.message_id
        return [i.lower() for i in ids]


class MarkAllRequest(RequestModel):
    """`POST /v1/subscribers/{id}/messages/mark-all`."""

    mark_as: MarkAs = Field(alias="markAs")

    @field_validator("mark_as", mode="before")
    @classmethod
    def _state(cls, value: Any) -> Any:
        return _mark_as(value)
