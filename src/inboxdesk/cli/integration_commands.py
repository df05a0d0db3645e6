"""The organization's environments and integrations, and set primary across them."""

from __future__ import annotations

import sys

import click

from inboxdesk.cli.api_commands import (
    DECLINED,
    _call,
    _emit,
    _print_ids,
    _write_call,
    ids_option,
    json_option,
)
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.prompts import ask as _ask
from inboxdesk.cli.prompts import confirm as _confirm
from inboxdesk.cli.tables import table
from inboxdesk.cli.writing import send
from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.models import PRIMARY_CHANNELS, Channel, Integration
from inboxdesk.primary import names, plan_primary, switch_failed
from inboxdesk.scope import Scope, load_scope, own_environment_id
from inboxdesk.text import safe
from inboxdesk.writes import Kind, Outbox, Write

# Exit status when a switch needs the environment's name and was not given it.
NOT_CONFIRMED = 2


def _environment_named(scope: Scope, typed: str) -> str | None:
    """The id of the environment `typed` names, or None (with the names it could be)."""
    found = scope.find(typed)
    if found is not None:
        return found.id
    if any(e.id == typed for e in scope.environments) or not scope.environments:
        return typed
    known = ", ".join(safe(e.name, newlines=False) for e in scope.environments)
    print(
        f"inboxdesk: no environment is named {safe(typed, newlines=False)!r}; "
        f"the organization has: {known}.",
        file=sys.stderr,
    )
    return None


@click.command()
@json_option
@ids_option
@connection_options
def environments(flags: Flags, as_json: bool, ids_only: bool) -> int:
    """List the organization's environments (never their API keys)."""

    async def work(client: InboxClient) -> int:
        # Listed directly: a refusal, a redirect or any error is the command's failure
        # (exit 1), never an empty list.
        scope = Scope(await client.list_environments(), await own_environment_id(client))
        if as_json:
            _emit([e.to_wire() for e in scope.environments])
            return 0
        if ids_only:
            _print_ids([e.id for e in scope.environments])
            return 0
        # An id listed twice is one environment: the key's mark goes on its first row.
        listed = [e.id for e in scope.environments]
        rows = [
            (
                e.name,
                e.id,
                e.identifier,
                e.type or "",
                e.slug or "",
                "yes" if scope.is_own(e.id) and listed.index(e.id) == n else "",
            )
            for n, e in enumerate(scope.environments)
        ]
        print(table(["NAME", "ID", "IDENTIFIER", "TYPE", "SLUG", "THIS KEY'S"], rows))
        twice = sorted({i for i in listed if listed.count(i) > 1})
        if twice:
            print(
                "(the service listed "
                + ", ".join(safe(i, newlines=False) for i in twice)
                + " more than once)",
                file=sys.stderr,
            )
        if scope.own_id is None:
            print("(the API key's own environment is unknown)", file=sys.stderr)
        return 0

    return _call(flags, work)


@click.command()
@click.option("--active", is_flag=True, help="active integrations only")
@click.option(
    "--channel", type=click.Choice([c.value for c in Channel]), help="this channel's only"
)
@click.option("--environment", metavar="NAME|ID", help="this environment's only (name, slug or id)")
@json_option
@ids_option
@connection_options
def integrations(
    flags: Flags,
    active: bool,
    channel: str | None,
    environment: str | None,
    as_json: bool,
    ids_only: bool,
) -> int:
    """List the organization's integrations, every environment's, the key's own first."""

    async def work(client: InboxClient) -> int:
        items = await client.list_integrations(active_only=active)
        scope = await load_scope(client)
        if channel:
            items = [i for i in items if i.channel == channel]
        if environment is not None:
            wanted = _environment_named(scope, environment)
            if wanted is None:
                return 2
            items = [i for i in items if i.environment_id == wanted]
        if as_json:
            _emit([i.masked() for i in items])
            return 0
        if ids_only:
            _print_ids([i.id for i in items])
            return 0
        # The table groups them by environment, the key's own first; JSON keeps the order.
        order = scope.order(i.environment_id for i in items)
        items.sort(key=lambda i: order.index(i.environment_id))
        rows = [
            (
                scope.name(i.environment_id) + (" *" if scope.is_own(i.environment_id) else ""),
                i.id,
                i.channel or i.kind or "",
                i.name,
                i.provider_id,
                i.identifier,
                "yes" if i.active else "no",
                "PRIMARY" if i.primary else "",
                len(i.conditions or []),
            )
            for i in items
        ]
        headers = ["ENVIRONMENT", "ID", "CHANNEL", "NAME", "PROVIDER", "IDENTIFIER", "ACTIVE"]
        print(table([*headers, "PRIMARY", "CONDITIONS"], rows))
        if scope.own_id is not None and items:
            print(f"(* marks the API key's own environment, {scope.own_name()})", file=sys.stderr)
        return 0

    return _call(flags, work)


