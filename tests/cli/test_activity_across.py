"""`inboxdesk activity` without a subscriber: every subscriber of the environment over
the last 24 hours, the same filters, a bounded scan that says so, and `--by cause` with
the groups the app shows (in the one JSON envelope with `--json`)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from inboxdesk.client import InboxClient
from inboxdesk.client.feed import FeedFilter, scan_feed
from inboxdesk.core.delivery.grouping import group
from tests.client.conftest import run
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import FILLER, STORIES, recent_feed_fixture
from tests.production_shaped import production_shaped


@pytest.fixture
def everyone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Service:
    service = make_service(recent_feed_fixture())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    return service


def test_every_failed_sms_in_the_last_hour_by_cause(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "activity", "--failed", "--channel", "sms", "--since", "1h", "--by", "cause"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["COUNT", "CAUSE", "CHANNEL", "PROVIDER", "CODE"]
    assert lines[1].split()[:6] == ["4", "provider", "error", "sms", "twilio", "21610"]
    assert "ann, bob, cy" in lines[1] and "Login code" in lines[1]
    assert lines[2].split()[:6] == ["2", "provider", "error", "sms", "twilio", "21211"]
    assert lines[3].split()[:4] == ["1", "missing", "address", "sms"]
    assert len(lines) == 4
    assert "(7 notifications that did not arrive since " in err
    # The channel is the service's filter: only SMS notifications are read.
    assert "in 3 groups, scanned 7 (all))" in err
    assert "read 7 notifications: 7 grouped" in err


def test_by_cause_json_is_the_apps_groups_in_the_one_envelope(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "activity", "--by", "cause", "--json")
    assert code == 0
    body = json.loads(out)
    assert set(body) == {"data", "scanned", "more"}
    assert (body["scanned"], body["more"]) == (len(STORIES) - 1, False)  # 24 h: not the 3-day-old

    async def same() -> list[dict[str, object]]:
        after = (datetime.now(UTC) - timedelta(hours=24)).isoformat()
        async with InboxClient(everyone.url, STAGING_KEY) as client:
            scan = await scan_feed(client, FeedFilter(after=after))
        return [g.to_wire() for g in group(scan.found)]

    first = body["data"][0]
    assert (first["cause"], first["providerId"], first["code"], first["count"]) == (
        "provider error",
        "twilio",
        "21610",
        4,
    )
    assert first["examples"] == ["ann", "bob", "cy"] and first["workflows"] == ["Login code"]
    assert [(g["cause"], g["code"], g["count"]) for g in body["data"]] == [
        (g["cause"], g["code"], g["count"]) for g in asyncio.run(same())
    ]


def test_listing_across_everyone_names_each_subscriber_and_the_bound(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "activity", "--since", "7d", "--all", "--scan-pages", "2")
    assert code == 0, err
    rows = out.splitlines()
    assert rows[0].split()[:4] == ["WHEN", "NOTIFICATION", "SUBSCRIBER", "WORKFLOW"]
    assert [r.split()[3] for r in rows[1:4]] == ["jane", "ann", "bob"]
    assert len(rows) == 101
    assert "(100 notifications since " in err
    assert "scanned 100 of more: narrow the window or the filters; more from --page 2)" in err
    # Without --scan-pages the setting (40) bounds it: the whole feed is read.
    code, out, err = run(capsys, "activity", "--since", "7d", "--all", "--json")
    assert json.loads(out)["scanned"] == len(STORIES) + FILLER


def test_filters_without_a_subscriber(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    def who(*argv: str) -> list[str]:
        code, out, err = run(capsys, "activity", *argv, "--json")
        assert code == 0, err
        return [n["subscriber"]["subscriberId"] for n in json.loads(out)["data"]]

    assert who("--workflow", "login-code", "--since", "15m") == ["ann", "bob"]
    assert who("--severity", "high") == ["ann", "bob"]
    assert who("--email", "joe@example.test") == ["joe", "joe"]
    assert who("--topic", "orders") == ["ann"]
    assert who("--context", "tenant:acme") == ["jane"]
    assert who("--until", "100m", "--since", "4h") == ["ann", "joe"]
    # With a subscriber, the new filters apply to that subscriber alone.
    assert who("bob", "--workflow", "Login code", "--failed") == ["bob", "bob"]


def test_bad_filters_are_said_and_send_nothing(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "activity", "--context", "acme")
    assert code == 2 and "a context is TYPE:ID" in err
    code, _, err = run(capsys, "activity", "--since", "1h", "--until", "2h")
    assert code == 2 and "--since is after --until" in err
    code, _, err = run(capsys, "activity", "--severity", "urgent")
    assert code == 2 and "urgent" in err


def test_a_402_from_production_is_said_in_words(
    everyone: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with production_shaped(everyone.url, retention_hours=24) as url:
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        code, _, err = run(capsys, "activity", "--since", "7d", "--by", "cause")
    assert code == 1
    assert "The plan does not keep the activity feed back to" in err
    assert "Narrow the window" in err


def test_scan_pages_setting(
    everyone: Service, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INBOXDESK_SCAN_PAGES", "1")
    code, out, _ = run(capsys, "activity", "--since", "7d", "--by", "cause", "--json")
    assert code == 0
    assert (json.loads(out)["scanned"], json.loads(out)["more"]) == (50, True)


def test_one_subscriber_lists_as_before(
    everyone: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "activity", "bob")
    assert code == 0
    assert out.splitlines()[0].split()[:3] == ["WHEN", "NOTIFICATION", "WORKFLOW"]
    assert "from 1 page of 20; more from --page 1)" in err
