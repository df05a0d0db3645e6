"""Activity across every subscriber on a production-shaped server, through Pilot: its
pages and its 402. (Everyone's activity by keys, grouped, followed, and by the `:` line:
tests/tui/test_command_line.py.)"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

from inboxdesk.tui.activity.screen import ActivityTable
from tests.conftest import ServiceFactory
from tests.feed_fixture import feed_fixture
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, app_for, until
from tests.tui.test_command_line import line, state_line, table_rows
from tests.tui.test_inbox import opened


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
            await until(pilot, lambda: table_rows(app, ActivityTable) == 50, what="a page")
            assert "last 5 d" in state_line(app) and "scanned 50 of more" in state_line(app)
            assert state_line(app).endswith("m for more")
            await pilot.press("m")
            await until(pilot, lambda: "scanned 100 of more" in state_line(app), what="two pages")
            await pilot.press("m")
            await until(pilot, lambda: "scanned 122 (all)" in state_line(app), what="every page")
            assert table_rows(app, ActivityTable) == 122 and "m for more" not in state_line(app)
            feed = [parse_qs(urlsplit(p).query) for p in seen if p.startswith("/v1/notif")]
            assert [q["page"] for q in feed] == [["0"], ["1"], ["2"]]
            assert all(q["limit"] == ["50"] and "subscriberIds" not in q for q in feed)

            await line(pilot, ":activity 7d")
            await until(pilot, lambda: "not read: The plan does not keep" in state_line(app))
            said = notices.saying("The plan does not keep the activity feed back to")
            assert said and "Narrow the window" in said[0].message
            assert "loading" not in state_line(app)
