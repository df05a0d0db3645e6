"""`inboxdesk send`: trigger a workflow for one subscriber, once.

A write like any other (journalled, refused when read-only), never queued: its
transactionId is made here and journalled before the first try, so a retry can ask
whether the first one arrived instead of sending twice.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from inboxdesk.cli.api_commands import DECLINED, _emit, _write_call, json_option
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.prompts import NeedsYes, go_ahead
from inboxdesk.cli.writing import send as send_write
from inboxdesk.client import InboxClient
from inboxdesk.client.triggers import new_transaction_id
from inboxdesk.config import ConfigError
from inboxdesk.text import safe
from inboxdesk.writes import Kind, Outbox, Step, Write

# Exit status of a send that would ask but has no terminal to ask on.
NOT_CONFIRMED = 2


def read_payload(text: str | None) -> dict[str, Any] | None:
    """`--payload`: a JSON object, inline or `@FILE`; anything else is a usage error."""
    if text is None:
        return None
    source = "--payload"
    if text.startswith("@"):
        path = Path(text[1:])
        source = f"--payload file {safe(str(path), newlines=False)}"
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{source} cannot be read: {exc.__class__.__name__}.") from None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ConfigError(f"{source} is not JSON: {exc}.") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{source} must be a JSON object.")
    return value


def confirmed(yes: bool, question: str) -> bool | None:
    """Whether to go on, by the one confirmation rule (prompts.go_ahead): `--yes`, else
    the terminal's answer; None when there is no terminal to ask (the caller refuses,
    naming `--yes`, in its own words)."""
    try:
        return go_ahead(question, yes)
    except NeedsYes:
        return None


@click.command("send")
@click.argument("workflow", metavar="WORKFLOW")
@click.argument("subscriber_id", metavar="SUBSCRIBER")
@click.option("--payload", "payload_text", metavar="JSON|@FILE", help="the payload: JSON or @file")
@click.option(
    "--transaction-id",
    "transaction_id",
    metavar="T",
    help="the transactionId to send (default: a new txn_ id)",
)
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@json_option
@connection_options
def send(
    flags: Flags,
    workflow: str,
    subscriber_id: str,
    payload_text: str | None,
    transaction_id: str | None,
    yes: bool,
    as_json: bool,
) -> int:
    """Trigger WORKFLOW (its trigger identifier) for SUBSCRIBER, once."""
    payload = read_payload(payload_text)
    transaction = transaction_id or new_transaction_id()
    what = f"{safe(workflow, newlines=False)} to {safe(subscriber_id, newlines=False)}"
    go = confirmed(yes, f"Send {what} now? It cannot be taken back")
    if go is None:
        print(
            f"inboxdesk: send asks first; with no terminal to ask, pass --yes to send {what}.",
            file=sys.stderr,
        )
        return NOT_CONFIRMED
    if not go:
        print("Nothing was sent.", file=sys.stderr)
        return DECLINED

    async def work(client: InboxClient, outbox: Outbox) -> int:
        write = Write(Kind.SEND, subscriber_id, (Step(workflow, (transaction,)),), payload=payload)
        answer = (await send_write(outbox, write)).result.trigger
        assert answer is not None  # a sent send always carries the answer
        if as_json:
            _emit(
                {
                    "acknowledged": answer.acknowledged,
                    "status": answer.status,
                    "transactionId": answer.transaction_id,
                }
            )
        else:
            print(f"transactionId {safe(answer.transaction_id, newlines=False)}")
            print(f"status {safe(answer.status, newlines=False)}: {answer.words}")
        return 0 if answer.queued else 1

    return _write_call(flags, work)


COMMANDS = [send]
