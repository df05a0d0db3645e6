"""The History view (`3`): every write of this profile, newest first; `z` undoes any
entry as a new write, asking first when later writes touched the same messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from inboxdesk.tui.history.screen import HistoryScreen
from inboxdesk.tui.history.table import HistoryTable
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.writes import WriteStore
from tests.conftest import Service, jane_message
from tests.tui.conftest import Notices, app_for, plain, settled, until
from tests.tui.test_inbox import marker, opened, stored


def history_rows(app: object) -> int:
    screen = app.screen  # type: ignore[attr-defined]
    return screen.query_one(HistoryTable).row_count if isinstance(screen, HistoryScreen) else -1


def in_view(table: object, labels: tuple[str, ...]) -> bool:
    """Whether those columns of a DataTable are drawn whole within its width."""
    from textual.widgets import DataTable

    assert isinstance(table, DataTable)
    right = 0
    for column in table.ordered_columns:
        right += column.get_render_width(table)
        if str(column.label) in labels and right > table.scrollable_content_region.width:
            return False
    return True


@pytest.mark.slow
async def test_history_lists_filters_exports_copies_and_undoes_an_older_write_after_asking(
    service: Service,
    notices: Notices,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One walk over two writes at 80 columns, then 120, after a write of an earlier
    run (the command line's, in the profile's journal, beside damaged rows): History
    lists them newest first with their before and after, its outcome and environment in
    view (the environment drawn again when the scope comes after the rows); a damaged
    row of the journal costs that row alone, said once each, as the command line does;
    the filter narrows as typed, by field or anywhere; `e` exports them to a private
    file; the request log keeps its status in view and copies a request as curl without
    the key; `z` on the older asks first, then undoes it; the earlier run's write is
    undone across the restart, and nothing is said twice when History reads again."""
    import asyncio
    import csv
    import io
    import stat

    import httpx

    from inboxdesk.cli import main
    from inboxdesk.paths import data_dir, writes_path
    from inboxdesk.tui.history.requests import RequestLogScreen
    from tests.client.conftest import point_at
    from tests.client.test_cli_journal import BROKEN, damage
    from tests.conftest import STAGING_KEY

    point_at(monkeypatch, tmp_path, service)
    # Its own thread: the command line runs its own event loop.
    code = await asyncio.to_thread(main, ["mark-as", "jane", "read", EARLIER])
    assert code == 0, capsys.readouterr()
    assert stored(service, EARLIER) == (True, True)
    url = httpx.URL(service.url)
    damage(writes_path(), f"{url.host}:{url.port}")
    app = app_for(service, writes=WriteStore(writes_path()))
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24), message_hook=notices.hook) as pilot:
        await opened(pilot, rows=6)
        await pilot.press("r")  # jane 11: unread, unseen -> read
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        # Its answer shown, as the user sees it before the next key: the journal's
        # "before" of the next mark is the row as shown.
        await until(pilot, lambda: marker(app, jane_message(11)) == "   ", what="shown read")
        await pilot.press("S")  # and unseen again
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, False))
        await pilot.press("3")
        await until(pilot, lambda: history_rows(app) == 3, what="the three entries")
        await until(pilot, lambda: len(notices.saying("skipped")) >= len(BROKEN), what="said")
        for name in BROKEN:
            assert len(notices.saying(f"journal entry {name}")) == 1, name
        screen = app.screen
        table = screen.query_one(HistoryTable)
        await pilot.pause()
        shown = ("Made", "Outcome", "Environment")
        assert in_view(table, shown), [c.label for c in table.ordered_columns]
        # The environment's name comes with the scope, which may arrive after the rows:
        # the table is drawn again when it does.
        await until(
            pilot, lambda: str(table.get_row_at(0)[2]) == "Staging", what="the environment whole"
        )
        scope = app.context.scope.value
        app.context.scope.set(None)  # as before the scope was read: rows drawn without it
        await until(pilot, lambda: str(table.get_row_at(0)[2]) != "Staging", what="redrawn")
        app.context.scope.set(scope)  # the scope arrives after the rows: drawn again
        await until(pilot, lambda: str(table.get_row_at(0)[2]) == "Staging", what="its name")
        assert in_view(table, shown)
        assert "sent" in str(table.get_row_at(0)[1])
        # The earlier run's write is the newest (made by the clock of the day, the app's
        # at its test clock's): this run's unseen mark comes next.
        table.move_cursor(row=1)
        entry = screen.query_one("#history-entry", Static)
        await until(pilot, lambda: "mark 1 message unseen" in plain(entry), what="its entry")
        detail = plain(entry)
        assert "mark 1 message unseen" in detail and "read, seen → read, unseen" in detail
        assert "1 message, before → after" in detail, "a real plural, not message(s)"

        await pilot.press("slash", *"op:unse")  # typed: each key narrows
        await until(pilot, lambda: history_rows(app) == 1, what="only the unseen mark")
        field = screen.query_one("#text-filter", Input)
        field.value = "op:unseen sub:jane"  # every word must match
        await until(pilot, lambda: history_rows(app) == 1, what="still the unseen mark")
        field.value = "op:unseen sub:janex"  # names nobody
        await until(pilot, lambda: history_rows(app) == 0, what="nothing")
        field.value = "outcome:sent jane"
        await pilot.press("enter")
        await until(pilot, lambda: history_rows(app) == 3, what="all three, sent to jane")
        await pilot.press("slash")
        field.value = "colour:red"
        await pilot.press("enter")
        await until(pilot, lambda: bool(notices.saying("No field colour:")))
        await pilot.press("escape")
        await until(pilot, lambda: history_rows(app) == 3, what="the filter cleared")

        await pilot.press("e")
        await until(pilot, lambda: bool(notices.saying("Exported 3 writes")), what="export")
        (export,) = (data_dir() / "exports").iterdir()
        assert stat.S_IMODE(export.stat().st_mode) == 0o600
        rows = list(csv.DictReader(io.StringIO(export.read_text())))
        assert [r["target"] for r in rows] == ["jane", "jane", "jane"]

        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, RequestLogScreen), what="the log")
        log = app.screen
        assert isinstance(log, RequestLogScreen) and len(log.requests) >= 4
        await pilot.pause()
        requests = log.query_one("#requests")
        status = ("At", "Status", "ms")
        assert in_view(requests, status), [c.label for c in requests.ordered_columns]  # type: ignore[attr-defined]
        mark = next(n for n, r in enumerate(log.requests) if r.method == "POST")
        await pilot.press(*["j"] * mark, "c")
        await until(pilot, lambda: bool(copied), what="a copy")
        curl = copied[-1]
        assert curl.startswith("curl -X POST ") and "/messages/mark-as" in curl
        assert '"Authorization: ApiKey $NOVU_SECRET_KEY"' in curl and STAGING_KEY not in curl
        assert jane_message(11) in curl and "Idempotency-Key" in curl
        # Wider, yet narrow still: the columns stay in view as laid out again.
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: log.outer_size == (120, 40), what="the log at 120")
        await pilot.pause()
        assert in_view(requests, status), [c.label for c in requests.ordered_columns]  # type: ignore[attr-defined]
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, what="History again")
        await until(pilot, lambda: screen.outer_size == (120, 40), what="History at 120")
        await pilot.pause()
        assert in_view(table, shown), [c.label for c in table.ordered_columns]

        table.move_cursor(row=1)
        await pilot.press("j", "z")  # the older one of this run: the read
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks")
        assert "1 later write touched the same messages" in plain(
            app.screen.query_one("#detail", Static)
        )
        await pilot.press("y")
        await until(pilot, lambda: stored(service, jane_message(11)) == (False, False))
        await until(pilot, lambda: history_rows(app) == 4, what="the undo listed")

        # The earlier run's write undone across the restart.
        table.move_cursor(row=0)
        await until(pilot, lambda: EARLIER in plain(entry), what="the earlier run's entry")
        await pilot.press("z")
        await until(pilot, lambda: stored(service, EARLIER) == (False, False), what="undone")
        await pilot.press("ctrl+r")  # read again: nothing said twice
        await until(pilot, lambda: history_rows(app) == 5, what="its undo listed")
        await settled(pilot)  # the read's notices, if any, said
        assert all(len(notices.saying(f"journal entry {n}")) == 1 for n in BROKEN)


# The message an earlier run (the command line) marks read: unread and unseen in the
# example, and none of the walk's own writes touches it.
EARLIER = jane_message(7)


def test_an_older_write_keeps_its_day() -> None:
    from datetime import UTC, datetime

    from inboxdesk.tui.history.table import when

    now = datetime(2026, 11, 28, 15, 0, tzinfo=UTC)
    made = datetime(2026, 4, 3, 9, 30, tzinfo=UTC)
    shown = when(made, now)
    assert made.astimezone().strftime("%m-%d") in shown and len(shown) <= 11
    assert when(datetime(2025, 4, 3, 9, 30, tzinfo=UTC), now).startswith("2025-04-0")
