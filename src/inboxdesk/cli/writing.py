"""The command line's writes: through the same outbox as the app's, without a queue (a
write that cannot reach the service fails), journaled for history."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace

from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.config import ConfigError, Settings
from inboxdesk.config.connect import Clients
from inboxdesk.config.keys import HeldKey, read_only_reason
from inboxdesk.paths import writes_path
from inboxdesk.scope import own_environment_id
from inboxdesk.writes import Failed, Outbox, Partial, Sent, Where, Write, open_store


def refuse_if_read_only(settings: Settings, held: HeldKey | None = None) -> None:
    """A write in a read-only run, or in a read-only environment, stops before anything
    is sent (exit 2)."""
    reason = read_only_reason(settings, held)
    if reason is not None:
        raise ConfigError(f"Read-only ({reason}): this command writes, so nothing was sent.")


def outbox_for(settings: Settings, client: InboxClient, held: HeldKey, clients: Clients) -> Outbox:
    """The outbox of one command: its writes go with `client` (`held`'s key), and a
    switch of another environment's primary with that environment's key."""
    store, problem = open_store(writes_path(), settings.history_days, settings.history_entries)
    if problem:
        print(f"inboxdesk: {problem}", file=sys.stderr)
    keyring = clients.keyring

    def client_of(environment: str) -> InboxClient:
        found = keyring.of(environment)
        return clients.of(found) if found is not None else client

    where = Where.of(settings.profile, settings.base_url, held.environment_id)
    return Outbox(client, where, store, queue=False, client_of=client_of)


async def send(outbox: Outbox, write: Write) -> Sent | Partial:
    """The write's outcome; a failure raises the client's error, which the command reports.

    The journal files it under the key's environment, asked once per command."""
    await file_under_environment(outbox)
    event = await outbox.submit(write)
    if outbox.store.problem:
        print(f"inboxdesk: {outbox.store.problem}", file=sys.stderr)
    if isinstance(event, Failed):
        raise event.error
    assert isinstance(event, Sent | Partial), event  # no queue: nothing else can come
    return event


async def file_under_environment(outbox: Outbox) -> None:
    """The journal files the command's writes (an undo's too) under the key's
    environment, asked once per command; unknown if the service does not say."""
    if not outbox.where.environment:
        with contextlib.suppress(InboxdeskError):
            environment = await own_environment_id(outbox.client)
            if environment:
                outbox.move_to(replace(outbox.where, environment=environment))
