"""The History view's filter: words that must all match, each anywhere or in one field.

`subscriber:jane env:production op:mark outcome:failed` narrows by field; a bare word
matches any of them. Fields take a prefix (`sub:`, `env:`, `op:`) and compare without case.
"""

from __future__ import annotations

from dataclasses import dataclass

from inboxdesk.scope import Scope
from inboxdesk.writes import describe
from inboxdesk.writes.store import Entry

# Each field's names, the first being the one the placeholder and errors use.
FIELDS: dict[str, tuple[str, ...]] = {
    "subscriber": ("subscriber", "sub", "target"),
    "environment": ("environment", "env"),
    "operation": ("operation", "op"),
    "outcome": ("outcome", "status"),
}
_NAMES = {alias: field for field, aliases in FIELDS.items() for alias in aliases}


@dataclass(frozen=True)
class Query:
    terms: tuple[tuple[str | None, str], ...]  # (field or None for anywhere, folded text)
    unknown: tuple[str, ...] = ()  # field names nobody knows, said to the user

    @classmethod
    def parse(cls, text: str) -> Query:
        terms: list[tuple[str | None, str]] = []
        unknown: list[str] = []
        for word in text.split():
            name, colon, value = word.partition(":")
            if colon and value and name.casefold() in _NAMES:
                terms.append((_NAMES[name.casefold()], value.casefold()))
            elif colon and value and name and name.isalpha():
                unknown.append(name)
            else:
                terms.append((None, word.casefold()))
        return cls(tuple(terms), tuple(unknown))

    def matches(self, entry: Entry, scope: Scope) -> bool:
        write = entry.write
        fields = {
            "subscriber": write.target.casefold(),
            "environment": scope.name(entry.where.environment or None).casefold(),
            "operation": f"{write.kind.value} {describe(write)} {write.label}".casefold(),
            "outcome": entry.outcome.casefold(),
        }
        anywhere = " ".join(fields.values())
        return all(needle in (fields[field] if field else anywhere) for field, needle in self.terms)
