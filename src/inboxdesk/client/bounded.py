"""One page of a listing read item by item, so that no answer sinks the page.

At most the items asked for are kept, each id once, and an item that cannot be read
costs itself; each is said (one line, safe to show). `sent` counts the rows the
service sent within the limit, readable or not, a row listed twice once: the end search
and offsets count by it, so a left-out item still counts as the row it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from inboxdesk.text import clip, plural

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Bounded(Generic[M]):
    items: list[M]
    # Rows the service sent within the limit, readable or not, each once.
    sent: int
    # The id of the last item sent within the limit (a cursor), readable or not.
    last_id: str | None
    said: tuple[str, ...]


def bounded(model: type[M], items: list[Any], limit: int | None, what: str) -> Bounded[M]:
    """The first `limit` of `items` read as `model`, each id once, unreadable ones left
    out; `what` names one item ("message")."""
    said: list[str] = []
    if limit is not None and len(items) > limit:
        said.append(
            f"The service sent {plural(len(items), what)} where {limit:,} were asked "
            f"for: the first {limit:,} are shown."
        )
        items = items[:limit]
    found: list[M] = []
    seen: set[str] = set()
    unreadable: list[str] = []
    again = 0
    for item in items:
        try:
            read = model.model_validate(item)
        except PydanticValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "item"
            unreadable.append(clip(f"{where}: {first['msg']}", 80))
            continue
        key = getattr(read, "id", None)
        if isinstance(key, str) and key:
            if key in seen:
                again += 1
                continue
            seen.add(key)
        found.append(read)
    if unreadable:
        said.append(
            f"{plural(len(unreadable), what)} of this page could not be read "
            f"({unreadable[0]}): left out, the rest shown."
        )
    if again:
        said.append(f"The service listed {plural(again, what)} twice on one page: each shown once.")
    last = items[-1] if items else None
    last_id = _id_of(last)
    return Bounded(found, len(items) - again, last_id, tuple(said))


def _id_of(item: Any) -> str | None:
    if not isinstance(item, dict):
        return None
    for key in ("id", "_id"):
        value = item.get(key)
        if isinstance(value, str) and value:
            return value
    return None
