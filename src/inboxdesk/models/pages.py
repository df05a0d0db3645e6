"""Envelopes: offset pages, cursor pages, and the notification counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import ConfigDict, Field, PrivateAttr

from inboxdesk.models.base import DeferredModel, Number, is_whole

T = TypeVar("T")

# Production counts unread and unseen notifications up to this many and stops: a count
# that reaches it means "at least", shown as 99+ as production's own Inbox does.
COUNT_CAP = 100


class Page(DeferredModel, Generic[T]):
    """One page of an offset listing (feed, messages); `page` is zero-based.

    The document types the numbers as JSON numbers: any reads, kept as sent.
    """

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    data: list[T]
    page: Number
    page_size: Number = Field(alias="pageSize")
    total_count: Number | None = Field(None, alias="totalCount")
    has_more: bool = Field(alias="hasMore")

    # Set by a client that read the page item by item (client/bounded.py): the rows it
    # took in the listing, readable or not, and what was left out, said.
    _sent: int | None = PrivateAttr(None)
    _said: tuple[str, ...] = PrivateAttr(())

    def as_read(self, sent: int, said: tuple[str, ...]) -> Page[T]:
        """This page, told what its reading item by item found."""
        self._sent, self._said = sent, said
        return self

    @property
    def sent(self) -> int:
        return len(self.data) if self._sent is None else self._sent

    @property
    def said(self) -> tuple[str, ...]:
        return self._said


class CursorPage(DeferredModel, Generic[T]):
    """One page of a cursor listing (v2 subscribers): pass `next` as `after` for more."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    data: list[T]
    next: str | None = None
    previous: str | None = None
    # Counted up to 50,000 by production; some versions leave both out.
    total_count: Number | None = Field(None, alias="totalCount")
    total_count_capped: bool | None = Field(None, alias="totalCountCapped")


class UnseenCount(DeferredModel):
    count: Number


class NotificationCount(DeferredModel):
    """One element of the v2 count response: the count for one filter."""

    model_config = ConfigDict(extra="allow")

    count: Number
    filter: dict[str, Any]


@dataclass(frozen=True)
class Count:
    """A notification count, and whether the service stopped counting at its cap. The
    value is what the service sent: it may be fractional or negative."""

    value: int | float
    capped: bool = False

    @property
    def odd(self) -> bool:
        """Negative or not whole: shown as sent, marked, and never used to page or to
        size a confirmation."""
        return not is_whole(self.value)

    def __str__(self) -> str:
        if self.odd:
            shown = f"{self.value:g}" if isinstance(self.value, float) else str(self.value)
            return f"{shown} ?"
        # Past the cap, only a capped count is unknown: one the end search made exact
        # is shown as it is.
        return f"{COUNT_CAP - 1}+" if self.capped else str(self.value)

    @classmethod
    def of(cls, value: int | float, cap: int = COUNT_CAP) -> Count:
        """A count from a service that counts at most `cap`; an odd one kept as sent."""
        if not is_whole(value):
            return cls(value)
        value = int(value)
        return cls(min(value, cap), value >= cap)


@dataclass(frozen=True)
class NotificationCounts:
    """A subscriber's unread and unseen in-app notifications."""

    unread: Count
    unseen: Count


class Data(DeferredModel, Generic[T]):
    """The `{"data": ...}` envelope around every success body that is not a page."""

    data: T
