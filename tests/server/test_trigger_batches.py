"""Triggers in flight at once are admitted together: one transaction stores the batch,
and each request still gets its own answer (a refusal in the batch refuses only its
own trigger). Then the service over HTTP, many triggers in flight, each answered and
each carried to its final state; and the worker's own thread, woken by each trigger."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.store import NotAllowed, Store
from inboxdesk.server.store.triggers import TriggerRequest, Verdict
from inboxdesk.server.trigger_routes import NOT_FOUND, Admission, check_body
from tests.client.faults import loopback_async_client
from tests.conftest import Service, ServiceFactory
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture
from tests.waiting import wait_for

FINAL = {"completed", "failed", "canceled", "skipped", "merged"}


class CountingStore(Store):
    """A store that records each batch of triggers it is asked to admit."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.batches: list[int] = []

    def accept_triggers(
        self, requests: Sequence[TriggerRequest], verdict: Verdict
    ) -> list[tuple[Any, str | Exception]]:
        self.batches.append(len(requests))
        return super().accept_triggers(requests, verdict)


def test_triggers_in_flight_are_stored_together_and_answered_each(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "batches.db")
    load_fixture(store, trigger_fixture())
    caller = store.authenticate(TRIGGER_KEY)
    assert caller is not None
    bodies = [check_body({"name": "in-app", "to": "ada"}) for _ in range(8)]
    bodies.append(check_body({"name": "no-such-workflow", "to": "ada"}))
    bodies.append(
        check_body({"name": "in-app", "to": "ada", "payload": {"attachments": [{"name": "a"}]}})
    )
    admission = Admission(store)

    async def admit_all() -> list[Any]:
        return await asyncio.gather(
            *(
                admission.admit(TriggerRequest(caller, b, "2026-11-28T12:00:00.000Z"))
                for b in bodies
            ),
            return_exceptions=True,
        )

    try:
        answers = asyncio.run(admit_all())
        assert store.batches == [len(bodies)]
        assert [a[1] for a in answers[:8]] == ["processed"] * 8
        assert answers[8][1] == NOT_FOUND
        assert isinstance(answers[9], NotAllowed)
        store.worker.run_due()
        stored = store.read().execute("SELECT transaction_id FROM notifications").fetchall()
        assert sorted(r[0] for r in stored) == sorted(b["transactionId"] for b in bodies[:8])
    finally:
        store.close()


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    return make_service(trigger_fixture())


def test_many_triggers_in_flight_each_reach_their_final_state(service: Service) -> None:
    async def send_all() -> list[httpx.Response]:
        headers = {"Authorization": f"ApiKey {TRIGGER_KEY}"}
        async with loopback_async_client(base_url=service.url, headers=headers) as http:
            return await asyncio.gather(
                *(
                    http.post("/v1/events/trigger", json={"name": "email", "to": "ada"})
                    for _ in range(24)
                )
            )

    answers = asyncio.run(send_all())
    assert {a.status_code for a in answers} == {201}
    assert {a.json()["data"]["status"] for a in answers} == {"processed"}
    transactions = {a.json()["data"]["transactionId"] for a in answers}
    assert len(transactions) == 24
    service.store.worker.run_due()
    rows = (
        service.store.read()
        .execute(
            "SELECT n.transaction_id, json_extract(j.doc, '$.status') FROM jobs AS j"
            " JOIN notifications AS n ON n.id = j.notification_id"
        )
        .fetchall()
    )
    assert {r[0] for r in rows} == transactions
    assert {r[1] for r in rows} <= FINAL


def _unfinished(store: Store) -> int:
    row = store.read().execute(
        "SELECT COUNT(*) FROM jobs WHERE json_extract(doc, '$.status') NOT IN"
        " ('completed', 'failed', 'canceled', 'skipped', 'merged')"
    )
    return int(row.fetchone()[0])


def test_the_worker_thread_wakes_for_each_trigger_sleeps_between_and_restarts(
    service: Service,
) -> None:
    """No `run_due` here: the worker's own thread carries each trigger to its end, woken
    by the route from its sleep, and a worker stopped starts again at the next trigger."""
    store = service.store
    worker = store.worker

    def trigger() -> str:
        with service.http(TRIGGER_KEY) as http:
            answer = http.post("/v1/events/trigger", json={"name": "in-app", "to": "ada"})
        assert answer.status_code == 201
        return str(answer.json()["data"]["transactionId"])

    for round_ in range(3):
        transaction = trigger()
        wait_for(
            f"trigger {round_} final",
            lambda t=transaction: (
                service.row("SELECT 1 FROM notifications WHERE transaction_id = ?", t)
                and _unfinished(store) == 0
                and store.next_due() is None
            ),
        )
        assert worker.running
        if round_ == 1:
            worker.stop()
            assert not worker.running
    assert service.row("SELECT COUNT(*) FROM notifications")[0] >= 3
