"""`inboxdesk preferences` and `set-preference`: did a subscriber turn a channel off, and
turning it back on, through the outbox and into history like every write."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from inboxdesk.cli.api_commands import _call, _emit, _write_call, json_option
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.tables import table
from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.core.preferences import (
    CONTEXT_NOTE,
    PreferenceTable,
    Row,
    changed_on,
    check_toggle,
    context_words,
    differences,
    load_table,
    parse_context,
    rows_for,
)
from inboxdesk.schedule import OFF, ScheduleError, build, is_on
from inboxdesk.schedule import lines as schedule_lines
from inboxdesk.text import safe

# `preferences` (a read) imports neither the outbox nor its journal: each change imports
# them as it runs (api_commands says why).
if TYPE_CHECKING:
    from inboxdesk.writes import Outbox

# Exit status of a change refused before it is sent (bad input): nothing changed.
BAD_INPUT = 2
# Sent, but the service's answer does not show the change.
NOT_SHOWN = 1


def _as_json(row: Row) -> dict[str, Any]:
    return {
        "workflow": None
        if row.is_global
        else {"identifier": row.workflow, "slug": row.slug, "name": row.name},
        "critical": row.critical,
        "channels": {c: cell.on for c, cell in row.cells.items()},
        "sources": {c: "subscriber" if cell.chosen else "default" for c, cell in row.cells.items()},
        "updatedAt": row.updated_at,
    }


def _print_rows(prefs: PreferenceTable, rows: list[Row]) -> None:
    channels = prefs.channels
    lines = []
    for row in rows:
        name = row.name + (" (critical, locked)" if row.critical else "")
        cells = []
        for channel in channels:
            cell = row.cells.get(channel)
            if cell is None:
                cells.append("-")
            else:
                # `*` marks the subscriber's own choice; the rest is the default.
                # `·`: sent as null, not set (neither on nor off).
                cells.append(cell.mark + ("*" if cell.chosen else ""))
        # When the subscriber's choices for the workflow last changed (decision 126).
        lines.append([name, *cells, changed_on(row.updated_at) or "-"])
    print(table(["WORKFLOW", *(c.upper() for c in channels), "CHANGED"], lines))
    print("* the subscriber's own choice; otherwise the workflow's default.")
    if any(cell.on is None for row in rows for cell in row.cells.values()):
        print("· not set: the service sends null there, neither on nor off.")


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--workflow", metavar="WORKFLOW", help="one workflow: identifier, slug or name")
@click.option(
    "--context",
    "contexts",
    multiple=True,
    metavar="TYPE:ID",
    help="the records of this context (repeat for a context of several keys)",
)
@json_option
@connection_options
def preferences(
    flags: Flags, subscriber_id: str, workflow: str | None, contexts: tuple[str, ...], as_json: bool
) -> int:
    """A subscriber's preferences: global, then each workflow, one column per channel,
    where each value comes from, and the critical workflows they cannot change. With
    --context, that context's records, and where they differ from the no-context ones."""
    context = parse_context(contexts)
    if isinstance(context, str):
        print(f"inboxdesk: {context} Nothing was read.", file=sys.stderr)
        return BAD_INPUT

    async def work(client: InboxClient) -> int:
        prefs = await load_table(client, subscriber_id, context)
        for said in prefs.said:
            print(f"inboxdesk: {safe(said, newlines=False)}", file=sys.stderr)
        rows = rows_for(prefs, workflow)
        if isinstance(rows, str):
            print(f"inboxdesk: {rows}", file=sys.stderr)
            return BAD_INPUT
        if as_json:
            _emit([_as_json(r) | ({"context": list(context)} if context else {}) for r in rows])
        else:
            if context:
                print(f"Context: {safe(context_words(context), newlines=False)} ({CONTEXT_NOTE}).")
            _print_rows(prefs, list(rows))
            if context:
                plain = await load_table(client, subscriber_id)
                kept = {r.workflow for r in rows}
                shown = prefs.with_rows([r for r in prefs.rows if r.workflow in kept])
                for line in differences(shown, plain) or ["the same as without a context."]:
                    print(safe(f"Beside no context: {line}", newlines=False))
            if workflow is None:
                for line in schedule_lines(prefs.schedule, await _timezone(client, prefs)):
                    print(line)
        return 0

    return _call(flags, work, subscriber_id)


async def _timezone(client: InboxClient, prefs: PreferenceTable) -> str | None:
    """The subscriber's timezone, read only where quiet hours are on; a read that fails
    costs the timezone (said, hours in UTC), never the preferences already printed."""
    if not is_on(prefs.schedule):
        return None
    try:
        return (await client.get_subscriber(prefs.subscriber_id)).timezone
    except InboxdeskError as exc:
        print(
            f"inboxdesk: the subscriber's timezone could not be read "
            f"({safe(exc.message, newlines=False)}): the hours below are in UTC.",
            file=sys.stderr,
        )
        return None


