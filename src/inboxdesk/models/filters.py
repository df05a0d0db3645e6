"""Conditions shared by integrations and workflow steps: StepFilter and its parts.

Production's database is looser than its document here:
items written by older dashboards have only `children` and `value` (no `isNegated`,
no `type`), children may carry `_id`, `on` may be `tenant`, and a child's `value` may
be any JSON value. Every such shape reads; `to_wire()` gives back only what was sent.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import FilterJoin, FilterOn, FilterOperator, FilterType


class FieldFilterPart(ApiModel):
    field: str = ""
    value: Any = None
    operator: Open[FilterOperator] | None = None
    on: Open[FilterOn] | None = None

    def describe(self) -> str:
        """`on.field OPERATOR "value"`, the value as JSON unless it is a string."""
        shown = self.value if isinstance(self.value, str) else json.dumps(self.value)
        where = f"{self.on}.{self.field}" if self.on else self.field or "?"
        return f'{where} {self.operator or "?"} "{shown}"'


class StepFilter(ApiModel):
    is_negated: bool = Field(False, alias="isNegated")
    type: Open[FilterType] | None = None
    value: Open[FilterJoin] = FilterJoin.AND
    children: list[FieldFilterPart] = Field(default_factory=list)

    def describe(self) -> str:
        """One readable line, e.g. `subscriber.locale EQUAL "de" AND payload.tier IN "gold"`."""
        join = f" {self.value} "
        text = join.join(child.describe() for child in self.children)
        text = text or "(no conditions)"
        return f"NOT ({text})" if self.is_negated else text