@click.command("set-primary")
@click.argument("integration_id", metavar="INTEGRATION_ID")
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@click.option(
    "--environment",
    metavar="NAME|ID",
    help="the integration's environment: required to switch another environment's primary",
)
@json_option
@connection_options
def set_primary(
    flags: Flags, integration_id: str, yes: bool, environment: str | None, as_json: bool
) -> int:
    """Make an email or sms integration the primary of its channel in its environment."""

    async def work(client: InboxClient, outbox: Outbox) -> int:
        everything = await client.list_integrations()
        # Ids compare in any case, as production's do: an upper-case id must not skip
        # the plan and its environment check.
        wanted = integration_id.lower()
        target = next((i for i in everything if (i.id or "").lower() == wanted), None)
        # Unknown ids and channels without a primary go to the service, which says why.
        if target is None or target.channel not in PRIMARY_CHANNELS:
            write = Write(Kind.SET_PRIMARY, integration_id, ())
            return _done(await _switch(outbox, write), [], as_json)
        scope = await load_scope(client)
        plan = plan_primary(target, everything, scope)
        if environment is not None:
            named = _environment_named(scope, environment)
            if named is None:
                return NOT_CONFIRMED
            if named != target.environment_id:
                print(
                    f"inboxdesk: {names(target)} is in {plan.environment_name}, not in "
                    f"{safe(environment, newlines=False)}: nothing changed.",
                    file=sys.stderr,
                )
                return NOT_CONFIRMED
        if plan.already:
            if as_json:
                _emit(target.masked())
            else:
                print(
                    f"{names(target)} is already the primary {plan.channel} integration of "
                    f"{plan.environment_name}."
                )
            return 0
        interactive = sys.stdin.isatty()
        if plan.needs_typed_confirmation and environment is None:
            if not interactive:
                why = (
                    "not the key's own environment"
                    if plan.own_known
                    else "and the key's own environment is unknown"
                )
                print(
                    f"inboxdesk: {names(target)} is in {plan.environment_name}, {why}: pass "
                    f"--environment {plan.environment_name!r} to switch it. Nothing changed.",
                    file=sys.stderr,
                )
                return NOT_CONFIRMED
            print(plan.question(), file=sys.stderr)
            for line in plan.details():
                print(f"  {line}", file=sys.stderr)
            typed = _ask(f"Type the environment's name ({plan.environment_name}) to go on:")
            found = scope.get(target.environment_id)
            confirmed = typed is not None and (
                scope.find(typed) is found
                if found is not None
                else typed.strip() == target.environment_id
            )
            if not confirmed:
                print("That is not the environment's name. Nothing changed.", file=sys.stderr)
                return DECLINED
        elif not yes and interactive:
            for line in plan.details():
                print(f"  {line}", file=sys.stderr)
            if not _confirm(plan.question()):
                print("Nothing changed.", file=sys.stderr)
                return DECLINED
        updated = await _switch(outbox, plan.write())
        return _done(updated, plan.outcome(updated), as_json)

    return _write_call(flags, work)


async def _switch(outbox: Outbox, write: Write) -> Integration:
    try:
        sent = await send(outbox, write)
    except InboxdeskError as exc:
        exc.message = switch_failed(write, exc)  # said in the app's words
        raise
    updated = sent.result.integration
    assert updated is not None  # a sent switch always carries the new primary
    return updated


def _done(item: Integration, lines: list[str], as_json: bool) -> int:
    if as_json:
        _emit(item.masked())
        return 0
    for line in lines or [
        f"{names(item)} is now the primary {safe(str(item.channel))} integration."
    ]:
        print(line)
    return 0


COMMANDS = [environments, integrations, set_primary]
