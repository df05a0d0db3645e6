"""The whole why read from a production-shaped server on loopback: Ada's quiet hours set
and shown, a Twilio 21610 with its meaning, and an email sent without tracking."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.client.conftest import run
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.delivery_fixture import delivery_fixture
from tests.preference_fixture import preference_fixture
from tests.production_shaped import production_shaped
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture


def _use(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str, key: str) -> None:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    monkeypatch.setenv("NOVU_SECRET_KEY", key)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)


def test_quiet_hours_and_a_code_s_meaning(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    service = make_service(preference_fixture())
    with production_shaped(service.url) as url:
        _use(monkeypatch, tmp_path, url, STAGING_KEY)
        code, _, err = run(
            capsys, "set-schedule", "ada.lovelace", "--day", "mon-fri", "--hours", "09:00-17:30"
        )
        assert code == 0, err
        code, out, err = run(capsys, "preferences", "ada.lovelace")
    assert code == 0, err
    assert "Quiet hours: on" in out and "mon  09:00-17:30" in out
    delivered = make_service(delivery_fixture())
    with production_shaped(delivered.url) as url:
        _use(monkeypatch, tmp_path, url, STAGING_KEY)
        code, out, err = run(capsys, "delivery", "txn-provider")
    assert code == 0, err
    joined = " ".join(out.split())
    assert "Attempt to send to unsubscribed recipient" in joined
    assert "Twilio 21610: the recipient replied STOP" in joined


def test_an_email_sent_without_tracking(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = trigger_fixture()
    for item in fixture["environments"][0]["integrations"]:
        item.pop("configurations", None)
    service = make_service(fixture)
    with service.http(TRIGGER_KEY) as http:
        sent = http.post(
            "/v1/events/trigger", json={"name": "email", "to": "ada", "transactionId": "txn_u"}
        )
        assert sent.status_code == 201, sent.text
    service.store.worker.run_due()
    with production_shaped(service.url) as url:
        _use(monkeypatch, tmp_path, url, TRIGGER_KEY)
        code, out, err = run(capsys, "delivery", "txn_u")
    assert code == 0, err
    assert "delivery tracking is off for this integration: a bounce may never be reported" in (
        " ".join(out.split())
    )
