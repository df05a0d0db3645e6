"""The settings of one run, layered by pydantic-settings from its own kind of sources.

Precedence, highest first: command-line flags, the environment, the chosen profile
(`--profile`, `INBOXDESK_PROFILE`, else the file's `default_profile`), the file's `[app]`
table, then the models' defaults. Each value's Source is kept (`provenance`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field, PrivateAttr, ValidationError
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from inboxdesk.config.errors import one_line
from inboxdesk.config.file import ConfigFile
from inboxdesk.config.models import AppSettings, Profile
from inboxdesk.config.provenance import DEFAULT, FLAG, Origin, Source
from inboxdesk.config.sources import Environment, Recorded, provenance
from inboxdesk.config.values import (
    FIRST_RUN,
    PROFILE_ENV,
    ConfigError,
    ProfileName,
    check_profile_name,
    env_name,
)
from inboxdesk.models.secrets import mask_secret


class Settings(BaseSettings, AppSettings, Profile):
    """The resolved settings one run uses. Built directly, it holds the values given and
    reads nothing; `resolve` builds it from the flags, the environment and the file."""

    model_config = SettingsConfigDict(frozen=True, validate_by_name=True, extra="forbid")

    profile: ProfileName | None = Field(
        None, description="profile from the config file (INBOXDESK_PROFILE)"
    )
    _provenance: dict[str, Source] = PrivateAttr(default_factory=dict)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)

    @property
    def provenance(self) -> dict[str, Source]:
        """Where each shown setting came from; DEFAULT for what no source gave."""
        return {name: self._provenance.get(name, DEFAULT) for name in SHOWN}

    @property
    def sources(self) -> dict[str, str]:
        """The provenance as text: `flag`, `env NAME`, `profile NAME`, `default`..."""
        return {name: str(source) for name, source in self.provenance.items()}

    def require_key(self) -> str:
        """A key of these settings: the one given, else the profile's first environment's."""
        if self.api_key:
            return self.api_key
        if self.environments:
            return next(iter(self.environments.values())).api_key
        raise ConfigError(f"No API key. {FIRST_RUN}")

    def read_only_reason(self) -> str | None:
        """The setting that makes this run read-only, as one would write it
        (`--read-only`, `INBOXDESK_READ_ONLY`, `profiles.work.read_only`); None if writes
        are allowed."""
        if not self.read_only:
            return None
        return self.provenance["read_only"].where("read_only")

    def shown(self) -> dict[str, str]:
        """Every setting as text, the key masked, for `config show`."""
        out = {}
        for name in SHOWN:
            value = getattr(self, name)
            if name == "api_key" and value:
                value = mask_secret(value)
            out[name] = "" if value is None else str(value)
        return out


# In the order `config show` lists them; the keymap is a table, shown by the app's help.
# The environments' keys are listed apart, one row each (config/keys.py).
SHOWN = [
    "profile",
    *(n for n in Settings.model_fields if n not in ("profile", "keymap", "environments")),
]
# What the environment may set: the profile is chosen before the layers are read.
FROM_ENVIRONMENT = [n for n in SHOWN if n != "profile"]


def chosen_profile(
    flag: str | None, environ: Mapping[str, str], config: ConfigFile
) -> tuple[str | None, Source]:
    """The profile to read, and why: --profile, INBOXDESK_PROFILE, else default_profile."""
    name: str | None
    if flag:
        name, source = flag, FLAG
    elif environ.get(PROFILE_ENV):
        name, source = environ[PROFILE_ENV], Source(Origin.ENV, PROFILE_ENV)
    else:
        name = config.data.get("default_profile")
        source = Source(Origin.DEFAULT_PROFILE, path=config.path) if name else DEFAULT
    profiles = config.profiles()
    if name is not None and name not in profiles:
        check_profile_name(str(name))
        known = ", ".join(profiles) or "none yet"
        raise ConfigError(
            f"Unknown profile '{name}' (profiles: {known}); "
            f"add it with `inboxdesk config add-profile {name}`."
        )
    return name, source


def layers(
    settings_cls: type[BaseSettings],
    flags: PydanticBaseSettingsSource,
    environ: Mapping[str, str],
    config: ConfigFile,
    profile: tuple[str | None, Source],
) -> list[Recorded]:
    """The sources of one run, highest first; the chosen profile's name is a flag's
    value here, with the Source that chose it. A table the file lacks or leaves empty
    gives nothing, so it is no layer: an InitSettingsSource matches every field's names
    as it is made (about 0.2 ms each), which a run without a config file should not pay."""
    name, chosen = profile
    table = config.profiles().get(name, {}) if name else {}
    in_profile = Source(Origin.PROFILE, str(name), config.path)
    in_app = Source(Origin.APP, path=config.path)
    found = [
        Recorded(settings_cls, flags, lambda f: chosen if f == "profile" else FLAG),
        Recorded(
            settings_cls,
            Environment(settings_cls, environ, FROM_ENVIRONMENT),
            lambda f: Source(Origin.ENV, env_name(f)),
        ),
    ]
    if table:
        found.append(
            Recorded(settings_cls, InitSettingsSource(settings_cls, table), lambda f: in_profile)
        )
    if app := config.app():
        found.append(
            Recorded(settings_cls, InitSettingsSource(settings_cls, app), lambda f: in_app)
        )
    return found


@dataclass
class _Run:
    """What one `resolve` layers: read by `_Resolved` while it is built."""

    environ: Mapping[str, str]
    config: ConfigFile
    profile: tuple[str | None, Source]
    layers: list[Recorded] = field(default_factory=list)


_RUN: ContextVar[_Run] = ContextVar("settings_run")


class _Resolved(Settings):
    """The settings `resolve` builds: pydantic-settings takes the sources from the class,
    so these are the run's being resolved. One class for every run: a class made per run
    cost pydantic its validators each time (most of a resolve's 5 ms)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        run = _RUN.get()
        run.layers[:] = layers(settings_cls, init_settings, run.environ, run.config, run.profile)
        return tuple(run.layers)

    def model_post_init(self, context: Any, /) -> None:
        self._provenance = provenance(_RUN.get().layers)


def resolve(
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    config: ConfigFile | None = None,
) -> Settings:
    """The settings of one run, from flags, environment, profile and defaults; an error
    is one line naming where the bad value was written."""
    given = {k: v for k, v in (flags or {}).items() if v is not None}
    env = os.environ if environ is None else environ
    file = config or ConfigFile.load()
    profile = chosen_profile(given.pop("profile", None), env, file)
    if profile[0] is not None:
        given["profile"] = profile[0]  # the init source's, with the Source that chose it
    run = _Run(env, file, profile)
    token = _RUN.set(run)
    try:
        return _Resolved(**given)
    except ValidationError as exc:
        field_name = str(exc.errors()[0]["loc"][0])
        source = provenance(run.layers).get(field_name, DEFAULT)
        raise one_line(exc, lambda _: source.where(field_name)) from None
    finally:
        _RUN.reset(token)
