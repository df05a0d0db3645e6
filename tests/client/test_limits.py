"""The client's limits against a hostile server on loopback: each hit is one typed error."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from inboxdesk.client import (
    ClientOptions,
    DeadlineExceeded,
    InboxClient,
    LimitExceeded,
    Limits,
    RetryPolicy,
    ServerError,
)
from inboxdesk.config import Settings
from inboxdesk.config.connect import limits_for
from tests.client.hostile_server import HostileServer, Reply, Seen, json_reply, repeated

KEY = "hostile-key-0123456789abcdef"
DEEP = b"[" * 100_000 + b"]" * 100_000
HUGE_NUMBER = b"9" * 5_000


def item(n: int = 0, **fields: Any) -> dict[str, Any]:
    """A feed item with every field the client requires."""
    return {
        "_id": f"65f00000000000000000{n:04d}",
        "_environmentId": "65e000000000000000000001",
        "_organizationId": "65e000000000000000000002",
        "_notificationId": "65e000000000000000000003",
        "_subscriberId": "65e000000000000000000004",
        "transactionId": f"tx-{n}",
        "channel": "in_app",
        "status": "sent",
        "cta": {},
        "read": False,
        "seen": False,
        "content": "hello",
        "createdAt": "2026-01-01T00:00:00.000Z",
        **fields,
    }


def page(*items: dict[str, Any], more: bool = False) -> dict[str, Any]:
    return {"data": list(items), "page": 0, "pageSize": 10, "hasMore": more}


def client(server: HostileServer, **limits: Any) -> InboxClient:
    options = ClientOptions(timeout=10, retry=RetryPolicy(attempts=1), limits=Limits(**limits))
    return InboxClient(server.url, KEY, options)


def body(data: bytes, status: int = 200) -> Reply:
    return Reply(status, data, {"Content-Type": "application/json"})


def test_the_settings_defaults_are_the_clients() -> None:
    assert limits_for(Settings()) == Limits()
    assert Limits() == Limits(50_000_000, 60.0, 200, 4300, 10_000)


async def test_a_body_past_the_cap_stops_being_read() -> None:
    # 20 MB: past the cap, it is read no further.
    with HostileServer(lambda _: Reply(body=repeated(b"[" * 65_536, 300))) as server:
        async with client(server, max_body_bytes=1_000_000) as api:
            with pytest.raises(LimitExceeded) as failure:
                await api.feed("jane")
    assert failure.value.setting == "max_body_mb"
    assert server.finished == 0, "the client stopped reading"
    assert "larger than 1 MB" in failure.value.message
    assert "INBOXDESK_MAX_BODY_MB" in failure.value.hint


async def test_a_declared_length_past_the_cap_is_refused_before_reading() -> None:
    declared = Reply(body=b"{}", headers={"Content-Length": str(10**12)})
    with HostileServer(lambda _: declared) as server:
        async with client(server, max_body_bytes=1_000) as api:
            with pytest.raises(LimitExceeded, match="larger than"):
                await api.list_integrations()


async def test_a_slow_drip_body_ends_at_the_deadline() -> None:
    # A byte every 20 ms never trips the 10 s read timeout: only the deadline ends it.
    drip = Reply(body=repeated(b" ", 500), drip=0.02)
    with HostileServer(lambda _: drip) as server:
        async with client(server, deadline=0.25) as api:
            started = time.monotonic()
            with pytest.raises(DeadlineExceeded) as failure:
                await api.feed("jane")
    assert time.monotonic() - started < 5, "ended near the deadline, not the timeout"
    assert "within 0.25 s" in failure.value.message
    assert "INBOXDESK_DEADLINE" in failure.value.hint


async def test_retries_stop_at_the_deadline() -> None:
    busy = Reply(503, b"{}", {"Retry-After": "0.1"})
    with HostileServer(lambda _: busy) as server:
        retry = RetryPolicy(attempts=50, deadline=30)
        options = ClientOptions(retry=retry, limits=Limits(deadline=0.5))
        async with InboxClient(server.url, KEY, options) as api:
            with pytest.raises((ServerError, DeadlineExceeded)):
                await api.list_integrations()
    # 0.1 s apart within 0.5 s: about 5 tries, where the retry policy alone allows 50.
    assert 2 <= len(server.seen) <= 7


@pytest.mark.parametrize(
    ("answer", "setting"),
    [
        (DEEP, "max_json_depth"),
        (b'{"data": [], "totalCount": ' + HUGE_NUMBER + b"}", "max_int_digits"),
    ],
    ids=["deep", "digits"],
)
async def test_deep_nesting_and_huge_numbers_are_limit_errors(answer: bytes, setting: str) -> None:
    with HostileServer(lambda _: body(answer)) as server:
        async with client(server) as api:
            # A model read from the bytes, a body parsed whole, and the same behind a BOM
            # (the path Python's json takes, which recurses).
            for call in (
                api.feed("jane"),
                api.get_subscriber("jane"),
                api.mark_all("jane", "read"),
            ):
                with pytest.raises(LimitExceeded) as failure:
                    await call
                assert failure.value.setting == setting
        with HostileServer(lambda _: body(b"\xef\xbb\xbf" + answer)) as server:
            async with client(server) as api:
                with pytest.raises(LimitExceeded):
                    await api.feed("jane")


async def test_an_error_body_past_a_limit_is_still_the_status_error() -> None:
    with HostileServer(lambda _: body(DEEP, 500)) as server:
        async with client(server) as api:
            with pytest.raises(ServerError, match="500 Internal Server Error"):
                await api.list_integrations()


async def test_stricter_limits_are_checked_too() -> None:
    nested: Any = 1
    for _ in range(10):
        nested = [nested]
    answers = iter([page(item(payload={"deep": nested})), page(item(payload={"count": 12345}))])
    with HostileServer(lambda _: json_reply(next(answers))) as server:
        async with client(server, max_json_depth=8, max_int_digits=3) as api:
            with pytest.raises(LimitExceeded, match="nested more than 8 deep"):
                await api.feed("jane")
            # Digits in strings (the ids) are not numbers: only the integer counts.
            with pytest.raises(LimitExceeded, match="longer than 3 digits"):
                await api.feed("jane")


async def test_a_lone_surrogate_in_a_title_still_reads() -> None:
    # A sender can put one in a title; JSON escapes it, and pydantic's parser refuses it.
    raw = json.dumps(page(item(title="hi \ud800 there"))).encode()
    assert b"\\ud800" in raw
    with HostileServer(lambda _: body(raw)) as server:
        async with client(server) as api:
            result = await api.feed("jane")
    assert result.data[0].title == "hi \ud800 there"


async def test_following_pages_stops_at_max_pages() -> None:
    def always_more(seen: Seen) -> Reply:
        return json_reply(page(item(len(server.seen)), more=True))

    with HostileServer(always_more) as server:
        async with client(server, max_pages=5) as api:
            with pytest.raises(LimitExceeded) as failure:
                async for _ in api.iter_feed("jane"):
                    assert len(server.seen) <= 10, "followed pages past max_pages"
    assert failure.value.setting == "max_pages"
    assert "after 5 pages" in failure.value.message
    assert len(server.seen) == 5


def test_limits_cannot_be_looser_than_the_parser() -> None:
    with pytest.raises(ValueError):
        Limits(max_json_depth=500)
