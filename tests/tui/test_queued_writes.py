"""Writes queued while the service is away outlive the session and are offered at the
next start; a write another key made is never offered. (An undo while away is queued,
not lost: tests/tui/test_inbox.py's marking walk.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.queued import QueuedWritesScreen
from inboxdesk.writes import WriteStore
from inboxdesk.writes.model import Kind, Step, Where, Write
from tests.client.faults import FaultTransport, connection_refused
from tests.conftest import OTHER_KEY, STAGING_KEY, Service, jane_message
from tests.tui.conftest import SIZE, Notices, app_for, plain, until
from tests.tui.test_app import Held
from tests.tui.test_inbox import opened, stored


@asynccontextmanager
async def mark_read_while_away(
    service: Service, path: Path, notices: Notices | None = None
) -> AsyncIterator[tuple[InboxdeskApp, Pilot[None]]]:
    """An app on `path` whose service goes away once it opened; `r` is queued."""
    down = FaultTransport()
    app = app_for(service, transport=down, writes=WriteStore(path))
    hook = notices.hook if notices is not None else None
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await opened(pilot)
        down.before = [connection_refused() for _ in range(50)]
        await pilot.press("r")
        await until(pilot, lambda: len(app.outbox.queued()) == 1, what="queued")
        yield app, pilot


async def test_queued_writes_are_kept_and_offered_at_the_next_start(
    service: Service, tmp_path: Path, notices: Notices
) -> None:
    """Queued, the app asks before it quits; the next start offers them: kept for later
    (l) sends nothing, and the start after that sends them (s)."""
    path = tmp_path / "writes.db"
    async with mark_read_while_away(service, path, notices) as (app, pilot):
        await until(pilot, lambda: notices.saying("Queued"), what="queued, said")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks first")
        assert "offered when inboxdesk next starts" in plain(
            app.screen.query_one("#detail", Static)
        )
        await pilot.press("y")
    assert stored(service, jane_message(11)) == (False, False), "nothing sent yet"

    for choice in ("l", "s"):
        again = app_for(service, writes=WriteStore(path))
        async with again.run_test(size=SIZE) as pilot:
            await until(pilot, lambda a=again: offered(a), what="offer")
            listed = plain(again.screen.query_one("#queued-list", Static))
            assert "mark 1 message read" in listed
            await pilot.press(choice)
            if choice == "l":
                await until(pilot, lambda a=again: not isinstance(a.screen, QueuedWritesScreen))
                assert len(again.outbox.queued()) == 1, "kept"
                assert stored(service, jane_message(11)) == (False, False), "nothing sent"
                again.exit()
                continue
            await until(
                pilot, lambda: stored(service, jane_message(11)) == (True, True), what="sent"
            )
            await until(pilot, lambda a=again: a.outbox.queued() == [], what="queue empty")


def queued_earlier(service: Service, path: Path) -> None:
    """A mark of jane's newest message, queued in `path` as an earlier session files one
    (with the key's fingerprint and the environment)."""
    store = WriteStore(path)
    caller = service.store.authenticate(STAGING_KEY)
    assert caller is not None
    mark = Write(Kind.MARK, "jane", (Step("read", (jane_message(11),)),))
    made_with = app_for(service).client.key_fingerprint(store.secret)
    store.enqueue(Where.of(None, service.url, caller.environment_id), mark, made_with)
    store.close()


def offered(app: InboxdeskApp) -> bool:
    return isinstance(app.screen, QueuedWritesScreen) and bool(app.screen.query("#queued-list"))


async def test_an_offer_dropped_sends_nothing_and_another_keys_write_is_never_offered(
    service: Service, tmp_path: Path, notices: Notices
) -> None:
    """A write an earlier session queued (filed here as it files one) is offered; d drops
    it, and nothing is sent. A write another key queued is never offered, and the app
    says why: it is kept for that key."""
    path = tmp_path / "writes.db"
    queued_earlier(service, path)
    store = WriteStore(path)
    other = app_for(service, key=OTHER_KEY).client.key_fingerprint(store.secret)
    mark = Write(Kind.MARK, "jane", (Step("read", (jane_message(10),)),))
    store.enqueue(Where.of(None, service.url), mark, other)  # its environment unknown
    store.close()
    again = app_for(service, writes=WriteStore(path))
    async with again.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: offered(again), what="offer")
        listed = plain(again.screen.query_one("#queued-list", Static))
        assert listed.count("mark 1 message read") == 1, "the other key's write not offered"
        await until(pilot, lambda: notices.saying("made with another API key"), what="said")
        await pilot.press("d")
        await until(pilot, lambda: not isinstance(again.screen, QueuedWritesScreen))
        assert again.outbox.queued() == [] and again.outbox.held() == 1
    assert stored(service, jane_message(11)) == (False, False)
    assert stored(service, jane_message(10)) == (False, True), "as the example has it"


async def test_quitting_before_the_environment_is_known_still_asks_about_earlier_writes(
    service: Service, tmp_path: Path
) -> None:
    path = tmp_path / "writes.db"
    store = WriteStore(path)
    mark = Write(Kind.MARK, "jane", (Step("read", (jane_message(11),)),))
    made_with = app_for(service).client.key_fingerprint(store.secret)
    store.enqueue(Where.of(None, service.url), mark, made_with)  # the environment unknown
    store.close()
    scope_held = Held(held="/environments")  # never answered: the environment stays unknown
    app = app_for(service, transport=scope_held, writes=WriteStore(path))
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asks first")
        assert "offered when inboxdesk next starts" in plain(
            app.screen.query_one("#detail", Static)
        )
