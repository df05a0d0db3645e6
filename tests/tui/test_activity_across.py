"""Activity across every subscriber, grouped by cause, through Pilot on the local
service: `4` opens on the current subscriber, `a` widens to everyone, `f` keeps what
did not arrive, `b` groups it; Enter on a group lists its notifications, Enter on one
opens its timeline; `a` again narrows back to the subscriber."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from textual.pilot import Pilot

from inboxdesk.server.store.activity import StagedNotification
from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable, GroupTable
from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView
from tests.client.faults import FaultTransport
from tests.conftest import Service, ServiceFactory
from tests.feed_fixture import at, feed_fixture
from tests.production_shaped import production_shaped
from tests.tui.conftest import NOW, SIZE, Notices, app_for, until
from tests.tui.test_command_line import line
from tests.tui.test_inbox import opened


@pytest.fixture
def everyone(make_service: ServiceFactory) -> Service:
    # Times relative to the app's clock in tests, so its 24 hours select.
    return make_service(feed_fixture(NOW))


def _table(app: object, kind: type[ActivityTable] | type[GroupTable]) -> int:
    screen = app.screen  # type: ignore[attr-defined]
    if not isinstance(screen, ActivityScreen):
        return -1
    table = screen.query_one(kind)
    return table.row_count if table.display else -1


def _cells(app: object, column: str) -> list[str]:
    table = app.screen.query_one(GroupTable)  # type: ignore[attr-defined]
    return [str(table.get_cell(key, column)) for key in table.rows]


def _state(app: object) -> str:
    return str(app.screen.query_one("#activity-state").render())  # type: ignore[attr-defined]


async def test_everyone_grouped_by_cause_to_a_group_to_a_timeline_then_followed(
    everyone: Service,
    monkeypatch: pytest.MonkeyPatch,
    transport: FaultTransport,
    notices: Notices,
) -> None:
    """Everyone's activity grouped by cause, a group, its timeline, and back to jane's;
    then followed: a service unavailable a while is said once and the follow goes on
    asking; a notification staged meanwhile shows, first."""
    monkeypatch.setattr(ActivityScreen, "follow_fast", 0.05)
    app = app_for(everyone, transport=transport)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await opened(pilot, rows=1)
        await pilot.press("4")
        # jane's own: her newest in-app one and her refused SMS (the filler is not hers).
        await until(pilot, lambda: _table(app, ActivityTable) == 2, what="jane's activity")
        await pilot.press("a")
        await until(pilot, lambda: _table(app, ActivityTable) == 11, what="everyone, 24 h")

        assert "every subscriber · last 24 h" in _state(app)
        assert "scanned 11 (all)" in _state(app)
        await pilot.press("f", "b")
        await until(pilot, lambda: _table(app, GroupTable) == 4, what="four groups")
        assert _cells(app, "count") == ["4", "2", "2", "1"]
        assert _cells(app, "code")[0] == "21610" and "550 5.1.1" in _cells(app, "code")
        assert _cells(app, "examples")[0] == "ann, bob, cy"
        assert "4 groups of 9 notifications" in _state(app)
        await pilot.press("enter")
        await until(pilot, lambda: _table(app, ActivityTable) == 4, what="the group's four")
        assert "group provider error · sms · twilio 21610: 4 notifications" in _state(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="timeline")
        assert "21610" in app.screen.query_one(TimelineView).text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen), what="back")
        await pilot.press("escape")  # from the group back to the groups
        await until(pilot, lambda: _table(app, GroupTable) == 4, what="the groups again")
        await pilot.press("b", "f", "a")  # flat, every status, jane alone again
        await until(pilot, lambda: _table(app, ActivityTable) == 2, what="jane's again")
        assert "jane" in _state(app)
        await follow_through_a_503_to_a_staged_notification(pilot, everyone, transport, notices)


def _stage_newer(service: Service, subscriber: str) -> str:
    """A notification for `subscriber`, newer than any, staged while the app runs: a copy
    of one of theirs with a new id, transactionId and time."""
    db = service.store.read()
    row = db.execute(
        "SELECT n.doc, j.doc FROM notifications AS n JOIN jobs AS j ON j.notification_id = n.id "
        "JOIN subscribers AS s ON s.id = n.subscriber_pk WHERE s.subscriber_id = ? "
        "ORDER BY n.created_at DESC LIMIT 1",
        (subscriber,),
    ).fetchone()
    doc, job = json.loads(row[0]), json.loads(row[1])
    doc |= {"_id": "6a" + "0" * 22, "transactionId": "txn-live", "createdAt": at(-1, NOW)}
    job |= {"_id": "6b" + "0" * 22}
    service.store.insert_notifications([StagedNotification(doc, [(job, [])])])
    return str(doc["_id"])


async def follow_through_a_503_to_a_staged_notification(
    pilot: Pilot[None], everyone: Service, transport: FaultTransport, notices: Notices
) -> None:
    """From jane's Activity: `L` follows it through a 503 to a notification staged
    meanwhile, paused by moving off the top, live again back on it, then stopped."""
    app = pilot.app
    await pilot.press("L")
    assert _state(app).startswith("● live · jane")
    # The service unavailable a while: said once, and the follow goes on asking.
    feed = [r for r in transport.seen if r.url.path == "/v1/notifications"]
    transport.route["/v1/notifications"] = lambda r: httpx.Response(503, request=r)
    await until(
        pilot,
        lambda: (
            len([r for r in transport.seen if r.url.path == "/v1/notifications"]) >= len(feed) + 6
        ),
        what="three polls refused",
    )
    assert _state(app).startswith("● live · jane")
    assert len([n for n in notices if n.severity == "error"]) == 1
    del transport.route["/v1/notifications"]
    staged = _stage_newer(everyone, "jane")
    await until(pilot, lambda: _table(app, ActivityTable) == 3, what="the staged one")
    table = app.screen.query_one(ActivityTable)
    assert next(iter(table.rows)).value == staged and table.cursor_row == 0
    await pilot.press("j")
    await until(pilot, lambda: _state(app).startswith("⏸ paused"), what="paused")
    await pilot.press("k")
    await until(pilot, lambda: _state(app).startswith("● live"), what="live again")
    await pilot.press("L")
    await until(pilot, lambda: _state(app).startswith("jane"), what="stopped")


async def test_everyone_on_a_production_shaped_server_pages_and_says_its_402(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """Production's feed without `subscriberIds`, in pages of 50 (`hasMore`, no total)
    read on `m`, the count scanned said across them; and its 402 for a window older than
    the plan keeps, said in words where "loading…" was."""
    now = datetime.now(UTC)
    service = make_service(feed_fixture(now))
    seen: list[str] = []
    with production_shaped(service.url, retention_hours=6 * 24, seen=seen) as url:
        app = app_for(replace(service, url=url), clock=lambda: now)
        async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
            await opened(pilot, rows=1)
            await line(pilot, ":activity 5d")
            await until(pilot, lambda: _table(app, ActivityTable) == 50, what="a page")
            assert "last 5 d" in _state(app) and "scanned 50 of more" in _state(app)
            assert _state(app).endswith("m for more")
            await pilot.press("m")
            await until(pilot, lambda: "scanned 100 of more" in _state(app), what="two pages")
            await pilot.press("m")
            await until(pilot, lambda: "scanned 122 (all)" in _state(app), what="every page")
            assert _table(app, ActivityTable) == 122 and "m for more" not in _state(app)
            feed = [parse_qs(urlsplit(p).query) for p in seen if p.startswith("/v1/notif")]
            assert [q["page"] for q in feed] == [["0"], ["1"], ["2"]]
            assert all(q["limit"] == ["50"] and "subscriberIds" not in q for q in feed)

            await line(pilot, ":activity 7d")
            await until(pilot, lambda: "not read: The plan does not keep" in _state(app))
            said = notices.saying("The plan does not keep the activity feed back to")
            assert said and "Narrow the window" in said[0].message
            assert "loading" not in _state(app)
