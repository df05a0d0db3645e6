"""`inboxdesk history` and `inboxdesk undo`: the journal of every write, and taking any
entry back as a new write."""

from __future__ import annotations

import asyncio
import sys

import click

from inboxdesk.cli.api_commands import (
    DECLINED,
    PARTIAL,
    _emit,
    _keys_call,
    json_option,
    say_skipped,
    write_out,
)
from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.integration_commands import NOT_CONFIRMED, _environment_named
from inboxdesk.cli.prompts import ask, go_ahead
from inboxdesk.cli.tables import table
from inboxdesk.cli.when import since as parse_since
from inboxdesk.cli.writing import file_under_environment, outbox_for, refuse_if_read_only
from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.client.retry import NO_RETRY
from inboxdesk.config import ConfigError, Settings
from inboxdesk.config.connect import Clients, client_for
from inboxdesk.config.keys import HeldKey, Keyring
from inboxdesk.paths import writes_path
from inboxdesk.scope import Scope, load_scope, matches
from inboxdesk.text import plural, safe
from inboxdesk.timeinput import HELP
from inboxdesk.writes import (
    Dropped,
    Event,
    Failed,
    Kind,
    Outbox,
    Partial,
    Queued,
    Refused,
    Where,
    report,
)
from inboxdesk.writes.kinds import describe, kind_of
from inboxdesk.writes.store import Entry, JournalError, WriteStore

OPERATIONS = click.Choice([k.value for k in Kind])
# The shortest id prefix `undo` takes: shorter ones too easily name another write.
MIN_PREFIX = 4


def _journal(settings: Settings) -> WriteStore:
    try:
        return WriteStore(writes_path(), settings.history_days, settings.history_entries)
    except (OSError, JournalError) as exc:
        raise click.ClickException(f"the journal of writes cannot be read: {exc}") from None


@click.command()
@click.option("--subscriber", "subscriber_id", metavar="SID", help="this subscriber's only")
@click.option("--since", metavar="WHEN", help=f"made since then: {HELP}")
@click.option("--operation", type=OPERATIONS, help="this kind of write only")
@click.option("--export", type=click.Choice(["csv", "json"]), help="every field, for an audit")
@json_option
@connection_options
def history(
    flags: Flags,
    subscriber_id: str | None,
    since: str | None,
    operation: str | None,
    export: str | None,
    as_json: bool,
) -> int:
    """The writes inboxdesk made with this profile on this service, newest first."""
    if export and as_json:
        raise click.UsageError("--json and --export cannot be combined: --export json is JSON.")
    settings = settings_from(flags)
    store = _journal(settings)
    try:
        found = store.entries(
            Where.of(settings.profile, settings.base_url), subscriber_id, parse_since(since)
        )
    finally:
        say_skipped(store)
        store.close()
    if operation:
        found = [e for e in found if e.write.kind.value == operation]
    if settings.environment:
        found = _in_environment(settings, found)
    if export == "csv":
        write_out(report.to_csv(found))
        return 0
    if export == "json" or as_json:
        _emit([report.as_json(e) for e in found])
        return 0
    if not found:
        print("No writes recorded yet.", file=sys.stderr)
        return 0
    names = _environment_names(settings) if any(e.where.environment for e in found) else Scope()
    rows = [
        (
            e.write.id[: report.SHORT_ID],
            e.write.made_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            names.name(e.where.environment) if e.where.environment else "?",
            e.write.kind.value,
            e.write.label or e.write.target,  # an integration's name, where known
            describe(e.write),
            e.outcome + (" (was queued)" if e.queued and e.outcome != "queued" else ""),
        )
        for e in found
    ]
    print(table(["ID", "MADE", "ENVIRONMENT", "OPERATION", "TARGET", "WHAT", "OUTCOME"], rows))
    return 0


def _in_environment(settings: Settings, found: list[Entry]) -> list[Entry]:
    """The entries of the environment `--environment` names: a key's held, else one the
    service lists (the journal is local: nothing is refused for want of a key)."""
    wanted = str(settings.environment)
    held = Keyring(settings).named(wanted)
    if held is not None and held.environment_id:
        ids = {held.environment_id}
    else:
        ids = {e.id for e in _environment_names(settings).environments if matches(e, wanted)}
    return [e for e in found if e.where.environment in ids]


