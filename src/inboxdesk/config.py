"""Connection profiles and app settings: a TOML file, the environment, and flags.

One pydantic-settings model, `Settings`, declares every setting, its kind and its
environment variable (`INBOXDESK_<NAME>`; the key is `NOVU_SECRET_KEY`, as the
service's own SDKs read it). The file's profiles and `[app]` table are validated by
`Profile` and `AppSettings`, which use the same field types, so a value is checked the
same way from a flag, a variable, the file or `config set`.

Precedence, highest first: command-line flags, the environment, the chosen profile
(`--profile`, `INBOXDESK_PROFILE`, else the file's `default_profile`), then defaults.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any

import tomli_w
from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, EnvSettingsSource, SettingsConfigDict
from pydantic_settings.sources import PydanticBaseSettingsSource

from inboxdesk.models import Region
from inboxdesk.models.secrets import mask_secret
from inboxdesk.paths import config_dir

REGION_URLS: dict[Region, str] = {
    Region.US: "https://api.novu.co",
    Region.EU: "https://eu.api.novu.co",
    Region.LOCAL: "http://127.0.0.1:3000",
}
ENV_PREFIX = "INBOXDESK_"
KEY_ENV = "NOVU_SECRET_KEY"
PROFILE_ENV = "INBOXDESK_PROFILE"
CONFIG_ENV = "INBOXDESK_CONFIG"
REGIONS = ", ".join(r.value for r in Region)
# Profile names are bare TOML keys: nothing to quote, nothing that looks like a flag.
PROFILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


class ConfigError(Exception):
    """A config problem, said in one line that names the fix."""


def config_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else config_dir() / "config.toml"


# -- the kinds of values, shared by every model below ---------------------------------


def key_problem(key: str) -> str | None:
    """Why `key` cannot go in an Authorization header, or None if it can.

    A key with whitespace (a pasted trailing newline) or non-ASCII characters would be
    refused by the HTTP layer with a message quoting the whole header, key included.
    """
    if not key:
        return "is empty"
    if any(c.isspace() for c in key):
        return "contains whitespace (a space, tab or newline); set it again without it"
    if not key.isascii() or not key.isprintable():
        return "contains non-ASCII or control characters; copy it again from the dashboard"
    return None


def check_api_key(key: str, source: str) -> str:
    """`key` if it can go in an Authorization header; else a one-line error without it."""
    problem = key_problem(key)
    if problem:
        raise ConfigError(f"The API key from {source} {problem}.")
    return key


def _valid_key(key: str) -> str:
    problem = key_problem(key)
    if problem:
        raise ValueError(problem)
    return key


def _http_url(url: str) -> str:
    if not url.startswith(("http://", "https://")):
        raise ValueError("must start with http:// or https://")
    return url.rstrip("/")


def check_profile_name(name: str) -> str:
    if not PROFILE_NAME.fullmatch(name):
        raise ConfigError(
            f"Profile name {name[:40]!r} is not allowed: use 1 to 64 letters, digits, "
            "- or _, starting with a letter or digit."
        )
    return name


def _profile_name(name: str) -> str:
    try:
        return check_profile_name(name)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


ApiKey = Annotated[str, AfterValidator(_valid_key)]
BaseUrl = Annotated[str, AfterValidator(_http_url)]
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
Interval = Annotated[float, Field(ge=0, allow_inf_nan=False)]
ProfileName = Annotated[str, AfterValidator(_profile_name)]
Megabytes = Annotated[float, Field(gt=0, allow_inf_nan=False)]
# The JSON parser's own ceilings (client/limits.py): a limit may be stricter, not looser.
JsonDepth = Annotated[int, Field(ge=1, le=200)]
IntDigits = Annotated[int, Field(ge=1, le=4300)]
Pages = Annotated[int, Field(ge=1)]
HistoryDays = Annotated[int, Field(ge=1, le=36_500)]
HistoryEntries = Annotated[int, Field(ge=0)]


class Profile(BaseModel):
    """One `[profiles.NAME]` table: where a service is and how to reach it."""

    model_config = ConfigDict(extra="forbid")

    region: Region | None = Field(None, description="us, eu or local; base_url wins")
    base_url: BaseUrl | None = Field(None, description="the service's base URL")
    api_key: ApiKey | None = Field(None, repr=False, description="the API key (secret)")
    subscriber: str | None = Field(None, description="the subscriber the app opens")
    timeout: Seconds | None = Field(None, description="seconds to wait for each answer")
    ca_bundle: str | None = Field(None, description="CA bundle file for TLS")
    client_cert: str | None = Field(None, description="client certificate file (PEM)")
    client_key: str | None = Field(None, description="client certificate key file (PEM)")
    proxy: str | None = Field(None, description="proxy URL")
    max_body_mb: Megabytes | None = Field(None, description="largest answer read, in MB")
    deadline: Seconds | None = Field(None, description="seconds one request may take in all")
    max_json_depth: JsonDepth | None = Field(None, description="deepest JSON nesting read")
    max_int_digits: IntDigits | None = Field(None, description="longest JSON integer read")
    max_pages: Pages | None = Field(None, description="most pages one listing follows")


class AppSettings(BaseModel):
    """The `[app]` table. Given a validation context with `themes` and `bindings`
    (the command line passes Textual's), theme names and keymap ids are checked too."""

    model_config = ConfigDict(extra="forbid")

    theme: str | None = Field(None, description="a Textual theme name")
    auto_refresh: Interval | None = Field(None, description="seconds; 0 is off")
    history_days: HistoryDays | None = Field(None, description="days the history keeps")
    history_entries: HistoryEntries | None = Field(
        None, description="most writes the history keeps; 0 is no limit"
    )
    keymap: dict[str, str] = Field(default_factory=dict, description="binding id = key(s)")

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


class ConfigData(BaseModel):
    """The whole file."""

    model_config = ConfigDict(extra="forbid")

    default_profile: str | None = None
    profiles: dict[ProfileName, Profile] = Field(default_factory=dict)
    app: AppSettings = Field(default_factory=AppSettings)

    @model_validator(mode="after")
    def _default_exists(self) -> ConfigData:
        if self.default_profile is not None and self.default_profile not in self.profiles:
            raise ValueError(
                f"default_profile '{self.default_profile}' names no profile; add it with "
                f"`inboxdesk config add-profile {self.default_profile}`"
            )
        return self


class Settings(BaseSettings):
    """The resolved settings one run uses. Built from keyword values only: `resolve`
    reads the flags, the environment and the profile in order and records where each
    value came from (`sources`: flag, env NAME, profile NAME, config [app], default)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, validate_by_name=True, extra="forbid"
    )

    profile: ProfileName | None = Field(None, description="the profile in use")
    region: Region | None = Field(None, description="us, eu or local; picks base_url")
    base_url: BaseUrl = Field(REGION_URLS[Region.LOCAL], description="the service's base URL")
    api_key: ApiKey | None = Field(
        None, repr=False, validation_alias=AliasChoices(KEY_ENV), description="the API key"
    )
    subscriber: str | None = Field(None, description="the subscriber the app opens")
    timeout: Seconds = Field(10.0, description="seconds to wait for each answer")
    ca_bundle: str | None = Field(None, description="CA bundle file for TLS")
    client_cert: str | None = Field(None, description="client certificate file (PEM)")
    client_key: str | None = Field(None, description="client certificate key file (PEM)")
    proxy: str | None = Field(None, description="proxy URL")
    # What the client takes from a service before it stops (client/limits.py).
    max_body_mb: Megabytes = Field(50.0, description="largest answer read, in MB")
    deadline: Seconds = Field(60.0, description="seconds one request may take in all")
    max_json_depth: JsonDepth = Field(200, description="deepest JSON nesting read")
    max_int_digits: IntDigits = Field(4300, description="longest JSON integer read")
    max_pages: Pages = Field(10_000, description="most pages one listing follows")
    theme: str | None = Field(None, description="a Textual theme name")
    auto_refresh: Interval = Field(30.0, description="seconds between refreshes; 0 is off")
    history_days: HistoryDays = Field(90, description="days the history keeps")
    history_entries: HistoryEntries = Field(
        0, description="most writes the history keeps; 0 is no limit"
    )
    keymap: dict[str, str] = Field(default_factory=dict, description="binding id = key(s)")
    sources: dict[str, str] = Field(default_factory=dict, repr=False, exclude=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Only the values given: `resolve` layers the rest, so that it knows each source.
        return (init_settings,)

    def require_key(self) -> str:
        if not self.api_key:
            raise ConfigError(f"No API key. {FIRST_RUN}")
        return self.api_key

    def shown(self) -> dict[str, str]:
        """Every setting as text, the key masked, for `config show`."""
        out = {}
        for name in SHOWN:
            value = getattr(self, name)
            if name == "api_key" and value:
                value = mask_secret(value)
            out[name] = "" if value is None else str(value)
        return out


# The command that works from nothing, named wherever a key is missing.
FIRST_RUN = (
    f"Save one with `inboxdesk config init` (asks for the region and the key), or set {KEY_ENV}."
)
SHOWN = [n for n in Settings.model_fields if n not in ("sources", "keymap")]
PROFILE_FIELDS = list(Profile.model_fields)
APP_FIELDS = [n for n in AppSettings.model_fields if n != "keymap"]


def env_name(field: str) -> str:
    """The environment variable a setting is read from."""
    return KEY_ENV if field == "api_key" else f"{ENV_PREFIX}{field.upper()}"


class _Environment(EnvSettingsSource):
    """The model's variables, read from a given mapping (tests pass their own)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(Settings, env_ignore_empty=True)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Names match case-insensitively (as the source's own reading does); empty is unset.
        return {name.lower(): value for name, value in self._environ.items() if value}


