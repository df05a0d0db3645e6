"""The support story end to end on the demo's data, from the command line: Grace Hopper's
SMS is canceled for want of a phone; the agent sets her phone, sends again and the SMS
is sent; undo takes the phone back. The worker runs on the store's clock (`run_due`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from inboxdesk.delivery import Cause, job_cause
from inboxdesk.models.delivery import ActivityNotification
from tests.command_line import run_with_key
from tests.conftest import Service, ServiceFactory
from tests.templates import demo_at

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
KEY = "grace-story-key-0123456789"
GRACE = "grace.hopper"
PHONE = "+14155550100"


@pytest.fixture
def demo(make_service: ServiceFactory) -> Service:
    service = make_service(demo_at(NOW))
    service.store.clock = lambda: NOW
    development = next(e for e in service.store.environments() if e["name"] == "Development")
    service.store.add_api_key(development["id"], KEY)
    return service


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    service: Service,
    *args: str,
) -> tuple[int, str, str]:
    return run_with_key(monkeypatch, capsys, tmp_path, service.url, KEY, *args)


def sms_of(service: Service, transaction_id: str) -> ActivityNotification:
    service.store.worker.run_due()
    with service.http(KEY) as http:
        answer = http.get("/v1/notifications", params={"transactionId": transaction_id})
    (found,) = [ActivityNotification.model_validate(n) for n in answer.json()["data"]]
    (sms,) = [job for job in found.jobs if str(job.type) == "sms"]
    return sms  # type: ignore[no-any-return]


def test_grace_s_missing_phone_is_fixed_then_a_send_reaches_sent_and_undo_takes_it_back(
    demo: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    def cli(*args: str) -> tuple[int, str, str]:
        return run(monkeypatch, capsys, tmp_path, demo, *args)

    # Before: the SMS step is canceled for want of a phone.
    code, out, err = cli("send", "security-alert", GRACE, "--transaction-id", "txn_before", "--yes")
    assert code == 0, err
    before = sms_of(demo, "txn_before")
    assert str(before.status) == "canceled"
    assert job_cause(before).cause is Cause.MISSING_ADDRESS

    # The fix: her phone, one undoable write.
    code, out, err = cli("set-subscriber", GRACE, "--phone", PHONE)
    assert code == 0, err
    code, out, err = cli("subscriber", GRACE, "--json")
    assert code == 0 and json.loads(out)["data"]["phone"] == PHONE

    # Sent again: the SMS goes out now.
    code, out, err = cli("send", "security-alert", GRACE, "--transaction-id", "txn_after", "--yes")
    assert code == 0, err
    after = sms_of(demo, "txn_after")
    assert str(after.status) == "completed", [d.detail for d in after.execution_details]
    assert job_cause(after).cause is Cause.SENT, "sent: the provider took it"

    # Undo of the fix: the phone is gone again, and a send is canceled as before.
    code, out, err = cli("history", "--json")
    entry = next(e for e in json.loads(out)["data"] if e["operation"] == "subscriber")
    code, out, err = cli("undo", entry["id"], "--yes")
    assert code == 0, err
    code, out, err = cli("subscriber", GRACE, "--json")
    assert json.loads(out)["data"].get("phone") in (None, "")
    code, out, err = cli("send", "security-alert", GRACE, "--transaction-id", "txn_undone", "--yes")
    assert str(sms_of(demo, "txn_undone").status) == "canceled"
