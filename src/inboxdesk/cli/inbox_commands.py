"""`inboxdesk archive`, `unarchive`, `snooze` and `unsnooze`: the v2 inbox's actions on
one or many notifications (ids, or - for stdin), through the outbox like every write."""

from __future__ import annotations

import sys
from datetime import datetime

import click

from inboxdesk.cli.api_commands import (
    DECLINED,
    PARTIAL,
    _emit,
    _ids,
    _write_call,
    json_option,
)
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.message_json import message_items, raw_option
from inboxdesk.cli.prompts import go_ahead
from inboxdesk.cli.writing import send
from inboxdesk.client import InboxClient
from inboxdesk.core.inbox.archive_all import plan_archive_all
from inboxdesk.core.inbox.plans import InboxPlan
from inboxdesk.core.inbox.snooze import AHEAD, MARGIN, snooze_end
from inboxdesk.core.inbox.unknown import check_known
from inboxdesk.models.inbox import InboxAction
from inboxdesk.text import plural, safe
from inboxdesk.timeinput import HELP, TimeInputError, local_now
from inboxdesk.writes import Outbox, Partial, describe

# Exit status when no notification at all was updated: a failure, not a partial one.
FAILED = 1


def _act(
    flags: Flags, subscriber_id: str, action: str, ids: list[str], until: str | None, as_json: bool
) -> int:
    if not ids:
        print(
            "inboxdesk: no notification ids given (pass ids, or - to read them from stdin).",
            file=sys.stderr,
        )
        return 2

    plan = InboxPlan(subscriber_id, action, tuple(ids), until=until)
    # Warned, not asked, as mark-as warns: the ids may come from a pipe.
    if plan.warning:
        print(f"inboxdesk: {plan.warning}", file=sys.stderr)

    async def work(client: InboxClient, outbox: Outbox) -> int:
        event = await send(outbox, plan.write())
        result = event.result
        if result.not_updated and not result.notifications:
            await check_known(client, subscriber_id)  # none updated: is it the subscriber?
        if as_json:
            _emit(
                message_items(result.notifications),
                notUpdated=list(result.not_updated),
                # Lists both: every id not updated here is one whose request failed.
                failed=list(result.not_updated) if isinstance(event, Partial) else [],
            )
        else:
            # A snooze says when it ends, in local time with its zone.
            ends = (
                f" until {datetime.fromisoformat(until).astimezone().strftime('%Y-%m-%d %H:%M %Z')}"
                if until and result.notifications
                else ""
            )
            print(
                f"{InboxAction(action).done} "
                f"{plural(len(result.notifications), 'notification')}{ends}."
            )
        if result.not_updated:
            why = f": {event.error.message}" if isinstance(event, Partial) and event.error else ""
            print(
                f"Not updated ({len(result.not_updated)}{safe(why, newlines=False)}): "
                + safe(" ".join(result.not_updated), newlines=False),
                file=sys.stderr,
            )
            return PARTIAL if result.notifications else FAILED
        return 0

    return _write_call(flags, work, subscriber_id)


def _action_command(action: str, summary: str) -> click.Command:
    @click.command(action, help=summary)
    @click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
    @click.argument("notification_ids", nargs=-1, required=True, metavar="NOTIFICATION_ID...")
    @json_option
    @raw_option
    @connection_options
    def command(
        flags: Flags, subscriber_id: str, notification_ids: tuple[str, ...], as_json: bool
    ) -> int:
        return _act(flags, subscriber_id, action, _ids(list(notification_ids)), None, as_json)

    return command


archive = _action_command(
    "archive",
    "Archive notifications (off the subscriber's Inbox tab). Exit 3 if some fail, 1 if all do.",
)
unarchive = _action_command(
    "unarchive", "Bring archived notifications back. Exit 3 if some fail, 1 if all do."
)
unsnooze = _action_command(
    "unsnooze", "End notifications' snoozes now. Exit 3 if some fail, 1 if all do."
)


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.argument("notification_ids", nargs=-1, required=True, metavar="NOTIFICATION_ID...")
@click.option("--until", "until", required=True, metavar="WHEN", help=f"the snooze's end: {HELP}")
@json_option
@raw_option
@connection_options
def snooze(
    flags: Flags, subscriber_id: str, notification_ids: tuple[str, ...], until: str, as_json: bool
) -> int:
    """Snooze notifications until a time (a minute to a year ahead). Exit 3 if some fail,
    1 if all do."""
    now = local_now()
    try:
        end = snooze_end(until, now)
    except TimeInputError as exc:
        raise click.BadParameter(str(exc), param_hint="--until") from None
    if end - now == AHEAD + MARGIN:
        print(
            f"inboxdesk: snoozed until {end.strftime('%H:%M:%S')}, a minute and a half ahead, "
            "so that it is still a minute ahead when the service reads it.",
            file=sys.stderr,
        )
    return _act(
        flags, subscriber_id, "snooze", _ids(list(notification_ids)), end.isoformat(), as_json
    )


@click.command("archive-all")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--read", "read", is_flag=True, help="only the messages already read")
@click.option("-y", "--yes", is_flag=True, help="do not ask (needed without a terminal)")
@json_option
@connection_options
def archive_all(flags: Flags, subscriber_id: str, read: bool, yes: bool, as_json: bool) -> int:
    """Archive every message of a subscriber (--read: the read ones), through the v2 bulk
    operation: every channel, new dates, webhooks for the first 100 only, no undo.
    Asks first, with the number, unless --yes (needed without a terminal: exit 2)."""

    async def work(client: InboxClient, outbox: Outbox) -> int:
        plan = await plan_archive_all(client, subscriber_id, read)
        if not go_ahead(plan.question(), yes, plan.details()):
            print("Nothing changed.", file=sys.stderr)
            return DECLINED
        write = plan.write()
        await send(outbox, write)
        if as_json:
            _emit({"operation": write.steps[0].action, "archived": plan.count.value})
        else:
            print(
                f"Done: {describe(write)} of {safe(subscriber_id, newlines=False)}, every channel."
            )
        return 0

    return _write_call(flags, work, subscriber_id)


COMMANDS = [archive, unarchive, snooze, unsnooze, archive_all]
