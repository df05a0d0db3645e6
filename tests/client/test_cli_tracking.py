"""Delivery tracking (decisions 95, 127) on the real service and its worker: the
integrations list says which email and push integrations report bounces, and the
timeline of an email sent through one without tracking says a bounce may never come."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inboxdesk.core.delivery.tracking import UNTRACKED, sent_through, untracked_note
from inboxdesk.models import Integration
from inboxdesk.models.delivery import ActivityJob
from tests.command_line import run_with_key
from tests.conftest import ServiceFactory
from tests.trigger_fixture import INTEGRATIONS, TRIGGER_KEY, trigger_fixture


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    url: str,
    *args: str,
) -> tuple[int, str, str]:
    return run_with_key(monkeypatch, capsys, tmp_path, url, TRIGGER_KEY, *args)


def _untracked_sendgrid() -> dict[str, Any]:
    fixture = trigger_fixture()
    for item in fixture["environments"][0]["integrations"]:
        item.pop("configurations", None)  # the primary email integration has no tracking
    return fixture


def test_an_email_sent_without_tracking_says_so(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    service = make_service(_untracked_sendgrid())
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "integrations")
    assert code == 0, err
    rows = {line.split()[1]: line.split() for line in out.splitlines()[1:] if len(line.split()) > 2}
    assert rows[INTEGRATIONS["sendgrid"]][-1] == "off"
    assert rows[INTEGRATIONS["twilio"]][-1] != "off"  # sms: no such tracking
    assert "TRACKING off: the integration reports no bounce" in err
    code, _, err = run(
        monkeypatch,
        capsys,
        tmp_path,
        service.url,
        "send",
        "email",
        "ada",
        "--transaction-id",
        "txn_untracked",
        "--yes",
    )
    assert code == 0, err
    service.store.worker.run_due()
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "delivery", "txn_untracked")
    assert code == 0, err
    assert " ".join(UNTRACKED.split()) in " ".join(out.split())


def test_tracked_integration_says_nothing_more(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    service = make_service(trigger_fixture())  # SendGrid, the primary, tracks
    code, _, err = run(
        monkeypatch,
        capsys,
        tmp_path,
        service.url,
        "send",
        "email",
        "ada",
        "--transaction-id",
        "txn_tracked",
        "--yes",
    )
    assert code == 0, err
    service.store.worker.run_due()
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "delivery", "txn_tracked")
    assert code == 0, err
    assert "provider was selected" in out and "bounce may never" not in out


def _integration(item_id: str, provider: str, tracking: bool | None) -> Integration:
    body: dict[str, Any] = {
        "_id": item_id,
        "_environmentId": "e",
        "_organizationId": "o",
        "name": provider,
        "identifier": provider,
        "providerId": provider,
        "channel": "email",
        "active": True,
        "deleted": False,
        "primary": False,
    }
    if tracking is not None:
        body["configurations"] = {"inboundWebhookEnabled": tracking}
    return Integration.model_validate(body)


def test_which_integration_sent_it_decision_127() -> None:
    a = _integration("i1", "sendgrid", False)
    b = _integration("i2", "sendgrid", True)
    selected = {"detail": "SendGrid provider was selected", "raw": '{"_id": "i2"}'}
    job = ActivityJob.model_validate(
        {"type": "email", "providerId": "sendgrid", "executionDetails": [selected]}
    )
    assert sent_through(job, [a, b]) is b and untracked_note(job, [a, b]) is None
    # Without the detail the providerId decides only when it names one integration.
    bare = ActivityJob.model_validate({"type": "email", "providerId": "sendgrid"})
    assert sent_through(bare, [a, b]) is None
    assert untracked_note(bare, [a]) == UNTRACKED
    assert untracked_note(bare, [_integration("i3", "sendgrid", None)]) == UNTRACKED
    sms = ActivityJob.model_validate({"type": "sms", "providerId": "sendgrid"})
    assert untracked_note(sms, [a]) is None
