"""The error bodies of the service (behaviour.md section 4)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class FieldErrors(BaseModel):
    model_config = ConfigDict(defer_build=True)

    messages: list[str]
    value: object | None = None


class ErrorBody(BaseModel):
    """Every error body; `errors` only on 422, `message` a list on older 400s."""

    model_config = ConfigDict(populate_by_name=True, extra="allow", defer_build=True)

    status_code: int = Field(alias="statusCode")
    timestamp: str | None = None
    path: str | None = None
    # Production documents any JSON value here; a string, or a list on older 400s.
    message: str | list[Any] | dict[str, Any] | float | bool | None = None
    error: str | None = None
    errors: dict[str, FieldErrors] | None = None
    # Production's reference for a 5xx, which its support asks for.
    error_id: str | None = Field(None, alias="errorId")
