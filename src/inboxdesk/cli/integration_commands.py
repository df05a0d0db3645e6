"""The organization's environments and integrations, and set primary across them."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

import click

from inboxdesk.cli.api_commands import (
    DECLINED,
    _emit,
    _keys_call,
    _print_ids,
    ids_option,
    json_option,
)
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.prompts import ask as _ask
from inboxdesk.cli.prompts import go_ahead
from inboxdesk.cli.tables import table
from inboxdesk.client import ApiError, ForbiddenError, InboxdeskError
from inboxdesk.config.connect import Clients
from inboxdesk.config.keys import HeldKey, Keyring
from inboxdesk.core.delivery.tracking import tracks
from inboxdesk.core.environments.across import (
    KeyClient,
    Listing,
    find_integration,
    list_across,
    not_found,
    without_keys,
)
from inboxdesk.models import PRIMARY_CHANNELS, Channel, Integration
from inboxdesk.scope import Scope, matches
from inboxdesk.text import safe

# The reads (environments, integrations) import none of the write machinery: the
# switch imports it as it runs (api_commands says why).
if TYPE_CHECKING:
    from inboxdesk.writes import Outbox, Write

# Exit status when a switch needs the environment's name and was not given it.
NOT_CONFIRMED = 2
# Exit status when the integration is in no environment the keys held can read.
NOT_FOUND = 1
OBJECT_ID = re.compile(r"[0-9a-fA-F]{24}")


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
    """List the organization's environments and which of them the profile holds a key of
    (never their API keys)."""

    async def work(clients: Clients, held: HeldKey) -> int:
        keyring = clients.keyring
        await key_clients(clients, held)  # names the environment of a key given alone
        held = keyring.current()
        # Listed directly: a refusal, a redirect or any error is the command's failure
        # (exit 1), never an empty list.
        listed = await clients.of(held).list_environments()
        if as_json:
            _emit([e.to_wire() for e in listed])
            return 0
        if ids_only:
            _print_ids([e.id for e in listed])
            return 0
        # An id listed twice is one environment: its mark goes on its first row.
        ids = [e.id for e in listed]

        def key_held(n: int, environment_id: str) -> str:
            if keyring.of(environment_id) is None or ids.index(environment_id) != n:
                return ""
            return "current" if environment_id == held.environment_id else "yes"

        rows = [
            (e.name, e.id, e.identifier, e.type or "", e.slug or "", key_held(n, e.id))
            for n, e in enumerate(listed)
        ]
        print(table(["NAME", "ID", "IDENTIFIER", "TYPE", "SLUG", "KEY HELD"], rows))
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            print(
                "(the service listed "
                + ", ".join(safe(i, newlines=False) for i in twice)
                + " more than once)",
                file=sys.stderr,
            )
        if not held.environment_id:
            print("(the API key's own environment is unknown)", file=sys.stderr)
        missing = [safe(e.name, newlines=False) for e in listed if keyring.of(e.id) is None]
        if missing and not keyring.single:
            print(f"(no key for {', '.join(missing)}: `{keyring.add_command()}`)", file=sys.stderr)
        return 0

    return _keys_call(flags, work)


async def key_clients(clients: Clients, first: HeldKey) -> list[KeyClient]:
    """Each key held, `first` first, with its environment named (asked of the service
    for a key given alone, whose environment the file does not say)."""
    keyring = clients.keyring
    out = []
    for held in [first, *(k for k in keyring.keys if k is not first)]:
        if not held.environment_id:
            named = await keyring.learn(clients.of(held), held)
            clients.adopt(named, clients.of(held))
            held = named
        out.append(KeyClient(held.environment_id, held.label, clients.of(held)))
    return out


@click.command()
@click.option("--active", is_flag=True, help="active integrations only")
@click.option(
    "--channel", type=click.Choice([c.value for c in Channel]), help="this channel's only"
)
@json_option
@ids_option
@connection_options
def integrations(
    flags: Flags,
    active: bool,
    channel: str | None,
    as_json: bool,
    ids_only: bool,
) -> int:
    """List the integrations of every environment the profile holds a key of (one request
    per key), grouped by environment; --environment lists that one's only."""
    only = flags.get("environment")

    async def work(clients: Clients, held: HeldKey) -> int:
        keyring = clients.keyring
        keys = await key_clients(clients, held)
        if only is not None:
            keys = keys[:1]  # the one --environment picked
        listing = await list_across(keys, active_only=active)
        items = listing.integrations
        if channel:
            items = [i for i in items if i.channel == channel]
        if only is not None:
            items = [i for i in items if i.environment_id == keys[0].environment_id]
        if as_json:
            _emit([i.masked() for i in items])
            return 0
        if ids_only:
            _print_ids([i.id for i in items])
            return 0
        # The table groups them by environment, held ones first; JSON keeps the order.
        kept = {id(i) for i in items}
        items = [i for i in listing.grouped() if id(i) in kept]
        rows = [
            (
                listing.name(i.environment_id),
                i.id,
                i.channel or i.kind or "",
                i.name,
                i.provider_id,
                i.identifier,
                "yes" if i.active else "no",
                "PRIMARY" if i.primary else "",
                len(i.conditions or []),
                {None: "", True: "on", False: "off"}[tracks(i)],
            )
            for i in items
        ]
        headers = ["ENVIRONMENT", "ID", "CHANNEL", "NAME", "PROVIDER", "IDENTIFIER", "ACTIVE"]
        print(table([*headers, "PRIMARY", "CONDITIONS", "TRACKING"], rows))
        if any(tracks(i) is False for i in items):
            # A note, not a row: on standard error, so that the table stays data.
            print(
                "TRACKING off: the integration reports no bounce (its inbound webhook is off): "
                "a message shown sent may never have been delivered.",
                file=sys.stderr,
            )
        missing = _without_key(keyring, listing) if only is None else ""
        if missing:
            print(missing)
        return 0

    return _keys_call(flags, work)


