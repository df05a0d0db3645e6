"""The error bodies of the service (behaviour.md section 4)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class FieldErrors(BaseModel):
    messages: list[str]
    value: object | None = None


class ErrorBody(BaseModel):
    """Every error body; `errors` only on 422, `message` a list on older 400s."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    status_code: int = Field(alias="statusCode")
    timestamp: str | None = None
    path: str | None = None
    message: str | list[str] | None = None
    error: str | None = None
    errors: dict[str, FieldErrors] | None = None
