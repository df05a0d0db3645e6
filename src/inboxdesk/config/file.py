"""The config file: read bounded, validated whole, changed on a checked copy, and
written atomically with mode 0600 (it may hold keys)."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from inboxdesk.config.errors import file_where, one_line
from inboxdesk.config.models import APP_FIELDS, PROFILE_FIELDS, ConfigData
from inboxdesk.config.values import CONFIG_ENV, ConfigError, check_profile_name
from inboxdesk.paths import config_dir

# A config file is a few kilobytes; anything far larger is not one.
MAX_CONFIG_BYTES = 1 << 20


def config_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else config_dir() / "config.toml"


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
        import tomllib  # here: most runs have no file to read, and the app starts sooner

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
            raise one_line(exc, file_where, f" in {self.path}") from None

    def holds_key(self) -> bool:
        return any(
            isinstance(p, dict) and (p.get("api_key") or p.get("environments"))
            for p in self.profiles().values()
        )

    def profiles(self) -> dict[str, dict[str, Any]]:
        profiles: dict[str, dict[str, Any]] = self.data.get("profiles", {})
        return profiles

    def app(self) -> dict[str, Any]:
        """The `[app]` table as written."""
        app: dict[str, Any] = self.data.get("app", {})
        return app

    def views(self) -> dict[str, Any]:
        """The `[views]` tables as written (read each with core.views.read_view)."""
        views: dict[str, Any] = self.data.get("views", {})
        return views

    def aliases(self) -> dict[str, str]:
        aliases: dict[str, str] = self.data.get("aliases", {})
        return aliases

    def put_view(self, name: str, table: Mapping[str, Any]) -> None:
        """File a view as `[views.NAME]`, replacing one of that name; call save() after."""
        self._apply(lambda d: d.setdefault("views", {}).update({name: dict(table)}))

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
        import tomli_w  # here: only a change to the file writes it

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

        Values are stored as the model reads them (`timeout = 3.0`, not `"3"`); a table
        keeps only what it sets, never the defaults.
        """
        data = _copy(self.data)
        change(data)
        try:
            valid = ConfigData.model_validate(data, context=context or None)
        except ValidationError as exc:
            raise one_line(exc, file_where) from None
        self.data = data
        for name, profile in valid.profiles.items():
            data["profiles"][name] = profile.model_dump(mode="json", exclude_unset=True)
        if "app" in data:
            data["app"] = valid.app.model_dump(mode="json", exclude_unset=True)
            if not data["app"].get("keymap", True):
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

    def put_key(
        self, profile: str, environment_id: str, name: str, type: str | None, api_key: str
    ) -> None:
        """File `api_key` as the key of the environment `environment_id` in `profile`,
        with the environment's name and type; a profile's own single key that it
        replaces goes (it moved here)."""
        target = self._target(profile)

        def put(data: dict[str, Any]) -> None:
            table = data["profiles"][target]
            held = table.setdefault("environments", {})
            entry = {**held.get(environment_id, {}), "name": name, "api_key": api_key}
            if type:
                entry["type"] = type
            held[environment_id] = entry
            if table.get("api_key") == api_key:
                del table["api_key"]

        self._apply(put)

    def drop_keys(self, profile: str | None) -> None:
        """Forget the environments' keys of `profile` (its own `api_key` replaces them)."""
        self.profiles()[self._target(profile)].pop("environments", None)

    def add_profile(self, name: str, values: Mapping[str, Any]) -> None:
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


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    return data


def _readable_by_others(path: Path) -> bool:
    try:
        return bool(path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO))
    except OSError:
        return False