def _without_key(keyring: Keyring, listing: Listing) -> str:
    """The environments the service names with no key held, one line each."""
    if keyring.single:
        return "\n".join(
            f"{safe(e.name, newlines=False)}: not readable with one key given alone; save each "
            "environment's key in a profile with `inboxdesk config add-key PROFILE`."
            for e in listing.without_key
        )
    return without_keys(listing, keyring)


@click.command("set-primary")
@click.argument("integration_id", metavar="INTEGRATION_ID")
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@json_option
@connection_options
def set_primary(flags: Flags, integration_id: str, yes: bool, as_json: bool) -> int:
    """Make an email or sms integration the primary of its channel in its environment,
    with that environment's key. --environment must name the integration's environment."""
    from inboxdesk.core.environments.primary import names, plan_primary
    from inboxdesk.writes import Kind, Write

    environment = flags.get("environment")

    async def work(clients: Clients, held: HeldKey) -> int:
        keyring = clients.keyring
        keys = await key_clients(clients, held)
        found = await find_integration(keys, integration_id)
        if found is None:
            if not OBJECT_ID.fullmatch(integration_id):
                # A malformed id: the service says why, as for any request.
                write = Write(Kind.SET_PRIMARY, integration_id, ())
                await _sent(_outbox(clients, held), write, keyring, keys[0], keys[0].name)
            if environment is not None and keyring.named(environment) is None:
                raise keyring.missing(safe(environment, newlines=False))
            listing_names = [k.name for k in keys]
            without = await _not_held(keys)
            print(
                "inboxdesk: "
                + not_found(
                    safe(integration_id, newlines=False),
                    listing_names,
                    without,
                    keyring.add_command()
                    if not keyring.single
                    else "inboxdesk config add-key PROFILE",
                ),
                file=sys.stderr,
            )
            return NOT_FOUND
        target = found.integration
        # The switch goes with the key of the integration's environment where one is
        # held; an older deployment may list another environment's to the key that found it.
        sender = keyring.of(target.environment_id)
        sending = (
            KeyClient(sender.environment_id, sender.label, clients.of(sender))
            if sender is not None
            else found.key
        )
        listing = found.listed
        # Listed again only with another key: the same key lists what it just listed.
        if sending.client is not found.key.client:
            listing = await sending.client.list_integrations()
        try:
            named = await sending.client.list_environments()
        except ApiError:
            named = []
        scope = Scope(named, sending.environment_id)
        target_name = scope.name(target.environment_id)
        if environment is not None and not _names(scope, target.environment_id, environment):
            if keyring.named(environment) is None:
                raise keyring.missing(safe(environment, newlines=False))
            print(
                f"inboxdesk: {names(target)} is in {target_name}, not in "
                f"{safe(environment, newlines=False)}: nothing was sent.",
                file=sys.stderr,
            )
            return NOT_CONFIRMED
        outbox = _outbox(clients, keyring.of(sending.environment_id) or held)
        if target.channel not in PRIMARY_CHANNELS:
            # Channels without a primary go to the service, which says why.
            write = Write(
                Kind.SET_PRIMARY, target.id or integration_id, (), environment=target.environment_id
            )
            return _done(await _sent(outbox, write, keyring, sending, target_name), [], as_json)
        plan = plan_primary(target, listing, scope)
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
            if typed is None or not _names(scope, target.environment_id, typed):
                print("That is not the environment's name. Nothing changed.", file=sys.stderr)
                return DECLINED
        elif not go_ahead(plan.question(), yes, plan.details()):
            print("Nothing changed.", file=sys.stderr)
            return DECLINED
        updated = await _sent(outbox, plan.write(), keyring, sending, target_name)
        return _done(updated, plan.outcome(updated), as_json)

    return _keys_call(flags, work, names_target=True, writes=True)


