"""`inboxdesk resend` and `inboxdesk cancel`: send a notification again as the
dashboard's Resend does, and cancel a transaction's delayed work (resend.py).

Both are writes like `send`: journalled, refused when read-only, never queued, no undo.
A resend's new transactionId is made here and journalled before the first try, so it
is never sent twice. Each asks first on a terminal; with none to ask, `--yes` is needed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import UTC, datetime

import click

from inboxdesk.cli.api_commands import DECLINED, _emit, _write_call, json_option
from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.delivery_commands import follow_delivery
from inboxdesk.cli.send_command import NOT_CONFIRMED, confirmed
from inboxdesk.cli.writing import send as send_write
from inboxdesk.client import InboxClient
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.resend import cancel_question, cancel_write, plan
from inboxdesk.core.inbox.unknown import check_known
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import safe
from inboxdesk.writes import Outbox
from inboxdesk.writes.kinds.cancel import cancel_words

# Exit status when nothing was found, or the service said no.
NOT_DONE = 1
# Exit status of a usage error: a transactionId of several subscribers without one named.
USAGE = 2


def _say(text: str) -> None:
    print(safe(text), file=sys.stderr)


def _ask(command: str, yes: bool, question: str, what: str) -> int | None:
    """None to go on; else the exit status (no terminal and no `--yes`, or declined)."""
    go = confirmed(yes, safe(question))
    if go is None:
        _say(f"inboxdesk: {command} asks first; with no terminal to ask, pass --yes to {what}.")
        return NOT_CONFIRMED
    if not go:
        _say("Nothing was sent.")
        return DECLINED
    return None


def _subscribers(found: Sequence[ActivityNotification]) -> str:
    return ", ".join(
        n.subscriber.subscriber_id if n.subscriber else "(deleted subscriber)" for n in found
    )


@click.command("resend")
@click.argument("key", metavar="NOTIFICATION_OR_TRANSACTION")
@click.option(
    "--subscriber",
    "subscriber_id",
    metavar="S",
    help="the subscriber's notification, when the transactionId names several",
)
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@click.option(
    "--follow", is_flag=True, help="then follow the new transaction as `delivery --follow` does"
)
@json_option
@connection_options
def resend(
    flags: Flags, key: str, subscriber_id: str | None, yes: bool, follow: bool, as_json: bool
) -> int:
    """Send a notification again, as the dashboard's Resend does: its workflow, to the
    same subscriber, with its payload, context and overrides, under a new transactionId."""
    if follow and as_json:
        raise click.UsageError("--follow prints as it goes: use `delivery --follow --json`.")
    limits = (0.0, 0.0)
    if follow:
        settings = settings_from(flags)
        limits = (settings.follow_grace, settings.follow_limit)

    async def work(client: InboxClient, outbox: Outbox) -> int:
        found = await finding.find(client, key, subscriber_id)
        if not found:
            if subscriber_id:
                await check_known(client, subscriber_id)
            among = f" of subscriber {subscriber_id}" if subscriber_id else ""
            _say(f"inboxdesk: no notification{among} has the id or transactionId '{key}'.")
            return NOT_DONE
        if len(found) > 1:
            _say(
                f"inboxdesk: '{key}' names {len(found)} notifications (subscribers "
                f"{_subscribers(found)}); pass --subscriber to resend one."
            )
            return USAGE
        chosen = plan(found[0], datetime.now(UTC))
        if isinstance(chosen, str):
            _say(f"inboxdesk: {chosen} Nothing was sent.")
            return NOT_DONE
        asked = _ask(
            "resend", yes, chosen.question, f"resend {chosen.workflow} to {chosen.subscriber_id}"
        )
        if asked is not None:
            return asked
        answer = (await send_write(outbox, chosen.write())).result.trigger
        assert answer is not None  # a sent resend always carries the answer
        if as_json:
            _emit(
                {
                    "acknowledged": answer.acknowledged,
                    "status": answer.status,
                    "transactionId": answer.transaction_id,
                    "resentTransactionId": chosen.original,
                }
            )
        else:
            new = safe(answer.transaction_id, newlines=False)
            print(f"transactionId {new}")
            print(f"status {safe(answer.status, newlines=False)}: {answer.words}")
            if answer.queued and not follow:
                print(f"Follow it: inboxdesk delivery {new} --follow", file=sys.stderr)
        if follow and answer.queued:
            return await follow_delivery(
                client, answer.transaction_id, chosen.subscriber_id, as_json, limits
            )
        return 0 if answer.queued else NOT_DONE

    try:
        return _write_call(flags, work)
    except KeyboardInterrupt:
        if not follow:
            raise
        print("inboxdesk: stopped following.", file=sys.stderr)
        return 0


@click.command("cancel")
@click.argument("transaction_id", metavar="TRANSACTION")
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@json_option
@connection_options
def cancel(flags: Flags, transaction_id: str, yes: bool, as_json: bool) -> int:
    """Cancel the work of TRANSACTION still waiting in a delay or a digest, for every
    subscriber it went to (the steps after it too). Exit 1 when nothing was cancelled."""

    async def work(client: InboxClient, outbox: Outbox) -> int:
        found = await finding.by_transaction(client, transaction_id)
        if not found:
            _say(
                f"inboxdesk: no notification has the transactionId '{transaction_id}'; "
                "nothing was cancelled."
            )
            return NOT_DONE
        asked = _ask(
            "cancel",
            yes,
            cancel_question(transaction_id, found),
            f"cancel the delayed work of {transaction_id}",
        )
        if asked is not None:
            return asked
        cancelled = (await send_write(outbox, cancel_write(transaction_id, found))).result.cancelled
        if as_json:
            _emit({"cancelled": bool(cancelled), "notifications": [n.id for n in found]})
        else:
            print(cancel_words(bool(cancelled)))
        return 0 if cancelled else NOT_DONE

    return _write_call(flags, work)


COMMANDS = [resend, cancel]
