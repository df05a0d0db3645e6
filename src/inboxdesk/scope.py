"""Which environments an organization has, and which one the API key acts in.

Production lists integrations for the whole organization, so every
view of them needs the environments' names and the key's own. The app and the command
line learn both here, the same way:

1. `GET /v1/environments` names them (their secret keys are dropped as it is read);
2. `GET /v1/environments/me` says which is the key's;
3. where that answers 404, the `_environmentId` of the first subscriber or message;
4. otherwise the key's environment is unknown, and every switch asks for its name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inboxdesk.client import InboxClient
from inboxdesk.client.errors import ApiError
from inboxdesk.text import safe

if TYPE_CHECKING:
    from inboxdesk.models import Environment


@dataclass(frozen=True)
class Scope:
    """The organization's environments as far as the service told, and the key's own."""

    environments: list[Environment] = field(default_factory=list)
    # The key's own environment id; None when the service gave no way to learn it.
    own_id: str | None = None

    def get(self, environment_id: str | None) -> Environment | None:
        return next((e for e in self.environments if e.id == environment_id), None)

    @property
    def own(self) -> Environment | None:
        return self.get(self.own_id)

    def is_own(self, environment_id: str | None) -> bool:
        return self.own_id is not None and environment_id == self.own_id

    def name(self, environment_id: str | None) -> str:
        """The environment's name, safe to show; its id where the service named none."""
        found = self.get(environment_id)
        if found is not None:
            return safe(found.name, newlines=False)
        return safe(environment_id or "unknown environment", newlines=False)

    def own_name(self) -> str:
        return self.name(self.own_id) if self.own_id else "environment unknown"

    def find(self, typed: str) -> Environment | None:
        """The environment a user named: by name, identifier, slug or id."""
        return next((e for e in self.environments if matches(e, typed)), None)

    def order(self, environment_ids: Iterable[str]) -> list[str]:
        """The ids given, the key's own first, then as the service lists environments."""
        listed = [e.id for e in self.environments]
        wanted = set(environment_ids)

        def rank(env_id: str) -> tuple[int, int, str]:
            position = listed.index(env_id) if env_id in listed else len(listed)
            return (0 if self.is_own(env_id) else 1, position, env_id)

        return sorted(wanted, key=rank)


def matches(environment: Environment, typed: str) -> bool:
    """True when `typed` names the environment: its name, identifier, slug or id,
    compared case-insensitively on the safe form."""
    wanted = safe(typed.strip(), newlines=False).casefold()
    names = (environment.name, environment.identifier, environment.slug, environment.id)
    return bool(wanted) and any(
        safe(name, newlines=False).casefold() == wanted for name in names if name
    )


async def load_scope(client: InboxClient) -> Scope:
    """The environments and the key's own, each as far as the service serves it."""
    try:
        environments = await client.list_environments()
    except ApiError:
        # Older deployments, or a key that may not list them: ids stand in for names.
        environments = []
    own = await own_environment_id(client)
    return Scope(environments, own)


async def own_environment_id(client: InboxClient) -> str | None:
    """The key's own environment's id, or None while unknown."""
    try:
        own = await client.own_environment()
    except ApiError:
        own = None
    if own is not None:
        return own.id
    # No /environments/me: any environment-scoped item tells the key's environment.
    try:
        page = await client.search_subscribers(limit=1)
        if page.data:
            return page.data[0].environment_id
        messages = await client.list_messages(limit=1)
    except ApiError:
        return None
    return messages.data[0].environment_id if messages.data else None
