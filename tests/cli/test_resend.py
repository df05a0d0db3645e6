"""`inboxdesk resend`, `inboxdesk cancel` and `inboxdesk delivery --follow` against the
local service: the body a resend sends, never twice, cancel of a delayed step and of
nothing, read-only refusals, and each exit status of `--follow`."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.client import InboxClient
from inboxdesk.client.triggers import STATUS_WORDS
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.resend import RESENT_AT, RESENT_TRANSACTION, plan
from inboxdesk.writes import Outbox, Sent, Where, WriteStore
from tests.command_line import ctrl_c_when, run_with_key
from tests.conftest import Service, ServiceFactory
from tests.loopback import loopback
from tests.production_shaped import production_shaped
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    url: str,
    *args: str,
) -> tuple[int, str, str]:
    return run_with_key(
        monkeypatch, capsys, tmp_path, url, TRIGGER_KEY, *args, INBOXDESK_FOLLOW_GRACE="0"
    )


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    return make_service(trigger_fixture())


def trigger(service: Service, name: str, to: str, **body: Any) -> str:
    with service.http(TRIGGER_KEY) as http:
        answer = http.post("/v1/events/trigger", json={"name": name, "to": to, **body})
    assert answer.status_code == 201, answer.text
    transaction: str = answer.json()["data"]["transactionId"]
    service.store.worker.run_due()
    return transaction


def feed(service: Service, transaction: str) -> list[dict[str, Any]]:
    service.store.worker.run_due()
    with service.http(TRIGGER_KEY) as http:
        found: list[dict[str, Any]] = http.get(
            "/v1/notifications", params={"transactionId": transaction}
        ).json()["data"]
    return found


ORIGINAL = {
    "payload": {"name": "Ada", "__source": "api"},
    "context": {"tenant": "acme"},
    "overrides": {"email": {"replyTo": "help@example.test"}},
}


def test_resend_sends_the_dashboards_body_once_and_follow_ends_at_final(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    original = trigger(service, "welcome", "ada", **ORIGINAL)
    code, out, err = run(
        monkeypatch, capsys, tmp_path, service.url, "resend", original, "-y", "--follow"
    )
    assert code == 0 and "Final: " in err, err
    first, second, *landed = out.splitlines()
    assert any("Message sent" in line for line in landed), "each detail as it lands"
    new = first.removeprefix("transactionId ")
    assert new.startswith("txn_") and new != original
    assert second == f"status processed: {STATUS_WORDS['processed']}"
    (again,) = feed(service, new)
    assert again["payload"]["__resent_transaction_id"] == original
    assert again["payload"]["__source"] == "api"
    assert again["contextKeys"] == ["tenant:acme"]
    assert again["jobs"][0]["overrides"] == ORIGINAL["overrides"]
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "delivery", new, "--follow")
    assert code == 0, err
    assert "Message sent" in out and "Final: " in err
    code, out, _ = run(monkeypatch, capsys, tmp_path, service.url, "history", "--json")
    (entry,) = [e for e in json.loads(out)["data"] if e["operation"] == "resend"]
    assert new in json.dumps(entry), "journalled with its new transactionId"
    code, _, err = run(monkeypatch, capsys, tmp_path, service.url, "undo", entry["id"], "-y")
    assert code != 0 and "cannot be undone" in err


def test_a_resends_body_is_the_dashboards_against_a_production_shaped_server(
    service: Service,
) -> None:
    original = trigger(service, "welcome", "ada", **ORIGINAL)
    now = datetime(2026, 11, 28, 12, 0, 1, 234000, tzinfo=UTC)

    async def resend(url: str) -> tuple[Sent, list[Any]]:
        async with InboxClient(url, TRIGGER_KEY) as client:
            (found,) = await finding.find(client, original)
            chosen = plan(found, now)
            assert not isinstance(chosen, str), chosen
            outbox = Outbox(client, Where.of(None, url), WriteStore(None), queue=False)
            event = await outbox.submit(chosen.write("txn_0123456789abcdef01234567"))
            assert isinstance(event, Sent), event
            return event, list(client.requests.entries)

    with production_shaped(service.url) as url:
        event, requests = asyncio.run(resend(url))
    (posted,) = [r for r in requests if r.method == "POST"]
    assert json.loads(posted.body) == {
        "name": "welcome",
        "to": "ada",
        "payload": {
            "name": "Ada",
            "__source": "api",
            RESENT_TRANSACTION: original,
            RESENT_AT: "2026-11-28T12:00:01.234Z",
        },
        "context": {"tenant": "acme"},
        "overrides": ORIGINAL["overrides"],
        "transactionId": "txn_0123456789abcdef01234567",
    }
    assert event.result.trigger is not None and event.result.trigger.queued


def test_a_resend_whose_answer_is_lost_is_not_sent_twice(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The service takes the trigger but its answer never comes back (an outage between
    the two): the retry asks the feed first, and the service keeps one notification."""
    original = trigger(service, "in-app", "ada", payload={"name": "Ada"})
    forward = service.http(None)
    posts: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        relayed = forward.request(
            request.method,
            str(request.url.copy_with(scheme=None, host=None, port=None)).lstrip("/") or "/",
            content=request.content,
            headers={"authorization": request.headers["authorization"]},
        )
        if request.method == "POST":
            posts.append(json.loads(request.content)["transactionId"])
            service.store.worker.run_due()  # it arrived, and the worker has run
            return httpx.Response(503, json={"message": "gone", "statusCode": 503})
        return httpx.Response(relayed.status_code, content=relayed.content)

    with loopback(answer) as url:
        code, out, err = run(monkeypatch, capsys, tmp_path, url, "resend", original, "-y")
    forward.close()
    assert code == 0, err
    assert len(posts) == 1 and "not sent again" in out
    assert len(feed(service, posts[0])) == 1


