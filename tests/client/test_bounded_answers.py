"""Every answer from a server is bounded before it is used (the fourth hostile pass).

- a provider answer (`raw`) nested 100,000 or 600 deep: `activity`, `delivery` and
  `--json` show it as its text, with no RecursionError and no minutes of work;
- a page holds at most what was asked, each notification once, and an item that cannot
  be read costs itself, not the page; each is said;
- the failed-only scan keeps a notification once when the feed moves between two reads,
  and stops on a feed that cycles between any number of pages;
- a subscriber's preferences keep a workflow listed as both critical and not once, and
  leave out one without an identifier, saying so.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.client import ClientOptions, InboxClient, ProtocolError
from inboxdesk.client.activity import ActivityFilter
from inboxdesk.core.delivery import finding
from inboxdesk.core.preferences import table_of
from inboxdesk.delivery import provider_message, shown_raw
from inboxdesk.models.preference import SubscriberPreferences
from tests.client.conftest import run
from tests.client.hostile_server import (
    HostileServer,
    Seen,
    activity_feed,
    activity_item,
    json_reply,
)
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.hostile import (
    DEEP_RAW,
    DEEPISH_RAW,
    HOSTILE_KEY,
    SUBSCRIBER,
    hostile_delivery_fixture,
    preference_unchanged,
)
from tests.preference_fixture import preference_fixture
from tests.production_shaped import production_shaped


@pytest.fixture
def against(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    def point(url: str, key: str = STAGING_KEY) -> None:
        monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        monkeypatch.setenv("NOVU_SECRET_KEY", key)
        monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)

    return point


def test_a_deeply_nested_provider_answer_is_shown_as_text(
    make_service: ServiceFactory, against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service(hostile_delivery_fixture())
    against(service.url, HOSTILE_KEY)
    started = time.monotonic()
    code, out, err = run(capsys, "activity", SUBSCRIBER)
    assert code == 0, err
    assert "tx-deep-0" in out or "3 notifications" in err
    code, out, err = run(capsys, "activity", SUBSCRIBER, "--json")
    assert code == 0, err
    listed = json.loads(out)["data"]
    raws = {n["transactionId"]: n["jobs"][0]["executionDetails"][0]["raw"] for n in listed}
    assert raws["tx-deep-0"] == DEEP_RAW and raws["tx-deep-1"] == DEEPISH_RAW
    for transaction in ("tx-deep-0", "tx-deep-1"):
        code, out, err = run(capsys, "delivery", transaction)
        assert code == 0, err
        assert "raw" in out
    assert time.monotonic() - started < 20, "no minutes of indenting"
    # The rule itself: the text as it came, no RecursionError.
    assert shown_raw(DEEP_RAW) == DEEP_RAW and shown_raw(DEEPISH_RAW) == DEEPISH_RAW
    assert provider_message(DEEP_RAW).startswith("[[[")
    assert json.loads(shown_raw('{"a": {"message": "x"}}')) == {"a": {"message": "x"}}


def test_a_page_is_bounded_deduplicated_and_one_bad_item_costs_itself(
    against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with HostileServer(activity_feed("flood")) as server:
        against(server.url)
        code, out, err = run(capsys, "activity", "jane", "--limit", "20", "--json")
        assert code == 0, err
        assert len(json.loads(out)["data"]) == 20
        assert "20,000 notifications where 20 were asked" in err
    with HostileServer(activity_feed("doubled")) as server:
        against(server.url)
        code, out, err = run(capsys, "activity", "jane", "--json")
        assert code == 0, err
        ids = [n["_id"] for n in json.loads(out)["data"]]
        assert ids == [activity_item(n)["_id"] for n in (1, 2, 4)]
        assert "1 notification of this page could not be read" in err
        assert "twice on one page" in err


async def _scan(url: str) -> finding.Scan:
    async with InboxClient(url, STAGING_KEY, ClientOptions()) as client:
        return await finding.scan(client, ActivityFilter(subscriber_ids=["jane"]), limit=10_000)


def test_the_scan_keeps_each_notification_once_and_stops_on_a_cycle(
    against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    with HostileServer(activity_feed("moving")) as server:
        found = asyncio.run(_scan(server.url))
    assert len(found.found) == len({n.id for n in found.found}) == 109
    assert any("came again on a later page" in s for s in found.said)
    with HostileServer(activity_feed("cycle")) as server:
        with pytest.raises(ProtocolError, match="again"):
            asyncio.run(_scan(server.url))
        assert len(server.paths("/v1/notifications")) == 4, "stopped at the fourth page"
        against(server.url)
        code, _, err = run(capsys, "activity", "jane", "--failed", "--limit", "500")
        assert code == 1 and "again" in err


def _listing(*workflows: dict[str, Any]) -> SubscriberPreferences:
    return SubscriberPreferences.model_validate(
        {
            "global": {"enabled": True, "channels": {"email": True}},
            "workflows": [
                {"enabled": True, "channels": {"email": True}, "workflow": w} for w in workflows
            ],
        }
    )


def test_preferences_keep_a_workflow_once_and_leave_out_one_without_a_name(
    against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    both = {"identifier": "security", "slug": "security", "name": "Security"}
    nameless = {"identifier": "", "slug": "", "name": "No name"}
    listed = _listing(both, nameless, {"identifier": "orders", "name": "Orders"})
    table = table_of("jane", listed, _listing(both))
    assert [r.workflow for r in table.rows] == ["", "orders", "security"]
    assert table.row("security") is not None and table.row("security").critical  # type: ignore[union-attr]
    assert any("without an identifier" in s for s in table.said)
    assert any("security more than once" in s for s in table.said)

    def answer(seen: Seen) -> Any:
        critical = "criticality=critical" in seen.query
        body = _listing(both) if critical else listed
        return json_reply({"data": body.model_dump(by_alias=True)})

    with HostileServer(answer) as server:
        against(server.url)
        code, out, err = run(capsys, "preferences", "jane")
        assert code == 0, err
        assert out.count("Security") == 1
        assert "more than once" in err and "without an identifier" in err


def test_set_preference_does_not_report_a_change_its_answer_does_not_show(
    make_service: ServiceFactory, against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service(preference_fixture())
    with production_shaped(service.url, rewrite=preference_unchanged) as url:
        against(url)
        argv = ("set-preference", "ada.lovelace", "--channel", "email", "--on")
        code, out, err = run(capsys, *argv, "--workflow", "order-shipped")
        assert code == 1, err
        assert "answer shows it off: the change may not have been made" in err
        code, out, err = run(capsys, *argv, "--workflow", "order-shipped", "--json")
        assert code == 1 and json.loads(out)["data"]["preference"]["channels"]["email"] is False
