"""Every listing stops on a server that loops: one clear line, exit 1, bounded work."""

from __future__ import annotations

import threading

import pytest

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.client.errors import Looping
from inboxdesk.client.source import V2
from inboxdesk.core.inbox.lookup import scan
from inboxdesk.writes.before import unread_before
from tests.client.conftest import run
from tests.client.hostile_server import HostileServer, held_after_first, looping
from tests.command_line import piped

KEY = "loop-key-0123456789abcdef"


@pytest.fixture
def pointed(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", f"{tmp_path}/config")
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)


@pytest.mark.parametrize(
    ("kind", "v2", "argv", "prefix"),
    [
        ("same", True, ["messages", "jane", "--all"], "/v2/subscribers/jane/notifications"),
        ("shuffled", True, ["messages", "jane", "--all", "--ids"], "/v2/subscribers/jane"),
        ("same", False, ["messages", "jane", "--all"], "/v1/subscribers/jane/notifications/feed"),
        ("shuffled", False, ["messages", "jane", "--all", "--json"], "/v1/subscribers/jane"),
        ("same", True, ["subscribers", "--all"], "/v2/subscribers"),
    ],
)
def test_a_listing_that_never_ends_is_stopped_with_one_line(
    pointed: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    v2: bool,
    argv: list[str],
    prefix: str,
) -> None:
    with HostileServer(looping(kind, v2)) as server:
        monkeypatch.setenv("INBOXDESK_BASE_URL", server.url)
        code, _, err = run(capsys, *argv)
    assert code == 1, err
    said = [line for line in err.splitlines() if "kept saying there was more" in line]
    assert len(said) == 1, err
    assert len(server.paths(prefix)) <= 3, "stopped at the first page that repeated"


async def test_the_scans_and_the_count_stop_on_a_loop() -> None:
    options = ClientOptions(retry=RetryPolicy(attempts=1))
    with HostileServer(looping("same")) as server:
        async with InboxClient(server.url, KEY, options) as client:
            with pytest.raises(Looping):
                await scan(client, "65f0000000000000000000ff", "jane")
            listed = await unread_before(client, "jane", V2)
        # The listing ends after its ten pages; the count past them stops at a loop.
        assert listed.before is None and listed.count is None
        assert len(server.paths("/v2/subscribers/jane/notifications")) <= 13


class Release(threading.Event):
    """An event that says whether a wait for it ended by it (not by its timeout)."""

    released_a_wait = False

    def wait(self, timeout: float | None = None) -> bool:
        self.released_a_wait = super().wait(timeout)
        return self.released_a_wait


def test_ids_stream_as_pages_arrive(
    pointed: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    release = Release()
    first: list[str] = []

    def two_lines(lines: list[str]) -> None:
        if len(lines) == 2:
            first.extend(lines)
            release.set()

    with HostileServer(held_after_first("/notifications", release)) as server:
        monkeypatch.setenv("INBOXDESK_BASE_URL", server.url)
        try:
            # The first page, whole, before the second is answered.
            # (Unstreamed, they come after the server gives up holding it, with the rest.)
            code, lines, err = piped(capsys, ["messages", "jane", "--all", "--ids"], two_lines)
        finally:
            release.set()
    assert first == ["n00001\n", "n00002\n"], err
    assert release.released_a_wait, "the first page came out before the second was answered"
    assert lines[2:] == ["n00003\n"] and code == 0


async def test_full_text_search_stops_on_a_loop() -> None:
    from textual.app import App
    from textual.widgets import Static

    from inboxdesk.core.inbox.feed import Row
    from inboxdesk.models.inbox import InboxNotification
    from inboxdesk.tui.inbox.search import SearchScreen
    from tests.tui.conftest import plain, until

    calls: list[int] = []
    row = Row.of(InboxNotification.model_validate({"id": "same-id", "body": "x marks it"}))

    async def fetch(number: int) -> tuple[list[Row], bool]:
        calls.append(number)
        return [row], True

    app: App[None] = App()
    async with app.run_test() as pilot:
        await app.push_screen(SearchScreen("x", fetch, None, 10_000))

        def said() -> str:
            return plain(app.screen.query_one("#search-said", Static))

        await until(pilot, lambda: "stopped" in said(), what="stopped")
        assert "kept saying there was more" in said()
    assert len(calls) == 2
