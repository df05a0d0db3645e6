"""Where each setting of a run came from, as data: `config show` prints it and an error
names the place a bad value was typed (`--timeout`, `INBOXDESK_TIMEOUT`, a profile)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path


class Origin(StrEnum):
    """The kinds of source, highest precedence first."""

    FLAG = "flag"
    ENV = "env"
    PROFILE = "profile"
    APP = "app"
    DEFAULT_PROFILE = "default_profile"
    DEFAULT = "default"


@dataclass(frozen=True)
class Source:
    """One setting's source: its kind, the variable or profile it names, the config file,
    and for a base URL picked by a region, that region."""

    origin: Origin
    name: str = ""
    path: Path | None = None
    region: str | None = None

    def __str__(self) -> str:
        if self.origin is Origin.ENV:
            label = f"env {self.name}"
        elif self.origin is Origin.PROFILE:
            label = f"profile {self.name}"
        elif self.origin is Origin.APP:
            label = f"config [app] ({self.path})"
        elif self.origin is Origin.DEFAULT_PROFILE:
            label = f"default_profile ({self.path})"
        else:
            label = self.origin.value
        return f"{label} (region {self.region})" if self.region else label

    def where(self, field: str) -> str:
        """The value's place as one would type it: `--timeout`, `INBOXDESK_TIMEOUT`,
        `profiles.work.timeout`, `app.theme`; a key's is its profile, never a path in it."""
        field = "region" if self.region else field
        if self.origin is Origin.FLAG:
            return f"--{field.replace('_', '-')}"
        if self.origin is Origin.ENV:
            return self.name
        if self.origin is Origin.PROFILE:
            return f"profile {self.name}" if field == "api_key" else f"profiles.{self.name}.{field}"
        if self.origin is Origin.APP:
            return f"app.{field}"
        return field

    def picked_by(self, region: str) -> Source:
        """This source as the source of a base URL that its region picked."""
        return replace(self, region=region)


FLAG = Source(Origin.FLAG)
DEFAULT = Source(Origin.DEFAULT)