def read_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    values = _Environment(environ)()
    values = {("api_key" if k == KEY_ENV else k): v for k, v in values.items()}
    return {k: v for k, v in values.items() if k in SHOWN and k != "profile"}


# -- one line per validation error ------------------------------------------------------


def _problem(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx", {})
    if kind in ("float_parsing", "float_type", "int_parsing", "int_type"):
        return "not a number"
    if kind == "finite_number":
        return "not a finite number"
    if kind == "greater_than":
        return f"must be more than {ctx['gt']:g}"
    if kind == "greater_than_equal":
        return f"must be {ctx['ge']:g} or more"
    if kind == "less_than_equal":
        return f"must be {ctx['le']:g} or less"
    if kind == "enum":
        return f"must be one of {REGIONS} (or set base_url)"
    if kind == "string_type":
        return "must be a string (in quotes)"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be a table"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return str(error["msg"])


def _shown_value(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else repr(value)[1:-1]
    return text if len(text) <= 40 else text[:39] + "…"


def one_line(exc: ValidationError, where: Callable[[str], str], place: str = "") -> ConfigError:
    """The first error as one line: `NAME=value: problem`, NAME from `where(location)`.

    `place` follows the value (" in PATH" for the file); a key's value is never shown.
    """
    error = exc.errors()[0]
    loc = ".".join(str(part) for part in error["loc"])
    if loc.endswith("api_key") and error["type"] == "value_error":
        return ConfigError(f"The API key from {where(loc)}{place} {_problem(error)}.")
    if error["type"] == "extra_forbidden":
        return ConfigError(f"unknown setting {loc}{place}; known: {_known(loc)}.")
    label = where(loc)
    value = error.get("input")
    if loc and value is not None and not isinstance(value, dict) and "api_key" not in loc:
        label += f"={_shown_value(value)}"
    return ConfigError(f"{label}{place}: {_problem(error)}.")


def _known(loc: str) -> str:
    if loc.startswith("profiles."):
        return ", ".join(PROFILE_FIELDS)
    if loc.startswith("app."):
        return ", ".join(APP_FIELDS) + ", keymap"
    return "default_profile, profiles, app"


# -- the file ---------------------------------------------------------------------------


# A config file is a few kilobytes; anything far larger is not one.
MAX_CONFIG_BYTES = 1 << 20


def _read_bounded(path: Path) -> str:
    """The file's text, refusing what is not a regular file (a FIFO would block, a
    device never end) and reading at most MAX_CONFIG_BYTES."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(handle, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        data = file.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise OSError(f"{path} is larger than {MAX_CONFIG_BYTES >> 20} MiB")
    return data.decode("utf-8")


class ConfigFile:
    """The TOML file: profiles, the default profile, and app settings."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def load(cls, path: Path | None = None, warn: bool = True) -> ConfigFile:
        path = path or config_path()
        if not path.exists():
            return cls(path, {})
        try:
            data = tomllib.loads(_read_bounded(path))
        except RecursionError:
            raise ConfigError(f"{path} is nested too deep to read: fix or delete it.") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path} is not valid TOML ({exc}): fix or delete it.") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"Cannot read {path} ({exc}): check its permissions.") from None
        config = cls(path, data)
        config.validate()
        if warn and config.holds_key() and _readable_by_others(path):
            print(
                f"inboxdesk: warning: {path} holds an API key and is readable by others; "
                f"run: chmod 600 {path}",
                file=sys.stderr,
            )
        return config

    def validate(self, context: Mapping[str, Any] | None = None) -> ConfigData:
        try:
            return ConfigData.model_validate(self.data, context=context)
        except ValidationError as exc:
            raise one_line(exc, _file_where, f" in {self.path}") from None

    def holds_key(self) -> bool:
        return any(isinstance(p, dict) and p.get("api_key") for p in self.profiles().values())

    def profiles(self) -> dict[str, dict[str, Any]]:
        profiles: dict[str, dict[str, Any]] = self.data.get("profiles", {})
        return profiles

    def save(self) -> None:
        """Write atomically, mode 0600 from the first byte: the file may hold keys.

        A symlinked config is written at its target, so the link stays a link.
        """
        target = self.path.resolve() if self.path.is_symlink() else self.path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(dir=target.parent, prefix=".config-", suffix=".toml")
        except OSError as exc:
            raise ConfigError(
                f"Cannot write {target} ({exc.strerror}): check the directory's permissions "
                f"or point {CONFIG_ENV} at a writable file."
            ) from None
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "wb") as out:
                tomli_w.dump(self.data, out)
            os.replace(temp, target)
        except OSError as exc:
            Path(temp).unlink(missing_ok=True)
            raise ConfigError(f"Cannot write {target} ({exc.strerror}).") from None
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def _target(self, profile: str | None) -> str:
        target: str | None = profile or self.data.get("default_profile")
        if not target:
            raise ConfigError(
                "Which profile? Pass --profile NAME, or add one with "
                "`inboxdesk config add-profile NAME`."
            )
        if target not in self.profiles():
            raise ConfigError(
                f"No profile '{target}': add it with `inboxdesk config add-profile {target}`."
            )
        return target

    def _apply(self, change: Callable[[dict[str, Any]], None], **context: Any) -> None:
        """Make `change` on a copy, validate the copy, and keep it only if it is valid.

        Values are stored as the model reads them (`timeout = 3.0`, not `"3"`).
        """
        data = _copy(self.data)
        change(data)
        try:
            valid = ConfigData.model_validate(data, context=context or None)
        except ValidationError as exc:
            raise one_line(exc, _file_where) from None
        self.data = data
        for name, profile in valid.profiles.items():
            data["profiles"][name] = profile.model_dump(mode="json", exclude_none=True)
        if "app" in data:
            data["app"] = valid.app.model_dump(mode="json", exclude_none=True)
            if not data["app"]["keymap"]:
                del data["app"]["keymap"]

    def set_value(self, profile: str | None, key: str, value: str, **context: Any) -> None:
        """Set a profile field, `app.NAME`, `app.keymap.ID` or `default_profile`.

        `context` (themes, bindings) lets the model check theme names and binding ids.
        """
        if key.startswith("app.keymap."):
            binding = key.removeprefix("app.keymap.")
            self._apply(
                lambda d: d.setdefault("app", {}).setdefault("keymap", {}).update({binding: value}),
                **context,
            )
        elif key.startswith("app."):
            name = key.removeprefix("app.")
            self._apply(lambda d: d.setdefault("app", {}).update({name: value}), **context)
        elif key == "default_profile":
            self._apply(lambda d: d.update(default_profile=value))
        elif key in PROFILE_FIELDS:
            target = self._target(profile)
            self._apply(lambda d: d["profiles"][target].update({key: value}))
        else:
            raise ConfigError(
                f"Unknown setting {key}; known: {', '.join(PROFILE_FIELDS)}, "
                f"{', '.join('app.' + n for n in APP_FIELDS)}, app.keymap.BINDING_ID, "
                "default_profile."
            )

    def unset_value(self, profile: str | None, key: str) -> bool:
        """Remove a setting; False when it was not set."""
        if key.startswith("app."):
            path = ["app", *key.removeprefix("app.").split(".", 1)]
        elif key == "default_profile":
            path = ["default_profile"]
        else:
            path = ["profiles", self._target(profile), key]
        table = self.data
        for part in path[:-1]:
            table = table.get(part, {})
            if not isinstance(table, dict):
                return False
        if path[-1] not in table:
            return False
        del table[path[-1]]
        return True

    def add_profile(self, name: str, values: Mapping[str, str]) -> None:
        check_profile_name(name)
        if name in self.profiles():
            raise ConfigError(f"Profile '{name}' exists; change it with `inboxdesk config set`.")

        def add(data: dict[str, Any]) -> None:
            data.setdefault("profiles", {})[name] = dict(values)
            data.setdefault("default_profile", name)

        self._apply(add)

    def remove_profile(self, name: str) -> None:
        if name not in self.profiles():
            raise ConfigError(f"No profile '{name}' in {self.path}.")
        del self.profiles()[name]
        if self.data.get("default_profile") == name:
            # The next profile becomes the default, so that a default still exists.
            rest = list(self.profiles())
            if rest:
                self.data["default_profile"] = rest[0]
            else:
                del self.data["default_profile"]


