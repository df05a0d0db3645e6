"""Messages as JSON on the command line: the one item every command prints (items.py),
or with `--raw` each message as the service sent it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from inboxdesk.cli.items import message_item
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.models.message import MessageFields

RAW = "inboxdesk.raw"


def _remember_raw(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta[RAW] = value
    return value


# On the commands that print messages: with --json, each message as the endpoint sent
# it, instead of the one item every command prints (items.py).
raw_option = click.option(
    "--raw",
    is_flag=True,
    expose_value=False,
    callback=_remember_raw,
    help="with --json: each message as the service sent it, not the one item",
)


def message_items(entries: Sequence[InboxNotification | MessageFields]) -> list[dict[str, Any]]:
    """The messages as JSON: the one item (items.py), or with --raw as sent."""
    ctx = click.get_current_context(silent=True)
    raw = bool(ctx is not None and ctx.meta.get(RAW))
    return [e.to_wire() if raw else message_item(e) for e in entries]
