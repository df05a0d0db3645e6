"""What the kinds that change a subscriber's own data share (its fields, its
credentials set or removed, its schedule): their words were made when the write was,
never with a secret, and History shows their before and after masked."""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from inboxdesk.text import clip
from inboxdesk.writes.events import Partial, Sent
from inboxdesk.writes.kinds.base import SUBSCRIBER_DATA, Notice, Section, WriteKind
from inboxdesk.writes.model import Write


class SubscriberData(WriteKind):
    things = SUBSCRIBER_DATA

    @abstractmethod
    def public(self, write: Write, values: Mapping[str, Any] | None) -> tuple[Any, Any]:
        """Its before and after as History may show them: every secret masked (the raw
        ones stay in the 0600 journal, for undo)."""

    def overlaps(self, write: Write, later: Write, later_kind: WriteKind) -> bool:
        """Any later change of the same subscriber's data."""
        return later_kind.things == self.things and later.target == write.target

    def describe(self, write: Write) -> str:
        return write.label  # said when it was made, never with a secret

    def notice(self, event: Sent | Partial) -> Notice | None:
        write = event.write
        restored = (event.result.values or {}).get("integrationName")
        under = f" Restored under the integration {restored}." if restored else ""
        undo = "" if write.undoes else " History (3) undoes it."
        return clip(f"Done: {self.what(write)}.{under}{undo}", 240), "information"

    def before_after(self, write: Write, detail: Mapping[str, Any]) -> tuple[Any, Any]:
        values = detail.get("values")
        return self.public(write, values if isinstance(values, dict) else None)

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        lines = tuple(
            f"{label}: {json.dumps(value, ensure_ascii=False)}"
            for label, value in (("before", before), ("after", after))
        )
        return Section("before → after:", lines)