def _file_where(loc: str) -> str:
    parts = loc.split(".")
    if parts[0] == "profiles" and len(parts) > 2 and parts[-1] == "api_key":
        return f"profile {parts[1]}"
    return loc


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    return data


def _readable_by_others(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO))
    except OSError:
        return False


def region_url(value: object, where: str = "region") -> str:
    """The base URL of a region name, or a ConfigError naming the choices."""
    try:
        return REGION_URLS[Region(str(value))]
    except ValueError:
        raise ConfigError(
            f"{where}={_shown_value(str(value))}: must be one of {REGIONS} (or set base_url)."
        ) from None


# -- resolving one run's settings -------------------------------------------------------


def resolve(
    flags: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    config: ConfigFile | None = None,
) -> Settings:
    """The settings of one run, from flags, environment, profile and defaults."""
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    environ = os.environ if environ is None else environ
    config = config or ConfigFile.load()
    profiles = config.profiles()
    name = flags.get("profile") or environ.get(PROFILE_ENV) or config.data.get("default_profile")
    if name is not None and name not in profiles:
        check_profile_name(str(name))
        known = ", ".join(profiles) or "none yet"
        raise ConfigError(
            f"Unknown profile '{name}' (profiles: {known}); "
            f"add it with `inboxdesk config add-profile {name}`."
        )
    profile = profiles.get(name, {}) if name else {}
    app = {k: v for k, v in config.data.get("app", {}).items() if k in APP_FIELDS}

    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, layer in (
        ("flag", {k: v for k, v in flags.items() if k != "profile"}),
        ("env", read_environment(environ)),
        (f"profile {name}", profile),
        (f"config [app] ({config.path})", app),
    ):
        for key, value in layer.items():
            if key not in values:
                values[key] = value
                sources[key] = f"env {env_name(key)}" if source == "env" else source

    # base_url beats region from the same or a lower level; region alone picks a URL.
    if "region" in values and (
        "base_url" not in values or _rank(sources["region"]) < _rank(sources["base_url"])
    ):
        values["base_url"] = region_url(values["region"], _where(sources["region"], "region"))
        sources["base_url"] = f"{sources['region']} (region {values['region']})"
    if name:
        sources["profile"] = (
            "flag"
            if flags.get("profile")
            else f"env {PROFILE_ENV}"
            if environ.get(PROFILE_ENV)
            else f"default_profile ({config.path})"
        )
    for key in SHOWN:
        sources.setdefault(key, "default")
    try:
        return Settings(
            profile=name,
            keymap=dict(config.data.get("app", {}).get("keymap", {})),
            sources=sources,
            **values,
        )
    except ValidationError as exc:
        field = str(exc.errors()[0]["loc"][0])
        raise one_line(exc, lambda loc: _where(sources.get(field, "default"), field)) from None


def _where(source: str, field: str) -> str:
    """A value's place, as one would type it: `--timeout`, `INBOXDESK_TIMEOUT`, ..."""
    if source == "flag":
        return f"--{field.replace('_', '-')}"
    if source.startswith("env "):
        return source.removeprefix("env ")
    if field == "api_key":
        return source
    if source.startswith("profile "):
        name = source.removeprefix("profile ")
        return f"profiles.{name}.{field}"
    if source.startswith("config [app]"):
        return f"app.{field}"
    return field


def _rank(source: str) -> int:
    return 0 if source == "flag" else 1 if source.startswith("env") else 2


__all__ = [
    "KEY_ENV",
    "REGION_URLS",
    "AppSettings",
    "ConfigData",
    "ConfigError",
    "ConfigFile",
    "Profile",
    "Settings",
    "check_api_key",
    "config_path",
    "resolve",
]
