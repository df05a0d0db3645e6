"""`inboxdesk config`: where the file is, what is resolved, and editing profiles."""

from __future__ import annotations

import asyncio
import getpass
import json
import os
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
from inboxdesk.client import InboxdeskError
from inboxdesk.config import (
    KEY_ENV,
    PROFILE_ENV,
    PROFILE_FIELDS,
    REGION_URLS,
    REGIONS,
    ConfigError,
    ConfigFile,
    Settings,
    check_api_key,
    config_path,
    env_name,
    resolve,
)
from inboxdesk.config.connect import client_for
from inboxdesk.config.keys import HeldKey, Keyring, key_environment
from inboxdesk.models import Region
from inboxdesk.models.secrets import mask_secret
from inboxdesk.text import safe


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
    keyring = Keyring(settings)
    keys = [
        {
            "environment": k.name,
            "id": k.environment_id,
            "type": k.type or "",
            "key": mask_secret(k.api_key),
            "readOnly": k.read_only,
        }
        for k in keyring.keys
    ]
    if as_json:
        data = {"path": str(config_path()), "settings": shown, "sources": sources, "keys": keys}
        print(json.dumps({"data": data}, indent=2))
        return 0
    print(f"config file: {config_path()}")
    rows = [(k, v, sources[k]) for k, v in shown.items()]
    print(table(["SETTING", "VALUE", "FROM"], rows))
    if keys:
        print()
        print(_keys_table(keyring))
    return 0


def _keys_table(keyring: Keyring) -> str:
    """One row per environment whose key is held, the key masked."""
    rows = [
        (
            k.label if (k.name or k.environment_id) else "(not named yet)",
            k.environment_id,
            k.type or "",
            mask_secret(k.api_key),
            "read-only" if k.read_only else "",
        )
        for k in keyring.keys
    ]
    return table(["ENVIRONMENT", "ID", "TYPE", "KEY", ""], rows)


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
    if key == "api_key":
        # One key in place of the set: filed by environment on its first connection.
        config.drop_keys(profile)
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
@click.option(
    "--environment-id",
    metavar="ID",
    help="with --api-key: the key's environment, where the service cannot say which",
)
@profile_options
def add_profile(name: str, environment_id: str | None, **values: Any) -> int:
    """Add a named profile (the first one becomes the default). A key given is asked of
    the service, and filed under the environment it belongs to."""
    config = ConfigFile.load()
    key = _key(values.pop("api_key"))
    config.add_profile(name, {k: v for k, v in values.items() if v is not None and v != ""})
    if key is None:
        config.save()
        print(f"Added profile '{name}' to {config.path}.")
        return 0
    held = asyncio.run(_key_environment(config, name, key, environment_id))
    config.put_key(name, held.environment_id, held.name, held.type, key)
    config.save()
    print(f"Added profile '{name}' to {config.path}, with the key of {held.label}.")
    return 0


@config.command("add-key")
@click.argument("profile")
@click.option(
    "--api-key",
    default="-",
    show_default=True,
    help="- reads it from standard input (keeps it out of shell history)",
)
@click.option(
    "--environment-id",
    metavar="ID",
    help="the key's environment, where the service cannot say which",
)
@click.option("-y", "--yes", is_flag=True, help="replace a key already held without asking")
def add_key(profile: str, api_key: str, environment_id: str | None, yes: bool) -> int:
    """Add a key to PROFILE, filed under the environment the service says it belongs to.
    A profile holds one key per environment of one organization."""
    config = ConfigFile.load()
    if profile not in config.profiles():
        raise ConfigError(
            f"No profile '{profile}': add it with `inboxdesk config add-profile {profile}`."
        )
    key = _key(api_key) or ""
    held = asyncio.run(_key_environment(config, profile, key, environment_id))
    table_ = config.profiles()[profile].get("environments", {})
    replaces = table_.get(held.environment_id, {}).get("api_key") not in (None, key)
    if replaces and not yes:
        if not sys.stdin.isatty():
            raise ConfigError(
                f"Profile {profile} holds a key of {held.label} already; pass --yes to replace it."
            )
        if not click.confirm(f"Replace the key of {held.label} in profile {profile}?", err=True):
            print("Nothing changed.", file=sys.stderr)
            return 1
    config.put_key(profile, held.environment_id, held.name, held.type, key)
    config.save()
    filed = [
        safe(str(e.get("name") or i), newlines=False)
        for i, e in config.profiles()[profile].get("environments", {}).items()
    ]
    print(
        f"Filed the key of {held.label} in profile {profile}, which holds the keys of "
        f"{', '.join(filed)}."
    )
    return 0


async def _key_environment(
    config: ConfigFile, profile: str, key: str, environment_id: str | None
) -> HeldKey:
    """The environment `key` belongs to, as the service says (or `environment_id` where it
    cannot); refused when it is of another organization than the profile's other keys."""
    # The profile's connection; the environment's own key and choices do not apply here.
    skip = {KEY_ENV, PROFILE_ENV, env_name("environment")}
    environ = {k: v for k, v in os.environ.items() if k.upper() not in skip}
    settings = resolve({"profile": profile}, environ, config)
    async with client_for(settings, api_key=key) as client:
        found = await key_environment(client)
        organization = found.organization_id if found is not None else None
        if found is None and environment_id is None:
            raise InboxdeskError(
                "The service did not say which environment this key belongs to, so it was "
                "not filed.",
                "Pass --environment-id ID (`inboxdesk environments --api-key -` lists them).",
            )
    held_org = await _organization_of(settings)
    if organization and held_org and organization != held_org:
        raise ConfigError(
            f"That key belongs to another organization than the keys of profile {profile}: "
            "a profile holds the keys of one organization. Add it to a profile of its own "
            "(`inboxdesk config add-profile NAME --api-key -`)."
        )
    if found is None:
        return HeldKey(str(environment_id), "", None, key)
    type_ = str(found.type) if found.type is not None else None
    return HeldKey(found.id, found.name, type_, key)


async def _organization_of(settings: Settings) -> str | None:
    """The organization of the keys the profile holds already (asked with the first)."""
    keyring = Keyring(settings)
    if not keyring.keys or keyring.single:
        return None
    try:
        async with client_for(settings, api_key=keyring.keys[0].api_key) as client:
            found = await key_environment(client)
    except InboxdeskError:
        return None  # that key no longer answers: the new one is not held against it
    return found.organization_id if found is not None else None


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