@click.command("set-schedule")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--off", "turn_off", is_flag=True, help="turn quiet hours off: every hour is open")
@click.option("--day", "days", multiple=True, metavar="DAYS", help="mon-fri, sat, mon,wed …")
@click.option(
    "--hours",
    "hours",
    multiple=True,
    metavar="HH:MM-HH:MM",
    help="the open hours of the --day before",
)
@json_option
@connection_options
def set_schedule(
    flags: Flags,
    subscriber_id: str,
    turn_off: bool,
    days: tuple[str, ...],
    hours: tuple[str, ...],
    as_json: bool,
) -> int:
    """Set a subscriber's quiet hours: the open hours of each weekday, in the
    subscriber's timezone (each --day with one --hours; days not given are closed), or
    --off. In-app and critical workflows are never paused; `inboxdesk undo` takes it back."""
    try:
        if turn_off and (days or hours):
            raise ScheduleError("give --off alone, or --day with --hours: not both")
        if len(days) != len(hours):
            raise ScheduleError("give each --day one --hours (--day mon-fri --hours 09:00-17:30)")
        wanted = OFF if turn_off else build(list(zip(days, hours, strict=True)))
    except ScheduleError as exc:
        print(f"inboxdesk: {safe(str(exc), newlines=False)} Nothing changed.", file=sys.stderr)
        return BAD_INPUT

    async def work(client: InboxClient, outbox: Outbox) -> int:
        from inboxdesk.cli.writing import send
        from inboxdesk.writes import describe
        from inboxdesk.writes.kinds.preference import FUTURE_ONLY
        from inboxdesk.writes.kinds.schedule import schedule_write
        from inboxdesk.writes.kinds.schedule import words as schedule_words

        prefs = await load_table(client, subscriber_id)
        write = schedule_write(subscriber_id, wanted, prefs.schedule)
        event = await send(outbox, write)
        now = (event.result.values or {}).get("schedule")
        if as_json:
            _emit({"id": write.id, "what": describe(write), "schedule": now})
            return 0
        print(
            f"{safe(subscriber_id, newlines=False)}: quiet hours {schedule_words(prefs.schedule)}"
            f" → {schedule_words(now)}."
        )
        print(f"{FUTURE_ONLY} Undo: inboxdesk undo {write.id[:10]}")
        return 0

    return _write_call(flags, work, subscriber_id)


@click.command("set-preference")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--channel", required=True, metavar="CHANNEL", help="email, sms, in_app, …")
@click.option("--on", "turn_on", is_flag=True, help="turn the channel on")
@click.option("--off", "turn_off", is_flag=True, help="turn the channel off")
@click.option(
    "--workflow", metavar="WORKFLOW", help="one workflow (identifier, slug or name); else global"
)
@click.option(
    "--context",
    "contexts",
    multiple=True,
    metavar="TYPE:ID",
    help="change this context's records (repeat for a context of several keys)",
)
@json_option
@connection_options
def set_preference(
    flags: Flags,
    subscriber_id: str,
    channel: str,
    turn_on: bool,
    turn_off: bool,
    workflow: str | None,
    contexts: tuple[str, ...],
    as_json: bool,
) -> int:
    """Turn a channel on or off for a subscriber, for one workflow or globally, in one
    context's records with --context. It changes future notifications only; `inboxdesk
    undo` takes it back."""
    on = None if turn_on == turn_off else turn_on
    context = parse_context(contexts)
    if isinstance(context, str):
        print(f"inboxdesk: {context} Nothing changed.", file=sys.stderr)
        return BAD_INPUT

    async def work(client: InboxClient, outbox: Outbox) -> int:
        from inboxdesk.cli.writing import send
        from inboxdesk.writes import describe
        from inboxdesk.writes.kinds.preference import FUTURE_ONLY, preference_write

        prefs = await load_table(client, subscriber_id, context)
        toggle = check_toggle(prefs, workflow, channel, on)
        if isinstance(toggle, str):
            print(f"inboxdesk: {toggle} Nothing changed.", file=sys.stderr)
            return BAD_INPUT
        row = prefs.row(toggle.workflow)
        assert row is not None
        cell = row.cells[toggle.channel]
        write = preference_write(subscriber_id, toggle, cell.before, context=context)
        event = await send(outbox, write)
        answer = event.result.preferences
        after = None
        if answer is not None:
            from inboxdesk.core.preferences import table_of

            after = table_of(subscriber_id, answer, None).row(toggle.workflow)
        now = after.cells.get(toggle.channel) if after is not None else None
        # The answer is the listing after the change: one that does not show it is not
        # taken as done (as set-primary checks its answer).
        unshown = now is None or now.on != toggle.on
        if unshown:
            shows = (
                "does not show the channel"
                if now is None
                else (f"shows it {'on' if now.on else 'off'}")
            )
            print(
                f"inboxdesk: the service's answer {shows}: the change may not have been "
                f"made. Check with `inboxdesk preferences {safe(subscriber_id, newlines=False)}`.",
                file=sys.stderr,
            )
        if as_json:
            shown = _as_json(after) if after is not None else None
            _emit({"id": write.id, "what": describe(write), "preference": shown})
            return NOT_SHOWN if unshown else 0
        state = now.words(toggle.workflow) if now is not None else "not returned"
        within = f" in context {context_words(context)}" if context else ""
        print(
            f"{safe(subscriber_id, newlines=False)}: {toggle.channel} for "
            f"{safe(toggle.where + within, newlines=False)}: "
            f"{cell.words(toggle.workflow)} → {state}."
        )
        if context:
            print(f"Context records: {CONTEXT_NOTE}.")
        print(f"{FUTURE_ONLY} Undo: inboxdesk undo {write.id[:10]}")
        return NOT_SHOWN if unshown else 0

    return _write_call(flags, work, subscriber_id)


COMMANDS = [preferences, set_preference, set_schedule]
