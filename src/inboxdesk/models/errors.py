"""The error bodies of the service."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from inboxdesk.models.base import DeferredModel, Number


class FieldErrors(DeferredModel):
    messages: list[str]
    value: object | None = None


class ErrorBody(DeferredModel):
    """Every error body; `errors` only on 422, `message` a list on older 400s."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    status_code: Number = Field(alias="statusCode")
    timestamp: str | None = None
    path: str | None = None
    # Production documents any JSON value here; a string, or a list on older 400s.
    message: str | list[Any] | dict[str, Any] | float | bool | None = None
    error: str | None = None
    errors: dict[str, FieldErrors] | None = None
    # Production's reference for a 5xx, which its support asks for.
    error_id: str | None = Field(None, alias="errorId")