def _environment_names(settings: Settings) -> Scope:
    """The environments' names, as the app shows them: one request, not retried; the
    journal is local, so a service away or refusing leaves the ids (Scope.name)."""

    async def listed() -> Scope:
        async with client_for(settings, NO_RETRY) as client:
            return Scope(await client.list_environments())

    try:
        return asyncio.run(listed())
    except (InboxdeskError, ConfigError):
        return Scope()


@click.command()
@click.argument("entry_id", metavar="ENTRY_ID")
@click.option("-y", "--yes", is_flag=True, help="do not ask, even if things changed since")
@json_option
@connection_options
def undo(flags: Flags, entry_id: str, yes: bool, as_json: bool) -> int:
    """Take a write of the history back, as a new write (its id, or its first 4 letters
    or more). A switch is switched back with its environment's key; --environment must
    name it.

    An undo of more than one message, or of a set-primary, asks first unless --yes.
    """
    environment = flags.get("environment")
    if len(entry_id.strip()) < MIN_PREFIX:
        print(
            f"inboxdesk: give at least {MIN_PREFIX} letters of the write's id (one or two "
            "could name another write than meant); `inboxdesk history` lists them.",
            file=sys.stderr,
        )
        return 2

    async def work(clients: Clients, held: HeldKey) -> int:
        client = clients.of(held)
        outbox = outbox_for(clients.settings, client, held, clients)
        try:
            return await undoing(clients.keyring, client, outbox)
        finally:
            say_skipped(outbox.store)
            outbox.store.close()

    async def undoing(keyring: Keyring, client: InboxClient, outbox: Outbox) -> int:
        matches = outbox.store.find(entry_id)
        if len(matches) != 1:
            why = "no write has" if not matches else f"{len(matches)} writes have"
            print(
                f"inboxdesk: {why} an id starting {safe(entry_id, newlines=False)!r}; "
                "`inboxdesk history` lists them.",
                file=sys.stderr,
            )
            return 2
        entry = matches[0]
        if entry.where.profile != outbox.where.profile or entry.where.host != outbox.where.host:
            print(
                f"inboxdesk: that write was made with profile {safe(entry.where.profile)!r} on "
                f"{safe(entry.where.host)}; undo it with that profile.",
                file=sys.stderr,
            )
            return 2
        refused = _unchanged(entry)
        if refused is None:
            await file_under_environment(outbox)
            if _elsewhere(keyring, entry, outbox.where.environment):
                return 2  # said with the environment's name, before the outbox's refusal
            refused = outbox.refusal(entry.write)
        if refused is not None:
            print(f"inboxdesk: {safe(refused)}", file=sys.stderr)
            return 2
        switch = kind_of(entry.write).with_environment_key
        if switch and not await _environment_confirmed(keyring, client, entry, environment):
            return NOT_CONFIRMED
        if not _asked(entry, outbox, yes):
            print("Nothing changed.", file=sys.stderr)
            return DECLINED
        event = await outbox.undo(entry.write)
        where = None
        if switch:  # a switch back names its environment
            where = (await load_scope(client)).name(entry.where.environment or None)
        return _said(event, as_json, where)

    return _keys_call(flags, work, names_target=True, writes=True)


def _elsewhere(keyring: Keyring, entry: Entry, here: str) -> bool:
    """Whether the write was made in another environment than the key's, and its undo
    must not go with this key (said why). An undo acts where the write did: with that
    environment's key and read-only setting (a ConfigError when it is read-only), so a
    mark made in one environment is never undone with another's key."""
    acted = entry.where.environment
    if not acted or not here or acted == here:
        return False
    there = keyring.of(acted)
    if there is not None:
        refuse_if_read_only(keyring.settings, there)
    if kind_of(entry.write).with_environment_key:
        return False  # switched back with its environment's key (Outbox.client_of)
    name = there.label if there is not None else safe(acted, newlines=False)
    current = keyring.of(here)
    this = current.label if current is not None else "the key's environment"
    print(
        f"inboxdesk: that write was made in {name}, not in {this}: pass "
        f"--environment {name!r} to undo it with that environment's key. Nothing was sent.",
        file=sys.stderr,
    )
    return True


