"""Connection profiles and app settings: a TOML file, the environment, and flags.

Precedence, highest first: command-line flags, environment (`NOVU_SECRET_KEY` for the
key, `INBOXDESK_*` for the rest), the chosen profile (`--profile`, `INBOXDESK_PROFILE`,
else the file's `default_profile`), then defaults.
"""

from __future__ import annotations

import math
import os
import stat
import sys
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import tomli_w

from inboxdesk.models import Region
from inboxdesk.models.integration import mask_secret
from inboxdesk.paths import config_dir

REGION_URLS: dict[Region, str] = {
    Region.US: "https://api.novu.co",
    Region.EU: "https://eu.api.novu.co",
    Region.LOCAL: "http://127.0.0.1:3000",
}
KEY_ENV = "NOVU_SECRET_KEY"
PROFILE_ENV = "INBOXDESK_PROFILE"
# Profile fields and their kinds; each may also come from INBOXDESK_<NAME>.
PROFILE_FIELDS: dict[str, type] = {
    "region": str,
    "base_url": str,
    "api_key": str,
    "subscriber": str,
    "timeout": float,
    "ca_bundle": str,
    "client_cert": str,
    "client_key": str,
    "proxy": str,
}
APP_FIELDS: dict[str, type] = {"theme": str, "auto_refresh": float}


class ConfigError(Exception):
    """A config problem, said in one line that names the fix."""


def config_path() -> Path:
    override = os.environ.get("INBOXDESK_CONFIG")
    return Path(override) if override else config_dir() / "config.toml"


@dataclass(frozen=True)
class Settings:
    """The resolved settings one run uses."""

    profile: str | None = None
    base_url: str = REGION_URLS[Region.LOCAL]
    api_key: str | None = None
    subscriber: str | None = None
    timeout: float = 10.0
    ca_bundle: str | None = None
    client_cert: str | None = None
    client_key: str | None = None
    proxy: str | None = None
    theme: str | None = None
    auto_refresh: float = 0.0
    keymap: dict[str, str] = field(default_factory=dict)
    # Where each value came from: flag, env, profile NAME, or default.
    sources: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        key = mask_secret(self.api_key) if self.api_key else None
        return f"Settings(profile={self.profile!r}, base_url={self.base_url!r}, api_key={key!r})"

    def require_key(self) -> str:
        if not self.api_key:
            where = f"profile '{self.profile}'" if self.profile else "any profile"
            raise ConfigError(
                f"No API key: none in {where}, {KEY_ENV} or --api-key. Set one with "
                "`inboxdesk config set api_key -` (reads it from stdin)."
            )
        return self.api_key

    def shown(self) -> dict[str, str]:
        """Every setting as text, the key masked, for `config show`."""
        out = {}
        for f in fields(self):
            if f.name in ("sources", "keymap"):
                continue
            value = getattr(self, f.name)
            if f.name == "api_key" and value:
                value = mask_secret(value)
            out[f.name] = "" if value is None else str(value)
        return out


