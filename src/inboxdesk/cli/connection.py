"""Options shared by every command that talks to the service, and resolving them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from inboxdesk.config import Settings, resolve
from inboxdesk.models import Region

# The option names `resolve` reads as flags (click's parameter names).
CONNECTION = (
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
Flags = dict[str, Any]
REGION_CHOICE = click.Choice([r.value for r in Region])

_OPTIONS = [
    click.option("--profile", help="profile from the config file (INBOXDESK_PROFILE)"),
    click.option(
        "--region",
        type=REGION_CHOICE,
        help="production region or the local service",
    ),
    click.option("--base-url", help="service base URL, e.g. https://api.novu.co"),
    click.option(
        "--api-key",
        help="API key; prefer NOVU_SECRET_KEY or a profile, "
        "since arguments are visible to other users of this machine",
    ),
    click.option("--timeout", type=float, help="seconds to wait for each answer"),
    click.option("--ca-bundle", help="CA bundle file for TLS verification"),
    click.option("--client-cert", help="client certificate file (PEM)"),
    click.option("--client-key", help="client certificate key file (PEM)"),
    click.option("--proxy", help="proxy URL"),
]


def connection_options(command: Callable[..., int]) -> Callable[..., int]:
    """Add --profile, --region, --base-url and the rest; the command gets them as `flags`."""

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> int:
        flags = {name: kwargs.pop(name) for name in CONNECTION}
        return command(flags, **kwargs)

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


def settings_from(flags: Flags, subscriber: str | None = None) -> Settings:
    if subscriber:
        flags = {**flags, "subscriber": subscriber}
    return resolve(flags)
