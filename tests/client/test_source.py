"""The inbox's one adapter for the two deployments (client/source.py) on the real local
service: what each source can do, and that each lists and counts its own way; the
client learns which one a service has from the v2 list's first answer (decision 110)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inboxdesk.client import NoV2Inbox
from inboxdesk.client.source import V1, V2, InboxSource, on_either, source_of
from inboxdesk.core.inbox import ends
from inboxdesk.core.inbox.plans import able
from inboxdesk.core.inbox.tabs import InboxTab, tabs_of
from inboxdesk.models.feed import FeedItem
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.writes.before import unread_before
from tests.client.conftest import point_at, run
from tests.conftest import Service, ServiceFactory
from tests.core.inbox_fixture import client_for

UNREAD = {"archived": False, "snoozed": False, "read": False}


def test_each_source_says_what_it_can_do() -> None:
    assert tabs_of(V2.abilities) == tuple(InboxTab)
    assert tabs_of(V1.abilities) == (InboxTab.INBOX, InboxTab.UNREAD, InboxTab.UNSEEN, InboxTab.ALL)
    for action in ("archive", "unarchive", "archive_all", "archive_all_read", "snooze"):
        assert able(action, V2.abilities) and not able(action, V1.abilities), action
    assert able("mark_read", V1.abilities) and able("mark_all_read", V1.abilities)
    # A filter on a state the v1 feed lacks is met by False only: nothing is archived.
    assert V1.abilities.can_list({"archived": False, "read": True})
    assert not V1.abilities.can_list({"snoozed": True})
    assert (V2.abilities.total, V1.abilities.total) == (False, True)
    assert (V2.abilities.note, V1.abilities.note) == ("", "older service")


async def test_the_v2_source_lists_counts_and_is_kept(service: Service) -> None:
    async with client_for(service) as client:
        assert source_of(client) is V2, "the v2 inbox until told otherwise"
        first = await V2.page(client, "jane", UNREAD, 0, 3)
        assert len(first.items) == 3 and first.has_more and first.total is None
        assert all(isinstance(item, InboxNotification) and not item.is_read for item in first.items)
        # Rows by offset: the second page of 3 starts where the first ended.
        rest = await V2.rows(client, "jane", UNREAD, 3, 100)
        assert len(rest.items) == 8 - 3 and not rest.has_more
        assert not {i.id for i in first.items} & {i.id for i in rest.items}
        counts = await V2.counts(client, "jane")
        assert (counts.unread.value, counts.unseen.value) == (8, 6)
        assert source_of(client) is V2
        unread = await on_either(client, lambda s: unread_before(client, "jane", s))
        assert unread.count == 8


async def test_an_older_service_is_found_once_and_read_through_the_v1_source(
    make_service: ServiceFactory,
) -> None:
    service = make_service(v2_inbox=False)
    async with client_for(service) as client:
        with pytest.raises(NoV2Inbox):
            await V2.page(client, "jane", UNREAD, 0, 10)
        assert source_of(client) is V1, "the client keeps what the v2 list said"
        page = await V1.page(client, "jane", UNREAD, 0, 5)
        assert all(isinstance(item, FeedItem) and not item.read for item in page.items)
        assert len(page.items) == 5 and page.has_more and page.total is not None
        # With limit 1 a page number is an offset: the end search probes row by row.
        end = await ends.find_end(client, "jane", 0, UNREAD, V1)
        assert end.length == 8
        counts = await V1.counts(client, "jane")
        assert (counts.unread.value, counts.unseen.value) == (8, 6)

    # A fresh client tries the v2 inbox first, and falls to the v1 feed on its 404.
    async with client_for(service) as client:
        tried: list[InboxSource] = []

        async def listing(source: InboxSource) -> int:
            tried.append(source)
            return len((await source.page(client, "jane", {"read": False}, 0, 100)).items)

        assert await on_either(client, listing) == 8
        assert tried == [V2, V1]
        exact = await ends.exact_notification_counts(client, "jane")
        assert (exact.unread.value, exact.unseen.value) == (8, 6)


def test_the_command_line_reads_an_older_service_through_its_v1_source(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    make_service: ServiceFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    point_at(monkeypatch, tmp_path, make_service(v2_inbox=False))
    code, out, err = run(capsys, "messages", "jane", "--unread", "--limit", "3")
    assert code == 0, err
    assert "no v2 inbox: the v1 feed, archived and snoozed messages included" in err
    headings = out.splitlines()[0].split()
    assert headings == ["ID", "READ", "SEEN", "CREATED", "STATUS", "TITLE", "PREVIEW"]
    assert "(3 shown; more on --page 1, or --all for every one; 8 unread, 6 unseen)" in err
    code, out, err = run(capsys, "messages", "jane", "--unread", "--all", "--ids")
    assert code == 0 and len(out.split()) == 8, err
    code, out, _ = run(capsys, "messages", "jane", "--unseen", "--all", "--json")
    assert code == 0 and len(json.loads(out)["data"]) == 6
    code, out, err = run(capsys, "messages", "jane", "--archived")
    assert code == 1 and not out
    assert "no v2 inbox, so nothing can be told archived or snoozed" in err
    # A mark-all lists its before on the v1 feed too, and can be undone.
    code, out, err = run(capsys, "mark-all", "jane", "read", "--yes")
    assert code == 0 and "Marked 8 messages read." in out, err
    code, out, err = run(capsys, "counts", "jane", "--json")
    assert code == 0 and json.loads(out)["data"]["unread"]["count"] == 0, out
