"""The command line against a hostile server: one clear line and exit 1, never a crash (70)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from inboxdesk.cli import main
from tests.client.hostile_server import HostileServer, Reply, Seen, json_reply, repeated
from tests.client.test_limits import DEEP, HUGE_NUMBER, KEY, item, page

COUNTS = {"data": [{"count": 1, "filter": {"read": False}}, {"count": 1, "filter": {}}]}


@pytest.fixture
def serve(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[[Callable[[Seen], Reply]], HostileServer]]:
    """Start a hostile server and point the command line at it."""
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_LOG_DIR", str(tmp_path / "logs"))
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)
    started: list[HostileServer] = []

    def start(answer: Callable[[Seen], Reply]) -> HostileServer:
        server = HostileServer(answer).__enter__()
        started.append(server)
        monkeypatch.setenv("INBOXDESK_BASE_URL", server.url)
        return server

    yield start
    for server in started:
        server.__exit__()


NO_V2_INBOX = json_reply({"statusCode": 404, "message": "Cannot GET"}, 404)


def feed_answers(feed: Reply, v2: bool = True) -> Callable[[Seen], Reply]:
    """The inbox list answers `feed`; without `v2` it is an older service (404 there) and
    the v1 feed answers it. The counts answer as production's do."""

    def answer(seen: Seen) -> Reply:
        if seen.path.endswith("/notifications") and not v2:
            return NO_V2_INBOX
        return json_reply(COUNTS) if seen.path.endswith("/count") else feed

    return answer


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(code: int, err: str, *words: str) -> None:
    """Exit 1 (an error from the service) and its message, with no crash report."""
    lines = err.strip().splitlines()
    assert code == 1, err
    assert lines[0].startswith("inboxdesk: ") and len(lines) <= 2, err
    assert "crashed" not in err
    for word in words:
        assert word in lines[0]


def test_a_lone_surrogate_in_a_title_is_shown(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
) -> None:
    serve(feed_answers(json_reply(page(item(title="hi \ud800 there"))), v2=False))
    code, out, err = run(capsys, "messages", "jane")
    assert code == 0, err
    assert "hi <U+D800> there" in out
    code, out, err = run(capsys, "messages", "jane", "--json")
    assert code == 0, err
    assert "\\ud800" in out and json.loads(out)["data"][0]["subject"] == "hi \ud800 there"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (DEEP, ("nested more than 200 deep",)),
        (b'{"data": [], "totalCount": ' + HUGE_NUMBER + b"}", ("longer than 4,300 digits",)),
    ],
    ids=["deep", "digits"],
)
def test_deep_nesting_and_huge_numbers_are_one_line(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
    body: bytes,
    words: tuple[str, ...],
) -> None:
    serve(lambda _: Reply(body=body, headers={"Content-Type": "application/json"}))
    for argv in (["messages", "jane"], ["messages", "jane", "--json"], ["counts", "jane"]):
        code, _, err = run(capsys, *argv)
        one_error(code, err, *words)


def test_a_body_over_the_cap_is_one_line(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INBOXDESK_MAX_BODY_MB", "1")
    serve(feed_answers(Reply(body=repeated(b"x" * 65_536, 300))))
    code, _, err = run(capsys, "messages", "jane")
    one_error(code, err, "larger than 1 MB")
    assert "INBOXDESK_MAX_BODY_MB" in err


def test_a_slow_drip_past_the_deadline_is_one_line(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INBOXDESK_DEADLINE", "0.25")
    serve(feed_answers(Reply(body=repeated(b" ", 500), drip=0.02)))
    code, _, err = run(capsys, "messages", "jane")
    one_error(code, err, "within 0.25 s")


def test_all_stops_at_max_pages(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INBOXDESK_MAX_PAGES", "5")

    def always_more(seen: Seen) -> Reply:
        assert len(server.seen) <= 20, "followed pages past max_pages"
        n = len(server.seen)
        if seen.path.endswith("/notifications"):
            one = {
                "id": f"65f0000000000000000{n:05d}",
                "body": "b",
                "to": {"id": "65e000000000000000000003", "subscriberId": "jane"},
                "isRead": False,
                "isSeen": False,
                "isArchived": False,
                "isSnoozed": False,
                "createdAt": "2026-01-01T00:00:00.000Z",
                "channelType": "in_app",
                "severity": "none",
            }
            return json_reply({"data": [one], "hasMore": True, "filter": {}})
        if seen.path == "/v2/subscribers":
            one = {
                "_id": f"65e0000000000000000{n:05d}",
                "subscriberId": f"s{n}",
                "_organizationId": "65e000000000000000000002",
                "_environmentId": "65e000000000000000000001",
                "deleted": False,
                "createdAt": "2026-01-01T00:00:00.000Z",
                "updatedAt": "2026-01-01T00:00:00.000Z",
            }
            return json_reply({"data": [one], "next": f"cursor{n}"})
        return json_reply(page(item(n), more=True))

    server = serve(always_more)
    code, _, err = run(capsys, "messages", "jane", "--all")
    one_error(code, err, "after 5 pages")
    assert len(server.paths("/v2/subscribers/jane/notifications")) == 5
    code, _, err = run(capsys, "subscribers", "--all")
    one_error(code, err, "after 5 pages")
    assert len([p for p in server.paths("/v2/subscribers") if p == "/v2/subscribers"]) == 5


def test_a_limit_out_of_range_is_a_settings_error(
    serve: Callable[[Callable[[Seen], Reply]], HostileServer],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    serve(feed_answers(json_reply(page())))
    monkeypatch.setenv("INBOXDESK_MAX_JSON_DEPTH", "500")
    code, _, err = run(capsys, "messages", "jane")
    assert code == 2 and "INBOXDESK_MAX_JSON_DEPTH=500: must be 200 or less." in err
