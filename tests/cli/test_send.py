"""`inboxdesk send` against the local service and a production-shaped server: the
transactionId and the answer's status in words, the confirmation, read-only."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from inboxdesk.client.triggers import STATUS_WORDS
from tests.command_line import run_with_key
from tests.conftest import Service, ServiceFactory
from tests.loopback import loopback
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    url: str,
    *args: str,
) -> tuple[int, str, str]:
    return run_with_key(monkeypatch, capsys, tmp_path, url, TRIGGER_KEY, *args)


@pytest.fixture
def service(make_service: ServiceFactory) -> Service:
    return make_service(trigger_fixture())


def test_send_triggers_once_and_says_the_status(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    payload = tmp_path / "payload.json"
    payload.write_text('{"name": "Ada"}')
    code, out, err = run(
        monkeypatch,
        capsys,
        tmp_path,
        service.url,
        "send",
        "in-app",
        "ada",
        "--payload",
        f"@{payload}",
        "--transaction-id",
        "txn_cli_one",
        "--yes",
    )
    assert code == 0, err
    assert out.splitlines() == [
        "transactionId txn_cli_one",
        f"status processed: {STATUS_WORDS['processed']}",
    ]
    service.store.worker.run_due()
    with service.http(TRIGGER_KEY) as http:
        (found,) = http.get("/v1/notifications", params={"transactionId": "txn_cli_one"}).json()[
            "data"
        ]
    assert found["payload"] == {"name": "Ada"}
    assert found["jobs"][0]["status"] == "completed"
    code, out, _ = run(monkeypatch, capsys, tmp_path, service.url, "history", "--json")
    assert code == 0 and "txn_cli_one" in out, "journalled"


def test_send_without_a_terminal_needs_yes_and_read_only_refuses(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code, out, err = run(monkeypatch, capsys, tmp_path, service.url, "send", "in-app", "ada")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--yes" in err
    code, _, err = run(
        monkeypatch, capsys, tmp_path, service.url, "--read-only", "send", "in-app", "ada", "-y"
    )
    assert code == 2 and "Read-only" in err
    code, _, err = run(
        monkeypatch, capsys, tmp_path, service.url, "send", "in-app", "ada", "--payload", "[1]"
    )
    assert code == 2 and "JSON object" in err
    service.store.worker.run_due()
    with service.http(TRIGGER_KEY) as http:
        assert http.get("/v1/notifications").json()["data"] == [], "nothing was sent"


def test_send_says_a_missing_workflow_in_words(
    service: Service,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code, _, err = run(monkeypatch, capsys, tmp_path, service.url, "send", "nope", "ada", "-y")
    assert code == 1 and "workflow_not_found" in err and "Traceback" not in err


@pytest.mark.parametrize("status", [*STATUS_WORDS, "something_new"])
def test_every_status_of_a_production_shaped_server_is_said_in_words(
    status: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    seen: list[dict[str, object]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/events/trigger":
            body = json.loads(request.content)
            seen.append(body)
            data = {"acknowledged": True, "status": status, "transactionId": body["transactionId"]}
            return httpx.Response(201, json={"data": data})
        if request.url.path == "/v1/environments/me":
            return httpx.Response(404, json={"message": "Cannot GET", "statusCode": 404})
        return httpx.Response(404, json={"message": "not here", "statusCode": 404})

    with loopback(answer) as url:
        code, out, err = run(monkeypatch, capsys, tmp_path, url, "send", "welcome", "ada", "-y")
    (body,) = seen
    transaction = str(body["transactionId"])
    assert transaction.startswith("txn_") and len(transaction) == 28
    words = STATUS_WORDS.get(status, "unknown status")
    assert words in out, (out, err)
    assert code == (0 if status == "processed" else 1)


def test_a_retry_asks_first_whether_the_trigger_arrived(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    triggers: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/events/trigger":
            triggers.append(request.method)
            return httpx.Response(503, json={"message": "busy", "statusCode": 503})
        if request.url.path == "/v1/notifications":
            assert request.url.params["transactionId"].startswith("txn_")
            return httpx.Response(200, json={"data": [{"_id": "x"}], "page": 0})
        return httpx.Response(404, json={"message": "not here", "statusCode": 404})

    with loopback(answer) as url:
        code, out, err = run(monkeypatch, capsys, tmp_path, url, "send", "welcome", "ada", "-y")
    assert triggers == ["POST"], "sent once: the feed said it had arrived"
    assert code == 0 and "not sent again" in out, err