@dataclass
class ConfigFile:
    """The TOML file: profiles, the default profile, and app settings."""

    path: Path
    data: dict[str, Any]

    @classmethod
    def load(cls, path: Path | None = None, warn: bool = True) -> ConfigFile:
        path = path or config_path()
        if not path.exists():
            return cls(path, {})
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text)
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

    def validate(self) -> None:
        profiles = self.data.get("profiles", {})
        if not isinstance(profiles, dict):
            raise ConfigError(f"{self.path}: [profiles] must be a table of profiles.")
        for name, profile in profiles.items():
            if not isinstance(profile, dict):
                raise ConfigError(f"{self.path}: profiles.{name} must be a table.")
            for key, value in profile.items():
                _check(f"profiles.{name}.{key}", key, value, PROFILE_FIELDS, self.path)
        app = self.data.get("app", {})
        if not isinstance(app, dict):
            raise ConfigError(f"{self.path}: [app] must be a table.")
        for key, value in app.items():
            if key == "keymap":
                if not isinstance(value, dict) or not all(
                    isinstance(v, str) for v in value.values()
                ):
                    raise ConfigError(f"{self.path}: app.keymap must map binding ids to keys.")
                continue
            _check(f"app.{key}", key, value, APP_FIELDS, self.path)
        default = self.data.get("default_profile")
        if default is not None and default not in profiles:
            raise ConfigError(
                f"{self.path}: default_profile '{default}' names no profile; "
                f"add it with `inboxdesk config add-profile {default}`."
            )

    def holds_key(self) -> bool:
        return any(isinstance(p, dict) and p.get("api_key") for p in self.profiles().values())

    def profiles(self) -> dict[str, dict[str, Any]]:
        profiles: dict[str, dict[str, Any]] = self.data.get("profiles", {})
        return profiles

    def save(self) -> None:
        """Write atomically, mode 0600 from the first byte: the file may hold keys."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".config-", suffix=".toml")
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "wb") as out:
                tomli_w.dump(self.data, out)
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def set_value(self, profile: str | None, key: str, value: str) -> None:
        """Set a profile field (or `app.NAME`, `app.keymap.ID`), checking its kind."""
        if key.startswith("app.keymap."):
            self.data.setdefault("app", {}).setdefault("keymap", {})[key[11:]] = value
            return
        if key.startswith("app."):
            name = key[4:]
            self.data.setdefault("app", {})[name] = _convert(key, name, value, APP_FIELDS)
            return
        if key == "default_profile":
            if value not in self.profiles():
                raise ConfigError(
                    f"No profile '{value}': add it with `inboxdesk config add-profile {value}`."
                )
            self.data["default_profile"] = value
            return
        target: str | None = profile or self.data.get("default_profile")
        if not target:
            raise ConfigError("Which profile? Pass --profile NAME or set default_profile first.")
        if target not in self.profiles():
            raise ConfigError(
                f"No profile '{target}': add it with `inboxdesk config add-profile {target}`."
            )
        self.profiles()[target][key] = _convert(key, key, value, PROFILE_FIELDS)
        self.validate()

    def add_profile(self, name: str, values: Mapping[str, str]) -> None:
        if name in self.profiles():
            raise ConfigError(f"Profile '{name}' exists; change it with `inboxdesk config set`.")
        self.data.setdefault("profiles", {})[name] = {
            k: _convert(k, k, v, PROFILE_FIELDS) for k, v in values.items()
        }
        self.data.setdefault("default_profile", name)
        self.validate()


def _check(where: str, key: str, value: Any, known: Mapping[str, type], path: Path) -> None:
    kind = known.get(key)
    if kind is None:
        raise ConfigError(f"{path}: unknown setting {where}; known: {', '.join(known)}.")
    ok = (
        isinstance(value, int | float) and not isinstance(value, bool)
        if kind is float
        else isinstance(value, kind)
    )
    if not ok:
        raise ConfigError(f"{path}: {where} must be a {'number' if kind is float else 'string'}.")
    if key == "region":
        region_url(value, f"{path}: {where}")


def region_url(value: object, where: str = "region") -> str:
    """The base URL of a region name, or a ConfigError naming the choices."""
    try:
        return REGION_URLS[Region(str(value))]
    except ValueError:
        raise ConfigError(
            f"{where} must be one of us, eu, local (or set base_url), not {value!r}."
        ) from None


def _convert(where: str, key: str, value: str, known: Mapping[str, type]) -> str | float:
    kind = known.get(key)
    if kind is None:
        raise ConfigError(f"Unknown setting {where}; known: {', '.join(known)}.")
    if kind is float:
        try:
            return float(value)
        except ValueError:
            raise ConfigError(f"{where} must be a number, not {value!r}.") from None
    if key == "region":
        region_url(value)
    return value


def _readable_by_others(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO))
    except OSError:
        return False


def check_api_key(key: str, source: str) -> str:
    """`key` if it can go in an Authorization header; else a one-line error without it.

    A key with whitespace (a pasted trailing newline) or non-ASCII characters would be
    refused by the HTTP layer with a message quoting the whole header, key included.
    """
    if not key:
        raise ConfigError(f"The API key from {source} is empty.")
    if any(c.isspace() for c in key):
        raise ConfigError(
            f"The API key from {source} contains whitespace (a space, tab or newline); "
            "set it again without it."
        )
    if not key.isascii() or not key.isprintable():
        raise ConfigError(
            f"The API key from {source} contains non-ASCII or control characters; "
            "copy it again from the service's dashboard."
        )
    return key


def _number(value: Any, name: str) -> float:
    """A finite number from a flag, variable or config value, or a one-line error."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number, not {str(value)[:40]!r}.") from None
    if not math.isfinite(number):
        raise ConfigError(f"{name} must be a finite number, not {value!r}.")
    return number


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
        known = ", ".join(profiles) or "none yet"
        raise ConfigError(
            f"Unknown profile '{name}' (profiles: {known}); "
            f"add it with `inboxdesk config add-profile {name}`."
        )
    profile = profiles.get(name, {}) if name else {}
    chosen_by = (
        "flag"
        if flags.get("profile")
        else f"env {PROFILE_ENV}"
        if environ.get(PROFILE_ENV)
        else "default_profile"
    )

    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key in PROFILE_FIELDS:
        env_name = KEY_ENV if key == "api_key" else f"INBOXDESK_{key.upper()}"
        if key in flags:
            values[key], sources[key] = flags[key], "flag"
        elif environ.get(env_name):
            values[key], sources[key] = environ[env_name], f"env {env_name}"
        elif key in profile:
            values[key], sources[key] = profile[key], f"profile {name}"

    # base_url beats region from the same or a lower level; region alone picks a URL.
    if "region" in values and (
        "base_url" not in values or _rank(sources["region"]) < _rank(sources["base_url"])
    ):
        values["base_url"] = region_url(values["region"])
        sources["base_url"] = sources["region"]
    values.pop("region", None)
    if "api_key" in values:
        values["api_key"] = check_api_key(str(values["api_key"]), sources["api_key"])
    if "timeout" in values:
        values["timeout"] = _number(values["timeout"], f"timeout ({sources['timeout']})")
        if values["timeout"] <= 0:
            raise ConfigError("timeout must be more than 0 seconds.")
    base_url = str(values.get("base_url", REGION_URLS[Region.LOCAL]))
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"base URL must start with http:// or https://, not {base_url!r}.")
    app = config.data.get("app", {})
    settings = Settings(
        profile=name,
        theme=environ.get("INBOXDESK_THEME") or app.get("theme"),
        auto_refresh=_number(
            environ.get("INBOXDESK_AUTO_REFRESH") or app.get("auto_refresh", 0.0),
            "auto_refresh (env INBOXDESK_AUTO_REFRESH or [app] in the config)",
        ),
        keymap=dict(app.get("keymap", {})),
    )
    if name:
        sources["profile"] = chosen_by
    return replace(settings, **values, sources=sources)


def _rank(source: str) -> int:
    return 0 if source == "flag" else 1 if source.startswith("env") else 2
