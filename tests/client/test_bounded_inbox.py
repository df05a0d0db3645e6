"""The inbox's pages are bounded before they are used, as Activity's are: on the v2
list and the v1 feed, a message that cannot be read costs itself (left out, and said),
a message listed twice is kept once, a page holds at most what was asked, and data
nested deep reaches no view's recursion. Offsets, cursors and the end search still
count every row the service holds, readable or not."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.client import ClientOptions, InboxClient
from inboxdesk.client.source import V2
from inboxdesk.core.inbox import ends
from tests.client.conftest import run
from tests.conftest import STAGING_KEY, ServiceFactory, jane_message
from tests.hostile import inbox_listed_badly
from tests.production_shaped import production_shaped

# jane's v2 list, newest first, is jane_message(11) down to jane_message(0).
UNREADABLE = jane_message(7)  # the fifth of the list
DEEP = jane_message(9)


@pytest.fixture
def against(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    def point(url: str) -> None:
        monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.setenv("INBOXDESK_BASE_URL", url)
        monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
        monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)

    return point


async def _pages(url: str) -> tuple[Any, Any, ends.End]:
    async with InboxClient(url, STAGING_KEY, ClientOptions()) as client:
        first = await client.notifications("jane", limit=5)
        rest = await client.notifications("jane", limit=50, after=first.after)
        end = await ends.find_end(client, "jane", 0, {}, V2)
        return first, rest, end


def test_a_bad_v2_page_costs_its_bad_items_only_and_paging_counts_every_row(
    make_service: ServiceFactory, against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service()
    with production_shaped(service.url, rewrite=inbox_listed_badly(UNREADABLE, DEEP)) as url:
        first, rest, end = asyncio.run(_pages(url))
        # Asked 5, sent 6 (the first twice): the first 5 kept, the first once.
        assert [n.id for n in first.data] == [jane_message(n) for n in (11, 10, 9, 8)]
        assert first.sent == 4 and first.after == jane_message(8)
        assert any("where 5 were asked" in s for s in first.said)
        assert any("twice on one page" in s for s in first.said)
        # The next page, from the cursor: the unreadable one left out, and said.
        assert [n.id for n in rest.data] == [jane_message(n) for n in range(6, -1, -1)]
        assert any("could not be read" in s for s in rest.said)
        # The end search counts the unreadable row: the list holds 12.
        assert end.length == 12 and end.last.rows == 12
        against(url)
        code, out, err = run(capsys, "messages", "jane", "--all-states", "--json")
        assert code == 0, err
        ids = [n["id"] for n in json.loads(out)["data"]]
        assert len(ids) == len(set(ids)) == 11 and UNREADABLE not in ids
        assert "could not be read" in err and "twice on one page" in err
        code, out, err = run(capsys, "messages", "jane", "--all-states")
        assert code == 0, err
        assert "could not be read" in err
        code, out, err = run(capsys, "message", DEEP, "--subscriber", "jane")
        assert code == 0, err
        code, out, err = run(capsys, "messages", "jane", "--all-states", "--all", "--json")
        assert code == 0, err
        assert len(json.loads(out)["data"]) == 11


def test_a_bad_v1_feed_page_costs_its_bad_items_only(
    make_service: ServiceFactory, against: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    service = make_service(v2_inbox=False)
    with production_shaped(service.url, rewrite=inbox_listed_badly(UNREADABLE, DEEP)) as url:
        against(url)
        code, out, err = run(capsys, "messages", "jane", "--limit", "5", "--json")
        assert code == 0, err
        ids = [n["id"] for n in json.loads(out)["data"]]
        assert len(ids) == len(set(ids)) == 4
        assert "where 5 were asked" in err and "twice on one page" in err
        code, out, err = run(capsys, "messages", "jane", "--limit", "50", "--json")
        assert code == 0, err
        ids = [n["id"] for n in json.loads(out)["data"]]
        assert len(ids) == len(set(ids)) and UNREADABLE not in ids and DEEP in ids
        assert "1 message of this page could not be read" in err
        code, out, err = run(capsys, "message", DEEP, "--subscriber", "jane")
        assert code == 0, err
