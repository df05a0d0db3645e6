"""`inboxdesk config`: where the file is, what is resolved, and editing profiles."""

from __future__ import annotations

import argparse
import getpass
import json
import sys

from inboxdesk.cli.connection import connection_options, settings_from
from inboxdesk.cli.tables import table
from inboxdesk.config import ConfigFile, check_api_key, config_path


def _secret(value: str | None, what: str) -> str | None:
    """`-` reads a value from stdin (or a hidden prompt), keeping it out of shell history."""
    if value != "-":
        return value
    if sys.stdin.isatty():
        return getpass.getpass(f"{what}: ").strip()
    return sys.stdin.readline().strip()


def _origin(value: str | None) -> str:
    return "stdin" if value == "-" else "the command line"


def _path(args: argparse.Namespace) -> int:
    print(config_path())
    return 0


def _show(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    shown = settings.shown()
    if args.json:
        print(
            json.dumps(
                {"path": str(config_path()), "settings": shown, "sources": settings.sources},
                indent=2,
            )
        )
        return 0
    print(f"config file: {config_path()}")
    rows = [(k, v, settings.sources.get(k, "default" if v else "")) for k, v in shown.items()]
    print(table(["SETTING", "VALUE", "FROM"], rows))
    return 0


def _set(args: argparse.Namespace) -> int:
    config = ConfigFile.load()
    value = args.value
    if args.key == "api_key":
        value = check_api_key(_secret(args.value, args.key) or "", _origin(args.value))
    config.set_value(args.profile, args.key, value or "")
    config.save()
    print(f"Set {args.key} in {config.path}.")
    return 0


def _add_profile(args: argparse.Namespace) -> int:
    config = ConfigFile.load()
    values = {
        "region": args.region,
        "base_url": args.base_url,
        "subscriber": args.subscriber,
        "api_key": None
        if args.api_key is None
        else check_api_key(_secret(args.api_key, "API key") or "", _origin(args.api_key)),
    }
    config.add_profile(args.name, {k: v for k, v in values.items() if v})
    config.save()
    print(f"Added profile '{args.name}' to {config.path}.")
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    config = commands.add_parser("config", help="profiles and settings")
    actions = config.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("path", help="print the config file's path").set_defaults(run=_path)

    show = actions.add_parser(
        "show",
        parents=[connection_options()],
        help="the resolved settings (key masked) and where each came from",
    )
    show.add_argument("--json", action="store_true")
    show.set_defaults(run=_show)

    set_ = actions.add_parser(
        "set",
        help="set a profile value (region, base_url, api_key, subscriber, timeout, "
        "ca_bundle, client_cert, client_key, proxy), app.theme, app.auto_refresh, "
        "app.keymap.BINDING_ID or default_profile",
    )
    set_.add_argument("key")
    set_.add_argument("value", help="the value; for api_key, - reads it from stdin")
    set_.add_argument("--profile", help="profile to change (default: the default profile)")
    set_.set_defaults(run=_set)

    add = actions.add_parser("add-profile", help="add a named profile")
    add.add_argument("name")
    add.add_argument("--region", choices=["us", "eu", "local"])
    add.add_argument("--base-url")
    add.add_argument("--api-key", help="- reads it from stdin (keeps it out of shell history)")
    add.add_argument("--subscriber", help="subscriber to open by default")
    add.set_defaults(run=_add_profile)
