"""Activity across every subscriber, grouped by cause, by its keys and by the `:` line
(decision 121 and 122), on a real config file under a temp HOME. By keys: `4` opens on
the current subscriber, `a` widens to everyone, `f` keeps what did not arrive, `b`
groups it; Enter on a group lists its notifications, Enter on one opens its timeline;
`a` again narrows back to the subscriber, whose Activity `L` follows. By the line: a bad
line says what it expected and changes nothing; every failed SMS in the last hour is one
line, whose groups name each cause with counts; `:view save` writes the view to the
config file, the palette and the line's completion offer it, an alias runs its line; the
view reopens with `:NAME`, read from the file as every line reads it, and in the next
process on the command line with `activity --view NAME`. Served by a production-shaped
server: its feed without `subscriberIds`, in pages of 50 (`hasMore`, no total) read on
`m`, and its 402 for a window older than the plan keeps."""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.config import ConfigFile, resolve
from inboxdesk.server.store.activity import StagedNotification
from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable, GroupTable
from inboxdesk.tui.activity.timeline import TimelineScreen, TimelineView
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.writes import WriteStore
from tests.client.conftest import run
from tests.client.faults import FaultTransport
from tests.command_line import real_profile
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.feed_fixture import at, feed_fixture
from tests.production_shaped import production_shaped
from tests.tui.conftest import SIZE, Notices, line, ran, until
from tests.tui.test_inbox import opened

SMS_GROUPS = [
    ("4", "provider error", "21610"),
    ("2", "provider error", "21211"),
    ("1", "missing address", ""),
]


def _groups(app: object) -> list[tuple[str, str, str]]:
    screen = app.screen  # type: ignore[attr-defined]
    if not isinstance(screen, ActivityScreen) or not screen.query_one(GroupTable).display:
        return []
    table = screen.query_one(GroupTable)
    return [
        tuple(str(table.get_cell(k, c)) for c in ("count", "cause", "code"))  # type: ignore[misc]
        for k in table.rows
    ]


def table_rows(app: object, kind: type[ActivityTable] | type[GroupTable]) -> int:
    screen = app.screen  # type: ignore[attr-defined]
    if not isinstance(screen, ActivityScreen):
        return -1
    table = screen.query_one(kind)
    return table.row_count if table.display else -1


def _cells(app: object, column: str) -> list[str]:
    table = app.screen.query_one(GroupTable)  # type: ignore[attr-defined]
    return [str(table.get_cell(key, column)) for key in table.rows]


def state_line(app: object) -> str:
    return str(app.screen.query_one("#activity-state").render())  # type: ignore[attr-defined]


class Everyone:
    """The service of many subscribers' notifications, made as of `now`, the config
    file of a real profile on it, and the path and query of each request production's
    shape saw (`seen`)."""

    def __init__(self, service: Service, now: datetime, path: Path, seen: list[str]) -> None:
        self.service = service
        self.now = now
        self.path = path
        self.seen = seen


@pytest.fixture
def everyone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_service: ServiceFactory
) -> Iterator[Everyone]:
    """A real profile: the config file where the user's own lives, under a temp HOME,
    holding the profile `real` (the default) and an alias; nothing in the environment
    chooses. Its notifications' times are relative to now: the app's clock. The profile
    reaches the service through a production-shaped server whose plan keeps 6 days."""
    now = datetime.now(UTC)
    service: Service = make_service(feed_fixture(now))
    seen: list[str] = []
    with production_shaped(service.url, retention_hours=6 * 24, seen=seen) as url:
        config = real_profile(monkeypatch, tmp_path, url, STAGING_KEY)
        with config.path.open("a") as file:
            file.write('[aliases]\nsmsfail = ":activity failed sms 1h by:cause"\n')
        yield Everyone(service, now, config.path, seen)


def started(transport: FaultTransport) -> InboxdeskApp:
    """The app as `inboxdesk` starts it, its settings resolved from the file anew; its
    client the tests' (as the settings say, with retries short and a transport that can
    refuse), so that a follow meets a service unavailable a while."""
    settings = resolve({})
    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=2, base=0.05, deadline=3))
    client = InboxClient(settings.base_url, settings.require_key(), options, transport)
    app = make_app(settings, client=client, subscriber_id="jane", writes=WriteStore(None))
    app.animation_level = "none"
    return app


