"""The app's keys: the environment it acts in, a client per key, and which to switch to.

Inbox, counts and History show one environment at a time, with that environment's key;
the Integrations view asks every key held, and a switch of a primary goes with the key
of the integration's environment. The App owns one `HeldKeys` and rebuilds its
views on a switch (`ctrl+e`, the palette).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

from inboxdesk.client import (
    ForbiddenError,
    InboxClient,
    InboxdeskError,
    NotFoundError,
    RetryPolicy,
)
from inboxdesk.config import Settings
from inboxdesk.config.connect import Clients
from inboxdesk.config.keys import HeldKey, Keyring
from inboxdesk.core.inbox.unknown import unknown_subscriber
from inboxdesk.text import plural
from inboxdesk.tui.widgets.app_header import PRODUCTION_MARK

if TYPE_CHECKING:
    # Used after the first frame only: imported there.
    from inboxdesk.core.environments.across import KeyClient
    from inboxdesk.models import Environment, Subscriber
    from inboxdesk.scope import Scope
    from inboxdesk.writes import Failed


class HeldKeys:
    def __init__(
        self, settings: Settings, retry: RetryPolicy, client: InboxClient | None = None
    ) -> None:
        self.keyring = Keyring(settings)
        self.clients = Clients(settings, self.keyring, retry)
        # Raises ConfigError when no key is held for the environment asked for.
        self.held = self.keyring.current()
        if client is not None:
            self.clients.adopt(self.held, client)

    @property
    def client(self) -> InboxClient:
        """The client of the environment the app acts in."""
        return self.clients.of(self.held)

    def client_of(self, environment_id: str) -> InboxClient:
        """The client of that environment's key; the current one where none is held (an
        older deployment's key switches another environment's primary)."""
        found = self.keyring.of(environment_id)
        return self.clients.of(found) if found is not None else self.client

    def holds(self, environment_id: str | None) -> bool:
        return self.keyring.of(environment_id) is not None

    def key_clients(self) -> list[KeyClient]:
        """Each key held, the current one first, for listing across environments."""
        from inboxdesk.core.environments.across import KeyClient

        first = self.held
        keys = [first, *(k for k in self.keyring.keys if k.api_key != first.api_key)]
        return [KeyClient(k.environment_id, k.label, self.clients.of(k)) for k in keys]

    def learn(self, own: Environment | None) -> None:
        """The service named the current key's environment: its name and type are kept,
        and a profile's key not yet filed by environment moves under it."""
        held = self.held
        if own is None or held.environment_id not in ("", own.id):
            return
        kind = str(own.type) if own.type is not None else held.type
        if (own.name, kind, own.id) != (held.name, held.type, held.environment_id):
            self.held = self.keyring.learned(held, own)

    def switchable(self) -> list[HeldKey]:
        """The other environments with a key, in the profile's order."""
        return [k for k in self.keyring.keys if k.api_key != self.held.api_key]

    def after(self) -> HeldKey | None:
        """The environment `ctrl+e` goes to: the next one with a key, round the list."""
        keys = self.keyring.keys
        at = next((n for n, k in enumerate(keys) if k.api_key == self.held.api_key), -1)
        following = keys[at + 1 :] + keys[:at]
        return following[0] if following else None

    def add_command(self) -> str:
        return self.keyring.add_command()

    async def aclose(self) -> None:
        await self.clients.aclose()


def explained(event: Failed, keys: HeldKeys, scope: Scope | None) -> InboxdeskError:
    """A failed write's error; a switch refused with 403 said as what it means: the key
    it went with is another environment's than the integration's."""
    from inboxdesk.core.environments.primary import refused_across
    from inboxdesk.scope import Scope
    from inboxdesk.writes.kinds import kind_of

    error, write = event.error, event.write
    if not isinstance(error, ForbiddenError) or not kind_of(write).with_environment_key:
        return error
    used = keys.keyring.of(write.environment) or keys.held
    target = (scope or Scope()).name(write.environment)
    return refused_across(error, used.label, target, keys.add_command())


def header_environment(held: HeldKey, scope: Scope | None) -> str:
    """The environment as the header names it, marked when production-type."""
    if held.name:
        where = held.label
    else:
        where = scope.own_name() if scope is not None else "environment unknown"
    return f"{PRODUCTION_MARK}{where}" if held.production else where


def switch_target(
    app: App[Any], keys: HeldKeys, environment_id: str | None, queued: int, connected: bool
) -> HeldKey | None:
    """The key to switch to (`environment_id`'s, else the next); None, said why, when
    there is none, the app is not connected yet, or writes wait to be sent. The App then
    resets the views' modes (tui/modes.py), built again with the new key."""
    target = keys.keyring.of(environment_id) or keys.after()
    if target is None or not connected:
        app.notify(keys.keyring.no_other(keys.held.label), markup=False)
        return None
    if queued:
        app.notify(
            f"{plural(queued, 'write')} of {keys.held.label} wait to be sent: switch "
            "once they are sent or dropped.",
            severity="warning",
            markup=False,
        )
        return None
    return target


async def reopen_on(
    app: App[Any], client: InboxClient, subscriber_id: str | None
) -> tuple[list[Subscriber], str, bool]:
    """After a switch: the environment's first subscribers, the one to open (the same
    subscriberId where the environment has it, else its first), and whether it had it;
    says so when not."""
    found = bool(subscriber_id)
    if subscriber_id:
        try:
            await client.get_subscriber(subscriber_id)
        except NotFoundError:
            found = False
            app.notify(
                f"{unknown_subscriber(subscriber_id)} Pick one.",
                severity="warning",
                markup=False,
            )
    page = await client.search_subscribers(limit=100)
    first = page.data[0].subscriber_id if page.data else ""
    return page.data, (subscriber_id if found and subscriber_id else first), found
