"""Envelopes: paginated lists and the unseen count."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a paginated listing; `page` is zero-based."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    data: list[T]
    page: int
    page_size: int = Field(alias="pageSize")
    total_count: int | None = Field(None, alias="totalCount")
    has_more: bool = Field(alias="hasMore")


class UnseenCount(BaseModel):
    count: int


class Data(BaseModel, Generic[T]):
    """The `{"data": ...}` envelope around every success body that is not a page."""

    data: T