async def test_everyone_s_failures_by_cause_by_keys_and_by_one_line_saved_and_reopened(
    everyone: Everyone,
    notices: Notices,
    transport: FaultTransport,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Everyone's activity grouped by cause by its keys, a group, its timeline, and back
    to jane's, then followed: a service unavailable a while is said once and the follow
    goes on asking; a notification staged meanwhile shows, first. Then every failed SMS
    in the last hour by one line, saved as a view, reopened in the app and by the
    command line. Last, everyone over 5 days in production's pages of 50, and its 402
    for a window older than the plan keeps."""
    monkeypatch.setattr(ActivityScreen, "follow_fast", 0.05)
    first = started(transport)
    async with first.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        app = first
        await opened(pilot, rows=1)
        # A bad line says what it expected, and the inbox stays as it was.
        await line(pilot, ":activity fax")
        assert notices.saying("expected failed, a channel")
        assert first.screen.id == "inbox"

        await pilot.press("4")
        # jane's own: her newest in-app one and her refused SMS (the filler is not hers).
        await until(pilot, lambda: table_rows(app, ActivityTable) == 2, what="jane's activity")
        await pilot.press("a")
        await until(pilot, lambda: table_rows(app, ActivityTable) == 11, what="everyone, 24 h")
        assert "every subscriber · last 24 h" in state_line(app)
        assert "scanned 11 (all)" in state_line(app)
        await pilot.press("f", "b")
        await until(pilot, lambda: table_rows(app, GroupTable) == 4, what="four groups")
        assert _cells(app, "count") == ["4", "2", "2", "1"]
        assert _cells(app, "code")[0] == "21610" and "550 5.1.1" in _cells(app, "code")
        assert _cells(app, "examples")[0] == "ann, bob, cy"
        assert "4 groups of 9 notifications" in state_line(app)
        await pilot.press("enter")
        await until(pilot, lambda: table_rows(app, ActivityTable) == 4, what="the group's four")
        assert "group provider error · sms · twilio 21610: 4 notifications" in state_line(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="timeline")
        assert "21610" in app.screen.query_one(TimelineView).text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen), what="back")
        await pilot.press("escape")  # from the group back to the groups
        await until(pilot, lambda: table_rows(app, GroupTable) == 4, what="the groups again")
        await pilot.press("b", "f", "a")  # flat, every status, jane alone again
        await until(pilot, lambda: table_rows(app, ActivityTable) == 2, what="jane's again")
        assert "jane" in state_line(app)
        await follow_through_a_503_to_a_staged_notification(pilot, everyone, transport, notices)

        # The same by one line (the staged one is in-app: no SMS group counts it).
        await ran(pilot, ":activity failed sms 1h by:cause")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="three causes with counts")
        await ran(pilot, ":view save sms-hour")
        await until(pilot, lambda: "sms-hour" in ConfigFile.load().views(), what="saved")
        saved = ConfigFile.load().views()["sms-hour"]
        assert saved["failed"] and saved["channel"] == "sms" and saved["window"] == "1h"
        assert saved["grouping"] == "cause" and saved["everyone"]
        # The palette lists the saved view and the alias.
        titles = [c.title for c in first.get_system_commands(first.screen)]
        assert "Open view: sms-hour" in titles and "Run alias: smsfail" in titles

        # The suggester completes a saved view's name as it is typed. (`:sub` switches
        # the subscriber in the Subscriber view's walk.)
        await pilot.press("colon", "s", "m")
        box = first.screen.query_one(Input)
        assert box.value == ":sm" and box.suggester is not None
        assert await box.suggester.get_suggestion(box.value) == ":sms-hour"
        await pilot.press("escape")

        # The alias runs its line.
        await line(pilot, ":smsfail")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="the alias's groups")
        assert "last 1 h" in str(first.screen.query_one("#activity-state").render())

        # The saved view, read from the file as every line reads it, over an Activity
        # changed meanwhile: its groups again.
        await ran(pilot, ":activity")
        await until(pilot, lambda: not _groups(first), what="Activity flat, jane's")
        await ran(pilot, ":sms-hour")
        await until(pilot, lambda: _groups(first) == SMS_GROUPS, what="the view again")
        assert "last 1 h" in str(first.screen.query_one("#activity-state").render())
        await pages_of_50_and_a_402(pilot, everyone, notices)
    profile = everyone.path
    assert stat.S_IMODE(profile.stat().st_mode) == 0o600
    saved = ConfigFile.load().views()["sms-hour"]
    assert saved["profile"] == "real" and saved["everyone"] and saved["window"] == "1h"
    assert saved["environment_id"]  # the key's environment, learned on connecting

    # The command line runs the view the app saved: the same groups (in a thread of its
    # own, as it runs its own event loop).
    code, out, err = await asyncio.to_thread(run, capsys, "activity", "--view", "sms-hour")
    assert code == 0, err
    rows = [line.split()[:6] for line in out.splitlines()[1:4]]
    assert rows[0] == ["4", "provider", "error", "sms", "twilio", "21610"]
    assert rows[1] == ["2", "provider", "error", "sms", "twilio", "21211"]
    assert rows[2][:3] == ["1", "missing", "address"]


def _stage_newer(service: Service, subscriber: str, now: datetime) -> str:
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
    doc |= {"_id": "6a" + "0" * 22, "transactionId": "txn-live", "createdAt": at(-1, now)}
    job |= {"_id": "6b" + "0" * 22}
    service.store.insert_notifications([StagedNotification(doc, [(job, [])])])
    return str(doc["_id"])


async def follow_through_a_503_to_a_staged_notification(
    pilot: Pilot[None], everyone: Everyone, transport: FaultTransport, notices: Notices
) -> None:
    """From jane's Activity: `L` follows it through a 503 to a notification staged
    meanwhile, paused by moving off the top, live again back on it, then stopped."""
    app = pilot.app
    await pilot.press("L")
    assert state_line(app).startswith("● live · jane")
    # The service unavailable a while: said once, and the follow goes on asking.
    feed = [r for r in transport.seen if r.url.path == "/v1/notifications"]
    errors = len([n for n in notices if n.severity == "error"])
    transport.route["/v1/notifications"] = lambda r: httpx.Response(503, request=r)
    await until(
        pilot,
        lambda: (
            len([r for r in transport.seen if r.url.path == "/v1/notifications"]) >= len(feed) + 6
        ),
        what="three polls refused",
    )
    assert state_line(app).startswith("● live · jane")
    assert len([n for n in notices if n.severity == "error"]) == errors + 1
    del transport.route["/v1/notifications"]
    staged = _stage_newer(everyone.service, "jane", everyone.now)
    await until(pilot, lambda: table_rows(app, ActivityTable) == 3, what="the staged one")
    table = app.screen.query_one(ActivityTable)
    assert next(iter(table.rows)).value == staged and table.cursor_row == 0
    await pilot.press("j")
    await until(pilot, lambda: state_line(app).startswith("⏸ paused"), what="paused")
    await pilot.press("k")
    await until(pilot, lambda: state_line(app).startswith("● live"), what="live again")
    await pilot.press("L")
    await until(pilot, lambda: state_line(app).startswith("jane"), what="stopped")


async def pages_of_50_and_a_402(pilot: Pilot[None], everyone: Everyone, notices: Notices) -> None:
    """Everyone over 5 days by the line: production's feed without `subscriberIds`, in
    pages of 50 (`hasMore`, no total) read on `m`, the count scanned said across them;
    and its 402 for a window older than the plan keeps, said in words where "loading…"
    was."""
    app = pilot.app
    before = len(everyone.seen)
    await ran(pilot, ":activity 5d")
    await until(pilot, lambda: table_rows(app, ActivityTable) == 50, what="a page")
    assert "last 5 d" in state_line(app) and "scanned 50 of more" in state_line(app)
    assert state_line(app).endswith("m for more")
    await pilot.press("m")
    await until(pilot, lambda: "scanned 100 of more" in state_line(app), what="two pages")
    await pilot.press("m")
    # The fixture's 122 and the one staged while following.
    await until(pilot, lambda: "scanned 123 (all)" in state_line(app), what="every page")
    assert table_rows(app, ActivityTable) == 123 and "m for more" not in state_line(app)
    feed = [
        parse_qs(urlsplit(p).query) for p in everyone.seen[before:] if p.startswith("/v1/notif")
    ]
    assert [q["page"] for q in feed] == [["0"], ["1"], ["2"]]
    assert all(q["limit"] == ["50"] and "subscriberIds" not in q for q in feed)

    await ran(pilot, ":activity 7d")
    await until(
        pilot,
        lambda: (
            "not read: The plan does not keep" in state_line(app)
            and notices.saying("The plan does not keep the activity feed back to")
        ),
        what="the plan's limit, shown and said",
    )
    said = notices.saying("The plan does not keep the activity feed back to")
    assert said and "Narrow the window" in said[0].message
    assert "loading" not in state_line(app)
