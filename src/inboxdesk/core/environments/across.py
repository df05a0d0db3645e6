"""Integrations across the environments whose keys are held, for the app and the
command line alike.

A key lists its own environment's integrations only; an older deployment lists every
environment's to any key. So each key held is asked once, the answers are merged (an
integration once, by id) and grouped by their `_environmentId`, whichever key listed
them; the environments the service names without a key held are said apart, each with
the command that adds its key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from inboxdesk.client import ApiError, InboxClient
from inboxdesk.models import Environment, Integration
from inboxdesk.scope import Scope
from inboxdesk.text import safe


@dataclass(frozen=True)
class KeyClient:
    """A key held, as this module needs it: its environment's id (known), its name
    (safe to show) and the client that sends with it."""

    environment_id: str
    name: str
    client: InboxClient


@dataclass(frozen=True)
class Listing:
    integrations: list[Integration]  # merged, in the order the keys listed them
    scope: Scope  # the environments the service named; own: the current key's
    held: list[str]  # the environments with a key, in the order they were asked
    names: dict[str, str] = field(default_factory=dict)  # held environments' names
    # The environments the service names with no key held, in its order.
    without_key: list[Environment] = field(default_factory=list)

    @property
    def older(self) -> bool:
        """A key listed another environment's integrations: an older deployment."""
        return any(i.environment_id not in self.held for i in self.integrations)

    def name(self, environment_id: str) -> str:
        """The environment's name, safe: as the service lists it, else as the key was filed."""
        if self.scope.get(environment_id) is None and environment_id in self.names:
            return self.names[environment_id]
        return self.scope.name(environment_id)

    def grouped(self) -> list[Integration]:
        """The integrations by environment, held environments first, each kept in order."""
        return [i for _, group in self.groups() for i in group]

    def groups(self) -> list[tuple[str, list[Integration]]]:
        """(environment id, its integrations), held environments first, each once."""
        order = list(self.held) + [
            e
            for e in self.scope.order(i.environment_id for i in self.integrations)
            if e not in self.held
        ]
        return [(e, [i for i in self.integrations if i.environment_id == e]) for e in order]


async def list_across(keys: Sequence[KeyClient], active_only: bool = False) -> Listing:
    """Every held environment's integrations (one request per key) and the environments
    the first key's service names (one more), merged."""
    items: list[Integration] = []
    for key in keys:
        listed = await key.client.list_integrations(active_only=active_only)
        # An older deployment lists the same integrations to every key: each once.
        known = {(i.id or "").lower() for i in items}
        items += [i for i in listed if not i.id or i.id.lower() not in known]
    try:
        environments = await keys[0].client.list_environments() if keys else []
    except ApiError:
        environments = []  # an older deployment, or a key that may not list them
    held = [k.environment_id for k in keys]
    present = {i.environment_id for i in items}
    return Listing(
        items,
        Scope(environments, keys[0].environment_id if keys else None),
        held,
        {k.environment_id: k.name for k in keys},
        # An older deployment listed some of them all the same: those are shown.
        [e for e in environments if e.id not in held and e.id not in present],
    )


@dataclass(frozen=True)
class Found:
    """An integration found by one key's listing: it, that key, and what that key listed
    (the integration's environment's others, for the plan of a switch)."""

    integration: Integration
    key: KeyClient
    listed: list[Integration]


async def find_integration(keys: Sequence[KeyClient], integration_id: str) -> Found | None:
    """The integration `integration_id` (any case), asking each key in turn and stopping
    at the first that lists it."""
    wanted = integration_id.lower()
    for key in keys:
        listed = await key.client.list_integrations()
        found = next((i for i in listed if (i.id or "").lower() == wanted), None)
        if found is not None:
            return Found(found, key, listed)
    return None


def not_found(
    integration_id: str, held: Sequence[str], without_key: Sequence[str], add: str
) -> str:
    """Why an integration was found in no environment held: names every one searched,
    and those the keys held cannot read, with the command that adds a key."""
    text = f"Integration {integration_id} was not found in {', '.join(held) or 'no environment'}"
    if without_key:
        verb = "is" if len(without_key) == 1 else "are"
        return f"{text}; {', '.join(without_key)} {verb} not readable without its key: `{add}`."
    return f"{text}."


class HasAddCommand(Protocol):
    def add_command(self) -> str: ...


def without_keys(listing: Listing, keys: HasAddCommand) -> str:
    """One line per environment the service names with no key held, saying how to add it."""
    return "\n".join(
        f"{safe(e.name, newlines=False)}: no key held, so not listed; add its key with "
        f"`{keys.add_command()}`."
        for e in listing.without_key
    )
