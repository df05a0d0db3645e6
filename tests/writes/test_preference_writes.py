"""A preference change through the outbox: one write per toggle, journalled with before
and after, undone by writing the value before as the subscriber's own choice, queued
while the service is away."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.writes import Kind, Outbox, Queued, Refused, Sent, Where, WriteStore, describe
from inboxdesk.writes.kinds.preference import Toggle, preference_write, undo_note, value_of
from inboxdesk.writes.report import as_json
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.preference_fixture import preference_fixture

HERE = Where("work", "127.0.0.1", "env-1")


@dataclass
class Gate(httpx.AsyncBaseTransport):
    down: bool = False
    inner: httpx.AsyncBaseTransport = field(default_factory=httpx.AsyncHTTPTransport)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("connection refused", request=request)
        return await self.inner.handle_async_request(request)


def _client(service: Service, gate: Gate | None = None) -> InboxClient:
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=1, base=0.01, deadline=5))
    return InboxClient(service.url, STAGING_KEY, options, gate)


async def test_a_toggle_is_journalled_and_its_undo_makes_the_value_the_subscribers(
    make_service: ServiceFactory,
) -> None:
    service = make_service(preference_fixture())
    store = WriteStore(None)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)
        before = await client.preferences("ada.lovelace")
        # Weekly digest's email is off by the workflow's default: Ada turns it on.
        was = value_of(before, "weekly-digest", "email")
        assert was == (False, False)
        toggle = Toggle("email", True, "weekly-digest", "Weekly digest")
        event = await outbox.submit(preference_write("ada.lovelace", toggle, was))
        assert isinstance(event, Sent) and event.result.preferences is not None
        assert value_of(event.result.preferences, "weekly-digest", "email") == (True, True)
        entry = store.entries(HERE)[0]
        assert entry.write.kind is Kind.PREFERENCE
        # The inbox's z takes back marks and archives only: a preference is History's.
        assert outbox.last("ada.lovelace") is None
        assert describe(entry.write) == "email on for Weekly digest"
        row = as_json(entry)
        assert row["before"] == {"email": [False, False]}
        assert row["after"] == {"email": [True, True]}
        assert row["ids"] == ["weekly-digest"]

        # Nothing to ask first: no later write touched it.
        assert outbox.undo_notes(entry) == []
        undone = await outbox.undo(entry.write)
        assert isinstance(undone, Sent)
        assert describe(undone.write) == "undo: email off for Weekly digest"
        assert "no longer follows the workflow's default" in (undo_note(undone.write) or "")
        assert undo_note(entry.write) is None
        now = await client.preferences("ada.lovelace")
        # Off again, now as Ada's own choice.
        assert value_of(now, "weekly-digest", "email") == (False, True)
        newest = store.entries(HERE)[0]
        assert newest.write.undoes == entry.write.id
        assert as_json(newest)["after"] == {"email": [False, True]}


async def test_a_global_toggle_and_a_refused_one(make_service: ServiceFactory) -> None:
    service = make_service(preference_fixture())
    store = WriteStore(None)
    async with _client(service) as client:
        outbox = Outbox(client, HERE, store)
        prefs = await client.preferences("ada.lovelace")
        was = value_of(prefs, "", "sms")
        event = await outbox.submit(preference_write("ada.lovelace", Toggle("sms", True), was))
        assert isinstance(event, Sent) and event.result.preferences is not None
        assert event.result.preferences.global_.channels["sms"] is True
        assert describe(event.write) == "sms on for every workflow (global)"
        # No note for a global undo: there is no workflow default to follow.
        undone = await outbox.undo(event.write)
        assert isinstance(undone, Sent) and undo_note(undone.write) is None
        refused = await outbox.submit(
            preference_write(
                "ada.lovelace", Toggle("sms", False, "security-alert", "Security alert"), None
            )
        )
        assert not isinstance(refused, Sent)
        assert store.entries(HERE)[0].outcome == "failed"
        unknown = await outbox.undo(store.entries(HERE)[0].write)
        assert isinstance(unknown, Refused)


async def test_queued_while_away_and_sent_once_back(make_service: ServiceFactory) -> None:
    service = make_service(preference_fixture())
    gate = Gate(down=True)
    async with _client(service, gate) as client:
        outbox = Outbox(client, HERE, WriteStore(None))
        toggle = Toggle("email", True, "order-shipped", "Order shipped")
        event = await outbox.submit(preference_write("ada.lovelace", toggle, (False, True)))
        assert isinstance(event, Queued)
        gate.down = False
        sent = await outbox.flush()
        assert [type(e) for e in sent] == [Sent]
        prefs = await client.preferences("ada.lovelace")
    assert value_of(prefs, "order-shipped", "email") == (True, True)