def test_a_transaction_of_several_subscribers_needs_subscriber_and_read_only_refuses(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    both = trigger(service, "in-app", ["ada", "bare"])
    code, _, err = run(monkeypatch, capsys, tmp_path, service.url, "resend", both, "-y")
    assert code == 2 and "--subscriber" in err and "ada" in err and "bare" in err
    code, _, err = run(
        monkeypatch, capsys, tmp_path, service.url, "resend", both, "--subscriber", "bare", "-y"
    )
    assert code == 0, err
    code, _, err = run(
        monkeypatch, capsys, tmp_path, service.url, "resend", both, "--subscriber", "ada"
    )
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--yes" in err
    code, _, err = run(
        monkeypatch, capsys, tmp_path, service.url, "--read-only", "resend", both, "-y"
    )
    assert code == 2 and "Read-only" in err
    code, _, err = run(monkeypatch, capsys, tmp_path, service.url, "--read-only", "cancel", both)
    assert code == 2 and "Read-only" in err


def test_cancel_of_a_delayed_step_then_of_nothing(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    waiting = trigger(service, "delayed", "ada")
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "cancel", waiting)
    assert code == 2 and "--yes" in err, "asks first"
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "cancel", waiting, "-y")
    assert code == 0 and out.startswith("Cancelled"), err
    (notification,) = feed(service, waiting)
    assert [j["status"] for j in notification["jobs"]] == ["canceled", "canceled"]
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "cancel", waiting, "-y")
    assert code == 1 and out.startswith("Nothing was cancelled"), err


def test_follow_says_what_did_not_arrive_and_stops_at_its_time_limit(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    missing = trigger(service, "sms", "bare")
    code, out, err = run(
        monkeypatch, capsys, tmp_path, service.url, "delivery", missing, "--follow"
    )
    assert code == 1 and "Did not arrive: SMS: not sent, the subscriber has no phone" in err
    waiting = trigger(service, "delayed", "ada")
    monkeypatch.setenv("INBOXDESK_FOLLOW_LIMIT", "0.2")
    code, out, err = run(
        monkeypatch, capsys, tmp_path, service.url, "delivery", waiting, "--follow"
    )
    assert code == 4 and "not final yet" in err and "Step delayed" in out


def test_ctrl_c_ends_a_follow_with_zero(
    service: Service,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    waiting = trigger(service, "delayed", "ada")
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", TRIGGER_KEY)
    args = ["delivery", waiting, "--follow"]
    code, lines, err = ctrl_c_when(capsys, args, lambda lines: len(lines) >= 2)
    assert "Step delayed" in lines[0] + lines[1]
    assert code == 0, err
    assert "stopped following" in err
