"""The settings, each declared once: the connection (from which the command line's
connection flags are made), a profile of the file, the file's `[app]` table, and the
whole file. Every field's default lives here; a table of the file holds what it sets."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from inboxdesk.config.values import (
    REGION_URLS,
    ApiKey,
    BaseUrl,
    HistoryDays,
    HistoryEntries,
    IntDigits,
    Interval,
    JsonDepth,
    Megabytes,
    Pages,
    ProfileName,
    Seconds,
)
from inboxdesk.models import Region
from inboxdesk.models.base import DeferredModel


class Connection(DeferredModel):
    """Where a service is and how to reach it: each field is also a flag of every command
    that talks to the service (`--base-url` for base_url; cli/connection.py)."""

    # A run that reads no file validates only its Settings (DeferredModel).
    model_config = ConfigDict(extra="forbid")

    region: Region | None = Field(
        None, description="production region or the local service (base_url wins)"
    )
    base_url: BaseUrl = Field(
        REGION_URLS[Region.LOCAL], description="service base URL, e.g. https://api.novu.co"
    )
    api_key: ApiKey | None = Field(
        None,
        repr=False,
        description="API key; prefer NOVU_SECRET_KEY or a profile, "
        "since arguments are visible to other users of this machine",
    )
    timeout: Seconds = Field(10.0, description="seconds to wait for each answer")
    ca_bundle: str | None = Field(None, description="CA bundle file for TLS verification")
    client_cert: str | None = Field(None, description="client certificate file (PEM)")
    client_key: str | None = Field(None, description="client certificate key file (PEM)")
    proxy: str | None = Field(None, description="proxy URL")
    environment: str | None = Field(
        None,
        description="the environment to act in (name or id), and so its key; "
        "default: the profile's first key's",
    )


class EnvironmentKey(DeferredModel):
    """One `[profiles.NAME.environments.ID]` table: the key of one environment, filed
    under the environment's id. `name` and `type` are what the service last said of it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field("", description="the environment's name, as the service last gave it")
    type: str | None = Field(None, description="dev or prod, as the service last gave it")
    api_key: ApiKey = Field(repr=False, description="the environment's API key")
    read_only: bool = Field(False, description="refuse every write in this environment")


class Profile(Connection):
    """One `[profiles.NAME]` table: a connection, its subscriber, and what the client takes
    from that service before it stops (client/limits.py)."""

    subscriber: str | None = Field(None, description="the subscriber the app opens")
    max_body_mb: Megabytes = Field(50.0, description="largest answer read, in MB")
    deadline: Seconds = Field(60.0, description="seconds one request may take in all")
    max_json_depth: JsonDepth = Field(200, description="deepest JSON nesting read")
    max_int_digits: IntDigits = Field(4300, description="longest JSON integer read")
    max_pages: Pages = Field(10_000, description="most pages one listing follows")
    scan_pages: Pages = Field(
        40, description="most pages of 50 a scan across every subscriber reads"
    )
    environments: dict[str, EnvironmentKey] = Field(
        default_factory=dict, description="one key per environment, by the environment's id"
    )
    read_only: bool = Field(
        False, description="browse only: the app binds no write key, commands refuse writes"
    )


class AppSettings(DeferredModel):
    """The `[app]` table. Given a validation context with `themes` and `bindings`
    (the command line passes Textual's), theme names and keymap ids are checked too."""

    model_config = ConfigDict(extra="forbid")

    theme: str | None = Field(None, description="a Textual theme name")
    auto_refresh: Interval = Field(30.0, description="seconds between refreshes; 0 is off")
    history_days: HistoryDays = Field(90, description="days the history keeps")
    follow_grace: Interval = Field(
        5.0, description="seconds a followed delivery is watched for a provider's report"
    )
    follow_limit: Interval = Field(600.0, description="seconds a delivery is followed at most")
    history_entries: HistoryEntries = Field(
        0, description="most writes the history keeps; 0 is no limit"
    )
    keymap: dict[str, str] = Field(
        default_factory=dict, description="binding id = its key, or keys separated by commas"
    )

    @field_validator("theme")
    @classmethod
    def _known_theme(cls, theme: str | None, info: ValidationInfo) -> str | None:
        themes = (info.context or {}).get("themes")
        if theme is not None and themes is not None and theme not in themes:
            raise ValueError(f"no such theme; known: {', '.join(sorted(themes))}")
        return theme

    @field_validator("keymap")
    @classmethod
    def _known_bindings(cls, keymap: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        bindings: set[str] | None = (info.context or {}).get("bindings")
        unknown = sorted(set(keymap) - bindings) if bindings is not None else []
        if unknown:
            raise ValueError(
                f"no binding id {', '.join(unknown)}; known: {', '.join(sorted(bindings or ()))}"
            )
        # A checker of collisions within a view, given by the command line (it knows the UI).
        collisions = (info.context or {}).get("collisions")
        found: list[str] = collisions(keymap) if collisions is not None else []
        if found:
            raise ValueError("; ".join(found) + ". Move one of them too, or pick another key")
        return keymap


class ConfigData(DeferredModel):
    """The whole file."""

    model_config = ConfigDict(extra="forbid")

    default_profile: str | None = None
    profiles: dict[ProfileName, Profile] = Field(default_factory=dict)
    app: AppSettings = Field(default_factory=AppSettings)
    # Saved views and aliases of the `:` line (decision 91): each view is read when it
    # is opened (core/views.py), so one bad view names its key and hides no other.
    views: dict[str, dict[str, Any]] = Field(default_factory=dict)
    aliases: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_exists(self) -> ConfigData:
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(
                f"default_profile '{self.default_profile}' names no profile; add it with "
                f"`inboxdesk config add-profile {self.default_profile}`"
            )
        return self


CONNECTION_FIELDS = list(Connection.model_fields)
# `environments` is a table of its own, written by `config add-key`, never by `config set`.
PROFILE_FIELDS = [n for n in Profile.model_fields if n != "environments"]
APP_FIELDS = [n for n in AppSettings.model_fields if n != "keymap"]
