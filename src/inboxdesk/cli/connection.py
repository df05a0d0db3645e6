"""Options shared by every command that talks to the service, and resolving them."""

from __future__ import annotations

import argparse

from inboxdesk.config import Settings, resolve


def connection_options() -> argparse.ArgumentParser:
    """A parent parser holding --profile, --base-url and the rest."""
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("connection")
    group.add_argument("--profile", help="profile from the config file (INBOXDESK_PROFILE)")
    group.add_argument("--region", choices=["us", "eu", "local"], help="production region or local")
    group.add_argument("--base-url", help="service base URL, e.g. https://api.novu.co")
    group.add_argument(
        "--api-key",
        help="API key; prefer NOVU_SECRET_KEY or a profile, "
        "since arguments are visible to other users of this machine",
    )
    group.add_argument("--timeout", type=float, help="seconds to wait for each answer")
    group.add_argument("--ca-bundle", help="CA bundle file for TLS verification")
    group.add_argument("--client-cert", help="client certificate file (PEM)")
    group.add_argument("--client-key", help="client certificate key file (PEM)")
    group.add_argument("--proxy", help="proxy URL")
    return parent


CONNECTION_FLAGS = (
    "profile",
    "region",
    "base_url",
    "api_key",
    "timeout",
    "ca_bundle",
    "client_cert",
    "client_key",
    "proxy",
)


def settings_from(args: argparse.Namespace) -> Settings:
    flags = {name: getattr(args, name, None) for name in CONNECTION_FLAGS}
    if getattr(args, "subscriber_flag", None):
        flags["subscriber"] = args.subscriber_flag
    return resolve(flags)
