"""`inboxdesk message X`: the messages a customer's ticket names, by transactionId or
id, through the lookup the app's go-to uses (lookup.py)."""

from __future__ import annotations

import sys

import click

from inboxdesk.cli.api_commands import (
    _call,
    _emit,
    _print_ids,
    ids_option,
    json_option,
)
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.message_json import message_items, raw_option
from inboxdesk.cli.tables import table
from inboxdesk.client import InboxClient
from inboxdesk.core.inbox.lookup import find
from inboxdesk.core.inbox.unknown import check_known
from inboxdesk.models import Message
from inboxdesk.text import clip, plural, safe

# Exit status when nothing matched: as for any answer of the service that says no.
NOT_FOUND = 1


def _rows(messages: list[Message]) -> list[tuple[object, ...]]:
    return [
        (
            m.id,
            m.subscriber.subscriber_id if m.subscriber else m.subscriber_internal_id,
            m.channel,
            "read" if m.read else "unread",
            "seen" if m.seen else "unseen",
            (m.created_at or "")[:16].replace("T", " "),
            m.status,
            m.transaction_id,
            clip(m.heading, 40),
        )
        for m in messages
    ]


class _Progress:
    """How far an id scan got, on stderr: one line redrawn on a terminal, else a line
    every ten pages (a log stays short however long the scan)."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.drawn = False

    def __call__(self, searched: int, pages: int | None) -> None:
        of = f" of {pages:,}" if pages is not None else ""
        line = f"searched {searched:,}{of} pages of messages for that id"
        if self.tty:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
            self.drawn = True
        elif searched == 1 or searched % 10 == 0 or searched == pages:
            print(line, file=sys.stderr)

    def done(self) -> None:
        if self.drawn:
            print(file=sys.stderr)


@click.command("message")
@click.argument("key", metavar="ID_OR_TRANSACTION_ID")
@click.option(
    "--subscriber", "subscriber_id", metavar="SID", help="look among this subscriber's only"
)
@json_option
@raw_option
@ids_option
@connection_options
def message(
    flags: Flags, key: str, subscriber_id: str | None, as_json: bool, ids_only: bool
) -> int:
    """Every message a transactionId names (tried first), or the message with that id,
    among a subscriber's messages or the environment's (up to max_pages pages)."""

    async def work(client: InboxClient) -> int:
        progress = _Progress()
        try:
            found = await find(client, key, subscriber_id, progress=progress)
        finally:
            progress.done()
        if found is None:
            if subscriber_id:
                await check_known(client, subscriber_id)
            among = f"subscriber {subscriber_id}'s" if subscriber_id else "this environment's"
            print(
                safe(
                    f"inboxdesk: no message has the transactionId or id '{key}' among "
                    f"{among} messages.",
                    newlines=False,
                ),
                file=sys.stderr,
            )
            return NOT_FOUND
        if as_json:
            _emit(message_items(found.messages))
        elif ids_only:
            _print_ids([m.id for m in found.messages])
        else:
            headers = ["ID", "SUBSCRIBER", "CHANNEL", "READ", "SEEN", "CREATED", "STATUS"]
            print(table([*headers, "TRANSACTION", "TITLE"], _rows(found.messages)))
            print(f"({plural(len(found.messages), 'message')}, by {found.by})", file=sys.stderr)
        return 0

    return _call(flags, work, subscriber_id)


COMMANDS = [message]
