"""Delivery from the client and the command line: every cause in words, from the local
service and from a production-shaped server sending production's looser shapes; the
failed scan and a server that sends the same page again."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.client import ClientOptions, InboxClient, ProtocolError
from inboxdesk.client.activity import ActivityFilter
from inboxdesk.core.delivery import finding
from inboxdesk.delivery import Cause, job_cause, notification_cause
from inboxdesk.text import cells
from tests.client.conftest import run
from tests.client.hostile_server import HostileServer, Seen, json_reply
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.delivery_fixture import FAILED, STORIES, delivery_fixture
from tests.loopback import loopback


@pytest.fixture
def delivered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    service = make_service(delivery_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def test_every_cause_in_words_from_the_local_service(delivered: Service) -> None:
    async def read() -> dict[str, Any]:
        async with InboxClient(delivered.url, STAGING_KEY) as client:
            page = await client.activity(ActivityFilter(subscriber_ids=["jane"]), limit=50)
            return {n.transaction_id: notification_cause(n) for n in page.data}

    causes = asyncio.run(read())
    assert {t: str(c.cause) for t, c in causes.items()} == {
        t: kind for t, (_, kind) in STORIES.items()
    }
    assert {t for t, c in causes.items() if c.failed} == FAILED
    words = {t: c.words for t, c in causes.items()}
    assert "sent is not delivered" in words["txn-11"]
    assert "turned email off for 'Order shipped'" in words["txn-pref-workflow"]
    assert "for every workflow" in words["txn-pref-global"]
    assert "Attempt to send to unsubscribed recipient" in words["txn-provider"]
    assert "no device token" in words["txn-no-token"]
    assert "no email address" in words["txn-no-email"]
    assert "no active tool integration" in words["txn-no-integration"]
    assert "condition" in words["txn-condition"]


def test_activity_lists_causes_and_failed_finds_what_did_not_arrive(
    delivered: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "activity", "jane")
    assert code == 0, err
    assert "WORKFLOW" in out and "CAUSE" in out and "sent, then bounced" in out
    assert "\x1b" not in out, "hostile detail texts are made safe"
    code, out, err = run(capsys, "activity", "jane", "--failed", "--json")
    body = json.loads(out)
    assert code == 0 and set(body) == {"data", "next"}
    assert {n["transactionId"] for n in body["data"]} == FAILED
    assert all(n["cause"]["failed"] for n in body["data"])
    assert "did not arrive" in err
    code, out, _ = run(capsys, "activity", "jane", "--channel", "tool", "--json")
    assert [n["transactionId"] for n in json.loads(out)["data"]] == ["txn-no-integration"]
    # On a channel, "did not arrive" is that channel's: txn-11's in-app message arrived,
    # its email bounced.
    code, out, _ = run(capsys, "activity", "jane", "--failed", "--channel", "in_app", "--json")
    assert code == 0 and json.loads(out)["data"] == []
    code, out, _ = run(capsys, "activity", "jane", "--failed", "--channel", "email", "--json")
    assert "txn-11" in {n["transactionId"] for n in json.loads(out)["data"]}
    code, _, err = run(capsys, "activity", "jane", "--channel", "fax")
    assert code == 2 and "fax" in err
    code, out, _ = run(capsys, "activity", "jane", "--limit", "3", "--json")
    listed = json.loads(out)
    assert len(listed["data"]) == 3 and listed["next"] == 1


def test_delivery_by_transaction_or_id_shows_the_timeline_with_secrets_masked(
    delivered: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "delivery", "txn-provider")
    assert code == 0, err
    assert "Unexpected provider error" in out and "Attempt to send" in out
    assert "sk_live_1234567890abcdef" not in out, "a secret in raw is masked"
    code, out, _ = run(capsys, "delivery", "txn-provider", "--json")
    (notification,) = json.loads(out)["data"]
    assert "sk_live_1234567890abcdef" not in out
    assert notification["cause"]["kind"] == "provider error"
    code, out, _ = run(capsys, "delivery", notification["_id"], "--subscriber", "jane")
    assert code == 0 and "provider refused it" in out
    code, _, err = run(capsys, "delivery", "txn-nowhere")
    assert code == 1 and "no notification" in err


LOOSE: dict[str, Any] = {
    "_id": "66b000000000000000000001",
    "_environmentId": "e",
    "_organizationId": "o",
    "_subscriberId": "5f0000000000000000000001",
    "transactionId": "loose-1",
    "createdAt": "2026-11-20T10:00:00.000Z",
    "channels": ["email", "webhook_v9"],
    "severity": "none",
    # No subscriber and no template: both deleted.
    "jobs": [
        {
            "_id": "j1",
            "type": "email",
            "status": "canceled",
            "step": {"_id": "s1", "active": True, "_templateId": "t", "filters": []},
            "executionDetails": [
                {
                    "_id": "d1",
                    "status": "Success",
                    "detail": "Step filtered by subscriber global preferences",
                    "isRetry": False,
                    "isTest": False,
                    "source": "Internal",
                    "raw": '{"enabled":true,"channels":{"email":false}}',
                }
            ],
        },
        # The trigger job after the others, with no providerId, payload or step.
        {"_id": "j0", "type": "trigger", "status": "completed", "executionDetails": []},
        # A status and a step type this version does not know: shown as sent.
        {
            "_id": "j2",
            "type": "webhook_v9",
            "status": "teleported",
            "providerId": "brand-new-provider",
            "executionDetails": [
                {"_id": "d2", "status": "Shrugged", "detail": "Something new", "source": "Mars"}
            ],
        },
    ],
}


def test_production_s_looser_shapes_are_read(capsys: pytest.CaptureFixture[str]) -> None:
    def answer(seen: Seen) -> Any:
        if seen.path == "/v1/notifications":
            return json_reply({"data": [LOOSE], "page": 0, "pageSize": 10, "hasMore": False})
        return json_reply({"data": LOOSE})

    with HostileServer(answer) as server:

        async def read() -> Any:
            async with InboxClient(server.url, STAGING_KEY) as client:
                return await client.activity_notification(LOOSE["_id"])

        found = asyncio.run(read())
    assert found.subscriber is None and found.template is None
    assert found.workflow_name == "(no workflow)"
    assert [str(j.type) for j in found.jobs] == ["email", "trigger", "webhook_v9"]
    assert found.jobs[2].status == "teleported" and found.jobs[2].execution_details[0].status
    cause = notification_cause(found)
    assert cause.cause is Cause.PREFERENCE and "every workflow" in cause.words
    assert job_cause(found.jobs[2]).cause is Cause.UNKNOWN
    assert "teleported" in job_cause(found.jobs[2]).words


def test_the_scan_stops_on_a_server_that_sends_the_same_page_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [
        {**LOOSE, "_id": f"66b0000000000000000000{n:02d}", "transactionId": f"t{n}"}
        for n in range(50)
    ]

    def answer(seen: Seen) -> Any:
        return json_reply({"data": items, "page": 0, "pageSize": 50, "hasMore": True})

    with HostileServer(answer) as server:
        monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.setenv("INBOXDESK_BASE_URL", server.url)
        monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)

        async def scan() -> None:
            async with InboxClient(server.url, STAGING_KEY, ClientOptions()) as client:
                await finding.scan(client, ActivityFilter(), limit=10_000)

        with pytest.raises(ProtocolError, match="again"):
            asyncio.run(scan())
        code, _, err = run(capsys, "activity", "jane", "--failed", "--limit", "500")
        assert code == 1 and "again" in err
        assert len(server.paths("/v1/notifications")) == 4, "stopped at the second page"


def test_the_scan_counts_the_notifications_it_read_not_pages_of_50(
    delivered: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "activity", "jane", "--limit", "50", "--json")
    every = len(json.loads(out)["data"])
    assert code == 0 and 0 < every < 50
    code, _, err = run(capsys, "activity", "jane", "--failed")
    assert code == 0
    assert f"read {every} notifications: {len(FAILED)} did not arrive" in err
    assert f"among {every} notifications read, from 1 page of 50" in err


def test_causes_and_provider_answers_are_printed_whole(
    delivered: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped: on one line, never cut. On a terminal: wrapped to its width, never cut."""
    code, out, _ = run(capsys, "activity", "jane", "--failed")
    assert code == 0 and "…" not in out
    assert "the provider refused it: Attempt to send to unsubscribed recipient" in out
    code, piped, _ = run(capsys, "delivery", "txn-provider")
    assert code == 0 and "…" not in piped
    # Each detail carries its day: a bounce a day later must not read as an hour later.
    assert re.search(r"^\d{4}-\d\d-\d\d \d\d:\d\d +Failed ", piped, re.M), piped
    raw = next(line for line in piped.splitlines() if " raw " in line)
    assert raw.rstrip().endswith("}"), "the provider's answer whole, on its line"
    # The code's meaning beside the provider's words (decision 94), never instead.
    meaning = next(line for line in piped.splitlines() if " meaning " in line)
    assert "Twilio 21610: the recipient replied STOP" in meaning and "texting START" in meaning
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "90")
    for argv in (["activity", "jane", "--failed"], ["delivery", "txn-provider"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and "…" not in out
        assert max(cells(line) for line in out.splitlines()) <= 90, argv
        joined = " ".join(out.split())
        assert "Attempt to send to unsubscribed recipient" in joined, argv


def test_a_transaction_lookup_keeps_only_what_carries_that_transaction(
    delivered: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    """A service (or a proxy) that drops the transactionId filter answers with everything:
    `message` and `delivery` show only what carries the transaction asked for."""
    real = delivered.http(None)

    def filter_dropped(request: httpx.Request) -> httpx.Response:
        query = [(k, v) for k, v in request.url.params.multi_items() if k != "transactionId"]
        answer = real.request(
            request.method,
            request.url.path,
            params=query,
            headers={k: v for k, v in request.headers.items() if k.lower() != "host"},
        )
        kept = {k: v for k, v in answer.headers.items() if k.lower() != "content-encoding"}
        return httpx.Response(answer.status_code, headers=kept, content=answer.content)

    with loopback(filter_dropped) as url:
        code, out, err = run(capsys, "delivery", "txn-provider", "--json", "--base-url", url)
        assert code == 0, err
        assert [n["transactionId"] for n in json.loads(out)["data"]] == ["txn-provider"]
        code, out, err = run(capsys, "message", "txn-11", "--json", "--base-url", url)
        assert code == 0, err
        assert {m["transactionId"] for m in json.loads(out)["data"]} == {"txn-11"}
        code, _, err = run(capsys, "delivery", "txn-nowhere", "--base-url", url)
        assert code == 1 and "no notification" in err