async def _environment_confirmed(
    keyring: Keyring, client: InboxClient, entry: Entry, environment: str | None
) -> bool:
    """A switch back goes with its environment's key where one is held (`--environment`,
    if given, must name that environment). Without it, as on an older deployment, it is
    confirmed as the switch was: `--environment` naming it, or its name typed on a
    terminal. Says why when not."""
    acted = entry.where.environment or None
    scope = await load_scope(client)
    name = scope.name(acted)
    if keyring.of(acted) is not None:
        if environment is None or keyring.of(acted) is keyring.named(environment):
            return True
        print(
            f"inboxdesk: that switch was in {name}, not in "
            f"{safe(environment, newlines=False)}: nothing was sent.",
            file=sys.stderr,
        )
        return False
    if scope.is_own(acted):
        return True
    if environment is not None:
        named = _environment_named(scope, environment)
        if named is not None and named != acted:
            print(
                f"inboxdesk: that switch was in {name}, not in "
                f"{safe(environment, newlines=False)}: nothing changed.",
                file=sys.stderr,
            )
        return named is not None and named == acted
    if not sys.stdin.isatty():
        print(
            f"inboxdesk: that switch was in {name}, not the key's own environment: pass "
            f"--environment {name!r} to undo it. Nothing changed.",
            file=sys.stderr,
        )
        return False
    typed = ask(f"Type the environment's name ({name}) to undo that switch:")
    found = scope.get(acted)
    if typed is not None and (
        scope.find(typed) is found if found is not None else typed.strip() == acted
    ):
        return True
    print("inboxdesk: that is not the environment's name. Nothing changed.", file=sys.stderr)
    return False


def _unchanged(entry: Entry) -> str | None:
    """Why a write that changed nothing has nothing to undo: the service refused it (a
    4xx answer), or it never reached the service. A timeout or a 5xx may have been
    applied all the same: that one is undone like any other."""
    status = entry.detail.get("status")
    refused = isinstance(status, int) and 400 <= status < 500
    unreached = entry.detail.get("kind") in ("ConnectionFailed", "NameNotResolved")
    if entry.outcome == "failed" and (refused or unreached):
        why = f"the service answered {status}" if refused else "it never reached the service"
        return f"Nothing to undo: that write failed ({why}) and changed nothing."
    if entry.outcome == "dropped":
        return "Nothing to undo: that write was dropped before it was sent."
    return None


def _asked(entry: Entry, outbox: Outbox, yes: bool) -> bool:
    """Undo asks first, every time (decision 113), saying what else it does: later
    writes that touched the same things, how many messages it changes, a new switch
    (Outbox.undo_notes)."""
    notes = outbox.undo_notes(entry)
    many = kind_of(entry.write).messages_changed(entry.write)
    if many is not None and many > 1:
        notes.append(f"This undo changes {plural(many, 'message')}.")
    # The notes go in the question, in one line where there is no terminal to ask.
    said = "".join(f"{safe(n, newlines=False)} " for n in notes)
    return go_ahead(f"{said}Undo {safe(describe(entry.write))}?", yes)


def _said(event: Event, as_json: bool, where: str | None = None) -> int:
    if isinstance(event, Refused):
        print(f"inboxdesk: {safe(event.reason)}", file=sys.stderr)
        return 2
    if isinstance(event, Dropped):
        print("It had not been sent yet: dropped from the queue.")
        return 0
    if isinstance(event, Failed):
        raise event.error
    assert not isinstance(event, Queued)  # the command line's outbox has no queue
    write = event.write
    if as_json:
        _emit({"id": write.id, "what": describe(write), "undoes": write.undoes})
    else:
        done = safe(describe(write)) + (f" in {safe(where, newlines=False)}" if where else "")
        print(f"Done: {done} (history id {write.id[: report.SHORT_ID]}).")
        if note := kind_of(write).done_note(write):
            print(safe(note))
        if name := (event.result.values or {}).get("integrationName"):
            print(f"Restored under the integration {safe(str(name), newlines=False)}.")
    return PARTIAL if isinstance(event, Partial) else 0


COMMANDS = [history, undo]
