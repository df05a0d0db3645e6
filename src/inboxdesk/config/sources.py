"""The sources of one run's settings, as pydantic-settings sources: the flags (the
model's init values), the environment, the chosen profile's table and the `[app]` table.
pydantic-settings layers them; each records which fields it gave, so that the settings
know where each value came from."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic.fields import FieldInfo
from pydantic_settings import PydanticBaseSettingsSource

from inboxdesk.config.provenance import Source
from inboxdesk.config.values import env_name, region_url
from inboxdesk.models import Region

if TYPE_CHECKING:
    from pydantic_settings import BaseSettings


class Environment(PydanticBaseSettingsSource):
    """Each field's variable (`INBOXDESK_<NAME>`; the key's is NOVU_SECRET_KEY) from a
    mapping: the process's environment, or a test's own. Names match regardless of case,
    and an empty variable is unset.

    pydantic-settings' EnvSettingsSource reads only `os.environ` (a test could change
    what it reads only through a private method), hence this source of the public kind.
    """

    def __init__(
        self, settings_cls: type[BaseSettings], environ: Mapping[str, str], fields: Iterable[str]
    ) -> None:
        super().__init__(settings_cls)
        wanted = {env_name(f): f for f in fields}
        # Names alone are scanned, and only the values wanted read: os.environ decodes
        # each one it hands out.
        self.values = {
            wanted[upper]: value
            for name in environ
            if (upper := name.upper()) in wanted and (value := environ[name])
        }

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self.values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self.values)


class Recorded(PydanticBaseSettingsSource):
    """A source that remembers which fields it gave and their Source. Within one source
    a region stands for its base URL, unless the source gives base_url too: so a region
    given at a higher level beats a base_url from a lower one, and not the other way."""

    def __init__(
        self,
        settings_cls: type[BaseSettings],
        source: PydanticBaseSettingsSource,
        origin: Callable[[str], Source],
    ) -> None:
        super().__init__(settings_cls)
        self.source = source
        self.origin = origin
        self.given: dict[str, Source] = {}

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # __call__ hands the wrapped source's values on

    def __call__(self) -> dict[str, Any]:
        values = dict(self.source())
        self.given = {name: self.origin(name) for name in values}
        region = values.get("region")
        url = region_url(region) if region is not None and "base_url" not in values else None
        if url is not None:
            values["base_url"] = url
            self.given["base_url"] = self.given["region"].picked_by(Region(str(region)).value)
        return values


def provenance(layers: Iterable[Recorded]) -> dict[str, Source]:
    """Each field's Source: the first of `layers` (highest first) that gave it."""
    found: dict[str, Source] = {}
    for layer in layers:
        for name, source in layer.given.items():
            found.setdefault(name, source)
    return found
