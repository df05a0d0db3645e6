"""`inboxdesk message X`: by transactionId first, then by id, with progress and a clear
miss, against the local service; and the lookup under it."""

from __future__ import annotations

import copy
import functools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.client import ClientOptions, InboxClient, LimitExceeded
from inboxdesk.client.limits import Limits
from inboxdesk.client.source import V1, V2
from inboxdesk.core.inbox.loading import locate
from inboxdesk.core.inbox.lookup import find
from inboxdesk.core.inbox.tabs import InboxTab
from inboxdesk.server.fixtures import read_fixture
from tests.client.conftest import run
from tests.conftest import EXAMPLE, JOE_MESSAGES, STAGING_KEY, Service, ServiceFactory, jane_message

MANY = 2_345  # three pages of /v1/messages; ada's odd-numbered messages are unread
START = datetime(2025, 1, 1, tzinfo=UTC)


@functools.cache
def crowded() -> dict[str, Any]:
    """The example, with MANY older in-app messages for ada, some sharing a transaction.
    Made once a process: the same object each time, so its template's key is hashed once
    (nothing changes it)."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    staging = fixture["environments"][0]
    staging["subscribers"].append({"subscriberId": "ada", "firstName": "Ada"})
    staging["messages"] += [
        {
            "_id": f"66a{n:021x}",
            "subscriberId": "ada",
            "workflow": "Order shipped",
            "createdAt": (START + timedelta(minutes=n)).isoformat().replace("+00:00", "Z"),
            "title": f"Old {n}",
            "read": n % 2 == 0,
            "transactionId": f"ada-{n // 2}",
        }
        for n in range(MANY)
    ]
    return fixture


def test_a_transaction_id_shows_its_message(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "message", "txn-3")
    assert code == 0, err
    assert jane_message(3) in out and "jane" in out and "txn-3" in out
    assert "by transactionId" in err and "searched" not in err
    code, out, _ = run(capsys, "message", "txn-3", "--json")
    body = json.loads(out)
    assert code == 0 and list(body) == ["data"]
    assert [m["id"] for m in body["data"]] == [jane_message(3)]
    code, out, _ = run(capsys, "message", "txn-3", "--ids")
    assert (code, out) == (0, f"{jane_message(3)}\n")


def test_an_id_is_found_among_a_subscribers_or_the_environments(
    env: Service, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "message", JOE_MESSAGES[1])
    assert code == 0, err
    assert JOE_MESSAGES[1] in out and "joe" in out and "by id" in err
    code, _, err = run(capsys, "message", JOE_MESSAGES[1], "--subscriber", "jane")
    assert code == 1
    assert err.strip().splitlines() == [
        "searched 1 of 1 pages of messages for that id",
        f"inboxdesk: no message has the transactionId or id '{JOE_MESSAGES[1]}' among "
        "subscriber jane's messages.",
    ]
    code, out, _ = run(capsys, "message", JOE_MESSAGES[1], "--subscriber", "joe", "--json")
    assert code == 0 and [m["id"] for m in json.loads(out)["data"]] == [JOE_MESSAGES[1]]


def test_a_miss_is_one_line_and_exit_1(env: Service, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "message", "nothing-\x1b[31m-like-this")
    assert code == 1 and out == ""
    assert err.count("\n") == 2  # the progress line, and the miss
    assert "\x1b" not in err and "␛" in err and "this environment's messages" in err


def test_a_transaction_of_several_messages_and_a_long_scan(
    make_service: ServiceFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    service = make_service(fixture=crowded())
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", service.url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    code, out, _ = run(capsys, "message", "ada-7", "--json")
    assert code == 0
    assert sorted(m["id"] for m in json.loads(out)["data"]) == [
        f"66a{14:021x}",
        f"66a{15:021x}",
    ]
    oldest = f"66a{0:021x}"
    code, out, err = run(capsys, "message", oldest, "--subscriber", "ada")
    assert code == 0 and oldest in out
    assert "searched 1 of 3 pages" in err  # the page that holds it is not counted as searched


async def test_the_lookup_gives_positions_and_stops_at_max_pages(
    make_service: ServiceFactory,
) -> None:
    service = make_service(fixture=crowded())
    oldest = f"66a{0:021x}"
    seen: list[tuple[int, int | None]] = []
    async with InboxClient(service.url, STAGING_KEY) as client:
        found = await find(client, oldest, "jane", widen=True, progress=lambda *p: seen.append(p))
        assert found is not None and found.by == "id"
        assert seen == [(1, 1), (1, 3), (2, 3)]  # jane's one page, then the environment's
        # Its row in each tab's own listing (the v2 inbox's filters and order).
        assert await locate(client, "ada", oldest, InboxTab.ALL, V2) == MANY - 1
        newest_unread = f"66a{MANY - 2:021x}"
        assert await locate(client, "ada", newest_unread, InboxTab.UNREAD, V2) == 0
        assert await locate(client, "ada", oldest, InboxTab.UNREAD, V2) is None  # read
    bounded = ClientOptions(limits=Limits(max_pages=2))
    async with InboxClient(service.url, STAGING_KEY, bounded) as client:
        with pytest.raises(LimitExceeded, match="2 pages"):
            await find(client, oldest, "ada")


async def test_a_message_is_placed_in_the_tabs_that_show_it(service: Service) -> None:
    """An archived message is on the Archived and All tabs, never on Inbox or Unread."""
    async with InboxClient(service.url, STAGING_KEY) as client:
        await client.notification_action("jane", jane_message(4), "archive")
        found = await find(client, "txn-4")
        assert found is not None and found.by == "transactionId"
        message_id = found.messages[0].id or ""
        assert await locate(client, "jane", message_id, InboxTab.ARCHIVED, V2) == 0
        assert await locate(client, "jane", message_id, InboxTab.INBOX, V2) is None
        assert await locate(client, "jane", message_id, InboxTab.UNREAD, V2) is None
        assert await locate(client, "jane", message_id, InboxTab.ALL, V2) == 7
        # An older service's v1 feed has no archive: the message is on its Inbox tab.
        assert await locate(client, "jane", message_id, InboxTab.INBOX, V1) == 7
