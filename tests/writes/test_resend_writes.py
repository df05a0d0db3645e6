"""A resend and a cancel in the app's outbox (the one that queues): never queued while
the service is away, journalled with the transactionId before the first try, no undo."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.resend import cancel_write, plan
from inboxdesk.writes import Failed, Kind, Outbox, Sent, Step, Where, Write, WriteStore
from tests.client.faults import FaultTransport, connection_refused
from tests.conftest import Service, ServiceFactory
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    return make_service(trigger_fixture())


async def test_a_resend_while_the_service_is_away_fails_and_is_never_sent_later(
    service: Service,
) -> None:
    with service.http(TRIGGER_KEY) as http:
        original = http.post("/v1/events/trigger", json={"name": "in-app", "to": "ada"}).json()
    service.store.worker.run_due()
    down = FaultTransport(before=[connection_refused() for _ in range(20)])
    # Retries as many but at once: their schedule (3 s of waits) is not what this proves.
    quick = ClientOptions(retry=RetryPolicy(base=0.001, cap=0.001))
    async with InboxClient(service.url, TRIGGER_KEY, quick, transport=down) as client:
        async with InboxClient(service.url, TRIGGER_KEY) as reader:
            (found,) = await finding.find(reader, original["data"]["transactionId"])
        chosen = plan(found, datetime.now(UTC))
        assert not isinstance(chosen, str)
        store = WriteStore(None)
        outbox = Outbox(client, Where.of(None, service.url), store)  # the app's: it queues
        write = chosen.write()
        new = write.steps[0].ids[0]
        event = await outbox.submit(write)
        assert isinstance(event, Failed), event
        assert outbox.queued() == [], "never queued"
        entry = store.entry(write.id)
        assert entry is not None and entry.write.steps[0].ids[0] == new, "journalled"
        down.before.clear()  # the service is back: nothing goes out by itself
        assert await outbox.flush() == []
        assert outbox.refusal(entry.write) is not None, "no undo"
    assert not [r for r in down.seen if r.method == "POST"][1:], "at most one try reached"
    with service.http(TRIGGER_KEY) as http:
        assert http.get("/v1/notifications", params={"transactionId": new}).json()["data"] == []


async def test_a_cancel_says_whether_anything_was_cancelled(service: Service) -> None:
    with service.http(TRIGGER_KEY) as http:
        answer = http.post("/v1/events/trigger", json={"name": "delayed", "to": "ada"}).json()
    transaction = answer["data"]["transactionId"]
    service.store.worker.run_due()
    async with InboxClient(service.url, TRIGGER_KEY) as client:
        found = await finding.by_transaction(client, transaction)
        outbox = Outbox(client, Where.of(None, service.url), WriteStore(None))
        first = await outbox.submit(cancel_write(transaction, found))
        again = await outbox.submit(cancel_write(transaction, found))
    assert isinstance(first, Sent) and first.result.cancelled is True
    assert isinstance(again, Sent) and again.result.cancelled is False
    assert outbox.refusal(first.write) == "This cannot be undone: cancelled steps never run again."


def test_history_says_a_resend_and_a_cancel_cannot_be_undone() -> None:
    from inboxdesk.scope import Scope
    from inboxdesk.tui.history.detail import entry_text

    store = WriteStore(None)
    where = Where.of(None, "http://127.0.0.1:1")
    resend = Write(Kind.RESEND, "ada", (Step("welcome", ("txn_new", "txn_old")),))
    cancel = cancel_write("txn_old", [])
    for write, detail in ((resend, {"triggerStatus": "processed"}), (cancel, {"cancelled": False})):
        store.record(where, write, "sent", detail, datetime.now(UTC))
        entry = store.entry(write.id)
        assert entry is not None
        shown = entry_text(entry, Scope(), "u").plain
        assert "cannot be undone" in shown and "u undoes" not in shown
        assert "before → after" not in shown
    assert "resent from: txn_old" in entry_text(store.entry(resend.id), Scope(), "u").plain  # type: ignore[arg-type]
