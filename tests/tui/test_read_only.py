"""A read-only run of the app: no write key is bound (footer, help and palette offer
none), the header says read-only, a write key does nothing, and writes queued by an
earlier session are listed, never sent. Reading, History and copying still work. (An
environment a profile marks read-only: tests/tui/test_read_only_follows.py.)"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from inboxdesk.tui.context import WRITE_ACTIONS
from inboxdesk.tui.screens.queued import QueuedWritesScreen
from inboxdesk.writes import WriteStore
from tests.conftest import Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, plain, settled, until
from tests.tui.test_help_and_palette import footer_keys, help_lines
from tests.tui.test_inbox import opened, stored
from tests.tui.test_queued_writes import queued_earlier

WRITE_WORDS = {"Read", "Unread", "Seen", "Unseen", "All read", "Archive", "Snooze", "Undo"}


async def test_no_write_key_is_bound_and_the_header_says_read_only(
    service: Service, notices: Notices, tmp_path: Path
) -> None:
    """A read-only run: a write an earlier session queued is listed, never sent; no write
    key is bound anywhere, the header says so, and a write key pressed says why."""
    path = tmp_path / "writes.db"
    queued_earlier(service, path)
    app = app_for(service, writes=WriteStore(path), read_only=True)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, QueuedWritesScreen)
                and bool(app.screen.query("#queued-list"))
            ),
            what="the list",
        )
        offer = app.screen
        listed = plain(offer.query_one("#queued-list", Static))
        assert "mark 1 message read of jane" in listed
        assert "never sent" in plain(offer.query_one("#detail", Static))
        assert not offer.query("#send") and not offer.query("#drop")
        await pilot.press("s", "d")
        await settled(pilot)
        assert app.outbox.queued(), "neither sent nor dropped"
        await pilot.press("l")
        await until(pilot, lambda: not isinstance(app.screen, QueuedWritesScreen))
        screen = await opened(pilot)
        assert len(app.outbox.queued()) == 1
        await until(pilot, lambda: "read-only" in app.title, what="the title")
        assert "read-only" in plain(screen.query_one("#subscriber", Static))
        active = {a.binding.action for a in screen.active_bindings.values()}
        assert not active & WRITE_ACTIONS
        assert not {d for _, d in footer_keys(screen)} & WRITE_WORDS
        # What help lists (its lines, as it draws them) and what the palette offers (its
        # one provider's entries): help and the palette opened, their keys and entries
        # drawn, are test_help_and_palette.py's walk.
        helped = " ".join(help_lines(screen))
        assert "Mark the highlighted" not in helped and "Filter" in helped
        offered = {command.title for command in app.get_system_commands(screen)}
        assert not offered & WRITE_WORDS and "Filter" in offered
        first = screen.table.cursor_key
        assert first is not None
        before = stored(service, first)
        await pilot.press("r", "e", "A")
        await settled(pilot)
        assert stored(service, first) == before and app.screen is screen
        # A write key pressed all the same says why nothing happened.
        assert notices.saying("Read-only (") and notices.saying("is off")
        await pilot.press("3")  # History opens, without undo
        await until(pilot, lambda: app.screen.id == "history", what="history")
        assert "z" not in {k for k, _ in footer_keys(app.screen)}
        # No view invites a write it will not make.
        await pilot.press("2")
        await until(
            pilot,
            lambda: (
                app.screen.id == "integrations"
                and "Set primary" in plain(app.screen.query_one("#integration-body", Static))
            ),
            what="an integration's detail",
        )
        said = plain(app.screen.query_one("#integration-body", Static))
        assert "to make it the primary" not in said and "read-only run" in said
        await pilot.press("5")
        await until(pilot, lambda: app.screen.id == "preferences", what="preferences")
        legend = plain(app.screen.query_one("#preference-legend", Static))
        assert "Space: turn" not in legend and "Read-only" in legend
        assert len(app.outbox.queued()) == 1, "the earlier session's write stays queued"
    assert stored(service, jane_message(11)) == (False, False)
