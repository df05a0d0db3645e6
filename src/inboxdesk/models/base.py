"""The base model and the open-enum type every resource model uses."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, TypeGuard, TypeVar

from pydantic import AllowInfNan, BaseModel, ConfigDict, Field, Strict, StrictInt

E = TypeVar("E", bound=StrEnum)

# A value of a closed list that still reads when a newer server sends a value this
# version does not know: the known ones become the enum, anything else stays a str.
Open = Annotated[E | str, Field(union_mode="left_to_right")]

# A field the document types as a JSON number (a count, a page, a total): any JSON
# number reads, fractional or negative, and is kept as it came (2 stays 2, 2.0 stays
# 2.0). A string, a boolean or a number past a float's range is not one.
Number = Annotated[
    StrictInt | Annotated[float, Strict(), AllowInfNan(False)], Field(union_mode="smart")
]


def is_whole(value: int | float | None) -> TypeGuard[int | float]:
    """Whether a wire number can count or page: a whole number, zero or more."""
    return value is not None and value >= 0 and float(value).is_integer()


class DeferredModel(BaseModel):
    """A model whose validator is built on first use, not at import: start-up needs only
    a few models (BENCHMARKS.md, start-up). Every model of the client and the settings
    derives from it; a subclass's own config adds to this one."""

    model_config = ConfigDict(defer_build=True)


class ApiModel(DeferredModel):
    """A resource as it travels on the wire: wire names, unknown fields kept."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict with wire names, leaving out fields never set."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)
