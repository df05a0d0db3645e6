"""Conditions shared by integrations and workflow steps: StepFilter and its parts."""

from __future__ import annotations

from pydantic import Field

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import FilterJoin, FilterOn, FilterOperator, FilterType


class FieldFilterPart(ApiModel):
    field: str
    value: str
    operator: Open[FilterOperator]
    on: Open[FilterOn]


class StepFilter(ApiModel):
    is_negated: bool = Field(alias="isNegated")
    type: Open[FilterType]
    value: Open[FilterJoin]
    children: list[FieldFilterPart]

    def describe(self) -> str:
        """One readable line, e.g. `subscriber.locale EQUAL "de" AND payload.tier IN "gold"`."""
        join = f" {self.value} "
        text = join.join(f'{c.on}.{c.field} {c.operator} "{c.value}"' for c in self.children)
        text = text or "(no conditions)"
        return f"NOT ({text})" if self.is_negated else text
