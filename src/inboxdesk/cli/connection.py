"""Options shared by every command that talks to the service, and resolving them.

The options are made from the settings' own fields (config.models.Connection, and the
profile): each connection setting is declared once, there."""

from __future__ import annotations

import enum
import functools
import sys
import types
from collections.abc import Callable
from typing import Any, Union, get_args, get_origin

import click
from pydantic.fields import FieldInfo

from inboxdesk.config import CONNECTION_FIELDS, Settings, resolve
from inboxdesk.models import Region

# The option names `resolve` reads as flags (click's parameter names).
CONNECTION = ("profile", *CONNECTION_FIELDS, "read_only")
Flags = dict[str, Any]
REGION_CHOICE = click.Choice([r.value for r in Region])


def option_type(field: FieldInfo) -> click.ParamType[Any]:
    """The click type of a setting: its enum's values as choices, else float, int or text."""
    kind = field.annotation
    if get_origin(kind) in (Union, types.UnionType):
        kind = next(arg for arg in get_args(kind) if arg is not type(None))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return click.Choice([member.value for member in kind])
    if kind in (float, int):
        return click.FLOAT if kind is float else click.INT
    return click.STRING


def setting_option(name: str, help: str | None = None) -> Callable[[Any], Any]:
    """`--NAME` for the setting `name`, typed and described by its field."""
    field = Settings.model_fields[name]
    if field.annotation is bool:  # a flag; unset (None) leaves it to the profile
        return click.option(
            f"--{name.replace('_', '-')}", name, is_flag=True, default=None, help=field.description
        )
    return click.option(
        f"--{name.replace('_', '-')}",
        name,
        type=option_type(field),
        help=help or field.description,
    )


def connection_options(command: Callable[..., int]) -> Callable[..., int]:
    """Add --profile, --region, --base-url and the rest; the command gets them as `flags`."""

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> int:
        flags = {name: kwargs.pop(name) for name in CONNECTION}
        return command(flags, **kwargs)

    for name in reversed(CONNECTION):
        wrapper = setting_option(name)(wrapper)
    return wrapper


def settings_from(flags: Flags, subscriber: str | None = None) -> Settings:
    if subscriber:
        flags = {**flags, "subscriber": subscriber}
    settings = resolve(flags)
    from inboxdesk.config.connect import plain_http_warning

    warning = plain_http_warning(settings)
    if warning is not None and settings.api_key:
        print(f"inboxdesk: warning: {warning}", file=sys.stderr)
    return settings
