"""`inboxdesk config`: where the file is, what is resolved, and editing profiles."""

from __future__ import annotations

import getpass
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from inboxdesk.cli.connection import (
    REGION_CHOICE,
    Flags,
    connection_options,
    setting_option,
    settings_from,
)
from inboxdesk.cli.tables import table
from inboxdesk.config import (
    PROFILE_FIELDS,
    REGION_URLS,
    REGIONS,
    ConfigError,
    ConfigFile,
    check_api_key,
    config_path,
)
from inboxdesk.models import Region


def _secret(value: str | None, what: str) -> str | None:
    """`-` reads a value from stdin (or a hidden prompt), keeping it out of shell history."""
    if value != "-":
        return value
    if sys.stdin.isatty():
        return getpass.getpass(f"{what}: ").strip()
    return sys.stdin.readline().strip()


def _key(value: str | None) -> str | None:
    """The API key of an option (`-` for stdin), checked before anything is written."""
    if value is None:
        return None
    origin = "stdin" if value == "-" else "the command line"
    return check_api_key(_secret(value, "API key") or "", origin)


def _ui_names() -> dict[str, Any]:
    """Textual's theme names and the app's binding ids, for checking app.* settings."""
    from textual.theme import BUILTIN_THEMES

    from inboxdesk.tui.keymap import app_bindings, binding_ids, conflicts

    def collisions(keymap: dict[str, str]) -> list[str]:
        return conflicts(keymap, app_bindings())

    return {"themes": set(BUILTIN_THEMES), "bindings": binding_ids(), "collisions": collisions}


@click.group()
def config() -> None:
    """Profiles and settings."""


@config.command()
def path() -> int:
    """Print the config file's path."""
    print(config_path())
    return 0


@config.command()
@click.option("--json", "as_json", is_flag=True, help="print JSON, not a table")
@connection_options
def show(flags: Flags, as_json: bool) -> int:
    """The resolved settings (key masked) and where each came from."""
    settings = settings_from(flags)
    shown = settings.shown()
    sources = {name: str(source) for name, source in settings.provenance.items()}
    if as_json:
        print(
            json.dumps(
                {
                    "data": {
                        "path": str(config_path()),
                        "settings": shown,
                        "sources": sources,
                    }
                },
                indent=2,
            )
        )
        return 0
    print(f"config file: {config_path()}")
    rows = [(k, v, sources[k]) for k, v in shown.items()]
    print(table(["SETTING", "VALUE", "FROM"], rows))
    return 0


SETTABLE = (
    f"{', '.join(PROFILE_FIELDS)} (in a profile), app.theme, app.auto_refresh, "
    "app.keymap.BINDING_ID or default_profile"
)


@config.command("set", help=f"Set KEY: {SETTABLE}.")
@click.argument("key")
@click.argument("value")
@click.option("--profile", help="profile to change (default: the default profile)")
def set_(key: str, value: str, profile: str | None) -> int:
    config = ConfigFile.load()
    if key == "api_key":
        value = _key(value) or ""
    context = _ui_names() if key.startswith("app.") else {}
    config.set_value(profile, key, value, **context)
    config.save()
    print(f"Set {key} in {config.path}.")
    return 0


@config.command(help=f"Remove KEY ({SETTABLE}), so that a lower level applies.")
@click.argument("key")
@click.option("--profile", help="profile to change (default: the default profile)")
def unset(key: str, profile: str | None) -> int:
    config = ConfigFile.load()
    if not config.unset_value(profile, key):
        print(f"{key} was not set in {config.path}.")
        return 0
    config.save()
    print(f"Removed {key} from {config.path}.")
    return 0


# Help that differs from the flag's when a profile is written, not used.
_PROFILE_HELP = {
    "base_url": "the service's base URL (wins over --region)",
    "api_key": "- reads it from stdin (keeps it out of shell history)",
    "subscriber": "subscriber to open by default",
}


def profile_options(command: Callable[..., int]) -> Callable[..., int]:
    """An option for each setting a profile holds, made from its field."""
    for name in reversed(PROFILE_FIELDS):
        command = setting_option(name, _PROFILE_HELP.get(name))(command)
    return command


@config.command("add-profile")
@click.argument("name")
@profile_options
def add_profile(name: str, **values: Any) -> int:
    """Add a named profile (the first one becomes the default)."""
    config = ConfigFile.load()
    values["api_key"] = _key(values["api_key"])
    config.add_profile(name, {k: v for k, v in values.items() if v is not None and v != ""})
    config.save()
    print(f"Added profile '{name}' to {config.path}.")
    return 0


@config.command("remove-profile")
@click.argument("name")
def remove_profile(name: str) -> int:
    """Remove a profile (and its key) from the file."""
    config = ConfigFile.load()
    config.remove_profile(name)
    config.save()
    default = config.data.get("default_profile")
    print(f"Removed profile '{name}'." + (f" The default is now '{default}'." if default else ""))
    return 0


@config.command()
@click.option("--profile", "name", help="the profile's name (default: the region's)")
@click.option("--region", type=REGION_CHOICE, help="asked for when not given")
@click.option("--api-key", help="asked for (hidden) when not given; - reads stdin")
def init(name: str | None, region: str | None, api_key: str | None) -> int:
    """Save a first profile: asks for the region and the key, and makes it the default."""
    if region is None:
        if not sys.stdin.isatty():
            raise ConfigError(f"No region given: pass --region ({REGIONS}).")
        region = click.prompt(
            f"Region ({REGIONS}; local is `inboxdesk serve`)",
            type=REGION_CHOICE,
            default=Region.US.value,
            # The question names them already: click would list them a second time.
            show_choices=False,
            err=True,
        )
    if api_key is None:
        if not sys.stdin.isatty():
            raise ConfigError("No key given: pass --api-key - with the key on stdin.")
        api_key = "-"
    key = _key(api_key)
    name = name or str(region)
    config = ConfigFile.load()
    config.add_profile(name, {"region": str(region), "api_key": key or ""})
    config.data["default_profile"] = name
    config.save()
    print(
        f"Saved profile '{name}' ({REGION_URLS[Region(region)]}) as the default in "
        f"{config.path}. Run `inboxdesk` to open the app."
    )
    return 0


COMMANDS = [config]