def _names(scope: Scope, environment_id: str, typed: str) -> bool:
    """True when `typed` names the environment (name, identifier, slug or id)."""
    found = scope.get(environment_id)
    if found is not None:
        return matches(found, typed)
    return typed.strip().lower() == environment_id.lower()


async def _not_held(keys: list[KeyClient]) -> list[str]:
    """The names of the environments the service lists with no key held."""
    try:
        listed = await keys[0].client.list_environments() if keys else []
    except ApiError:
        return []
    held = {k.environment_id for k in keys}
    return [safe(e.name, newlines=False) for e in listed if e.id not in held]


def _outbox(clients: Clients, held: HeldKey) -> Outbox:
    from inboxdesk.cli.writing import outbox_for

    return outbox_for(clients.settings, clients.of(held), held, clients)


async def _sent(
    outbox: Outbox, write: Write, keyring: Keyring, sending: KeyClient, target_name: str
) -> Integration:
    """The switch sent; a 403 said as what it means (the key's environment is not the
    integration's), never as a bad key."""
    from inboxdesk.core.environments.primary import refused_across

    try:
        return await _switch(outbox, write)
    except ForbiddenError as exc:
        add = keyring.add_command() if not keyring.single else "inboxdesk config add-key PROFILE"
        raise refused_across(exc, sending.name, target_name, add) from None
    finally:
        outbox.store.close()


async def _switch(outbox: Outbox, write: Write) -> Integration:
    from inboxdesk.cli.writing import send
    from inboxdesk.writes.kinds.set_primary import switch_failed

    try:
        sent = await send(outbox, write)
    except InboxdeskError as exc:
        exc.message = switch_failed(write, exc)  # said in the app's words
        raise
    updated = sent.result.integration
    assert updated is not None  # a sent switch always carries the new primary
    return updated


def _done(item: Integration, lines: list[str], as_json: bool) -> int:
    from inboxdesk.core.environments.primary import names

    if as_json:
        _emit(item.masked())
        return 0
    for line in lines or [
        f"{names(item)} is now the primary {safe(str(item.channel))} integration."
    ]:
        print(line)
    return 0


COMMANDS = [environments, integrations, set_primary]
