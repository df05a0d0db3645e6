"""Faults: each handled with a clear error, losing nothing and applying nothing twice."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import httpx
import pytest

from inboxdesk.client import (
    AuthenticationError,
    ConnectionFailed,
    ProtocolError,
    RateLimitedError,
    RetryPolicy,
    ServerError,
    TimedOut,
)
from inboxdesk.models import MarkAs, MessageStatus
from tests.client.conftest import Counted
from tests.client.faults import (
    FaultTransport,
    connection_refused,
    garbled,
    rewrite,
    status,
)
from tests.conftest import MAILGUN, STAGING_KEY, jane_message


def idempotency_keys(transport: FaultTransport) -> set[str]:
    return {r.headers["idempotency-key"] for r in transport.seen}


@pytest.mark.own_service
async def test_server_stopped(counted: Counted) -> None:
    counted.thread.stop()
    async with counted.client(retry=RetryPolicy(attempts=3, base=0.01, deadline=2)) as client:
        with pytest.raises(ConnectionFailed) as failure:
            await client.mark_as("jane", jane_message(1), MarkAs.READ)
    assert counted.url in failure.value.message
    assert "inboxdesk serve" in failure.value.hint


async def test_connection_dropped_then_back_applies_once(counted: Counted) -> None:
    transport = FaultTransport(before=[connection_refused(), connection_refused()])
    async with counted.client(transport=transport) as client:
        result = await client.set_primary(MAILGUN)
    assert result.primary
    assert len(transport.seen) == 3 and len(idempotency_keys(transport)) == 1
    assert counted.store.applied["set_primary"] == 1


# The slow service's delay: one for the three tests, so that one app serves them.
SLOW = 0.6


async def test_slow_server_times_out_then_replays_with_the_same_key(make_counted: Any) -> None:
    service = make_counted(operation_delay=SLOW)
    transport = FaultTransport()
    retry = RetryPolicy(attempts=10, base=0.05, cap=0.2, deadline=15)
    async with service.client(transport=transport, timeout=0.3, retry=retry) as client:
        result = await client.mark_as("jane", jane_message(1), MarkAs.READ)
    assert [m.id for m in result.messages] == [jane_message(1)]
    assert len(transport.seen) >= 2, "the first try timed out"
    assert len(idempotency_keys(transport)) == 1
    assert service.store.applied["mark_as"] == 1


async def test_slow_server_past_the_deadline_is_a_timeout(make_counted: Any) -> None:
    service = make_counted(operation_delay=SLOW)
    async with service.client(timeout=0.2, retry=RetryPolicy(attempts=1)) as client:
        with pytest.raises(TimedOut) as failure:
            await client.set_primary(MAILGUN)
    assert "0.2 s" in failure.value.message


async def test_retry_that_finds_its_first_try_running_says_so(make_counted: Any) -> None:
    from inboxdesk.client import ConflictError

    service = make_counted(operation_delay=SLOW)
    retry = RetryPolicy(attempts=2, base=0.01, deadline=0.5)
    async with service.client(timeout=0.2, retry=retry) as client:
        with pytest.raises(ConflictError) as failure:
            await client.set_primary(MAILGUN)
    assert "refresh" in failure.value.hint


async def test_429_waits_for_retry_after_then_succeeds(make_counted: Any) -> None:
    from inboxdesk.server.ratelimit import RateLimit

    service = make_counted(rate_limit=RateLimit(requests=1, window=1.0))
    transport = FaultTransport()
    async with service.client(transport=transport) as client:
        await client.list_integrations()
        started = time.monotonic()
        result = await client.mark_as("jane", jane_message(2), MarkAs.SEEN)
        waited = time.monotonic() - started
    assert [m.id for m in result.messages] == [jane_message(2)]
    assert waited >= 0.5, "the client honoured Retry-After"
    posts = [r for r in transport.seen if r.method == "POST"]
    assert len(posts) == 2 and len({r.headers["idempotency-key"] for r in posts}) == 1
    assert service.store.applied["mark_as"] == 1


async def test_429_beyond_the_deadline_says_how_long_to_wait(counted: Counted) -> None:
    transport = FaultTransport(
        before=[
            status(
                429,
                {"Retry-After": "120"},
                b'{"statusCode":429,"message":"API rate limit exceeded"}',
            )
        ]
    )
    async with counted.client(transport=transport) as client:
        with pytest.raises(RateLimitedError) as failure:
            await client.list_integrations()
    assert failure.value.retry_after == 120
    assert "120" in failure.value.hint


async def test_503_after_applying_then_success_applies_once(counted: Counted) -> None:
    # The service applies the write, a proxy answers 503; the retry gets the replay.
    transport = FaultTransport(after=[status(503)])
    async with counted.client(transport=transport) as client:
        result = await client.mark_as("jane", [jane_message(3), jane_message(4)], MarkAs.READ)
    assert len(result.messages) == 2 and result.not_updated == []
    assert len(transport.seen) == 2 and len(idempotency_keys(transport)) == 1
    assert counted.store.applied["mark_as"] == 1


async def test_502_504_then_success(counted: Counted) -> None:
    transport = FaultTransport(before=[status(502), status(504)])
    async with counted.client(transport=transport) as client:
        assert (await client.set_primary(MAILGUN)).primary
    assert counted.store.applied["set_primary"] == 1


async def test_persistent_500_is_a_server_error_not_retried(counted: Counted) -> None:
    transport = FaultTransport(before=[status(500, body=b'{"statusCode":500,"message":"boom"}')])
    async with counted.client(transport=transport) as client:
        with pytest.raises(ServerError, match="boom"):
            await client.list_integrations()
    assert len(transport.seen) == 1


async def test_409_in_flight_then_replay(counted: Counted) -> None:
    transport = FaultTransport(
        before=[status(409, {"Retry-After": "0.05"}, b'{"statusCode":409,"message":"in flight"}')]
    )
    async with counted.client(transport=transport) as client:
        result = await client.mark_as("jane", jane_message(5), MarkAs.UNREAD)
    assert result.messages[0].read is False
    assert counted.store.applied["mark_as"] == 1


async def test_200_with_invalid_json_is_a_protocol_error_and_not_retried(counted: Counted) -> None:
    transport = FaultTransport(after=[garbled()])
    async with counted.client(transport=transport) as client:
        with pytest.raises(ProtocolError, match="not JSON") as failure:
            await client.mark_as("jane", jane_message(6), MarkAs.READ)
    assert "refresh" in failure.value.hint
    assert counted.store.applied["mark_as"] == 1 and len(transport.seen) == 1


async def test_json_behind_a_byte_order_mark_still_reads(counted: Counted) -> None:
    """pydantic's own JSON parser refuses a BOM that Python's json reads: the client does not."""

    def with_bom(request: httpx.Request, response: httpx.Response | None) -> httpx.Response:
        assert response is not None
        return httpx.Response(
            response.status_code,
            content=b"\xef\xbb\xbf" + response.content,
            request=request,
            headers={"content-type": "application/json"},
        )

    transport = FaultTransport(after=[with_bom, with_bom])
    async with counted.client(transport=transport) as client:
        page = await client.feed("jane", 0, 5)
        result = await client.mark_as("jane", jane_message(7), MarkAs.READ)
    assert [m.id for m in page.data] == [jane_message(n) for n in (11, 10, 9, 8, 7)]
    assert page.has_more and result.messages[0].read and not result.not_updated
    assert len(transport.seen) == 2


async def test_unknown_enum_values_and_fields_still_read(counted: Counted) -> None:
    def newer(body: Any) -> Any:
        for item in body["data"]:
            item["status"] = "queued"
            item["channel"] = "whatsapp"
            item["archived"] = True
        return body

    transport = FaultTransport(after=[rewrite(newer)])
    async with counted.client(transport=transport) as client:
        page = await client.feed("jane", limit=3)
    assert [m.status for m in page.data] == ["queued"] * 3
    assert not isinstance(page.data[0].status, MessageStatus)
    assert page.data[0].to_wire()["archived"] is True


def _bare(body: object) -> object:
    return body["data"] if isinstance(body, dict) and set(body) == {"data"} else body


async def test_bare_bodies_are_read_too(counted: Counted) -> None:
    # The subscriber comes from v2, or from v1 after a 404 on v2: unwrap every success.
    transport = FaultTransport(after=[rewrite(_bare) for _ in range(3)])
    async with counted.client(transport=transport) as client:
        integrations = await client.list_integrations()
        jane = await client.get_subscriber("jane")
    assert len(integrations) == 8 and jane.subscriber_id == "jane"  # Staging's own


async def test_a_page_answered_as_a_bare_list_is_one_whole_page(counted: Counted) -> None:
    def items(body: object) -> object:
        assert isinstance(body, dict)
        return body["data"]

    transport = FaultTransport(after=[rewrite(items)])
    async with counted.client(transport=transport) as client:
        page = await client.feed("jane", 0, 5)
    assert [m.id for m in page.data] == [jane_message(n) for n in (11, 10, 9, 8, 7)]
    assert (page.page, page.page_size, page.has_more) == (0, 5, False)


async def test_older_400_with_a_message_list_is_a_validation_error(counted: Counted) -> None:
    body = json.dumps(
        {"statusCode": 400, "message": ["markAs must be one of read, seen"], "error": "Bad Request"}
    ).encode()
    transport = FaultTransport(before=[status(400, body=body)])
    async with counted.client(transport=transport) as client:
        from inboxdesk.client import ValidationError

        with pytest.raises(ValidationError) as failure:
            await client.mark_as("jane", jane_message(1), MarkAs.READ)
    assert failure.value.fields == {"markAs": ["markAs must be one of read, seen"]}


async def test_the_key_never_reaches_logs_or_errors(
    counted: Counted, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with counted.client() as client:
        await client.list_integrations()
    async with counted.client(key="bad-key-abcdefghijklmnop0123") as client:
        with pytest.raises(AuthenticationError) as failure:
            await client.list_integrations()
    assert caplog.records, "httpx logged the requests"
    for secret in (STAGING_KEY, "bad-key-abcdefghijklmnop0123"):
        assert secret not in caplog.text
    assert (
        "bad-key-abcdefghijklmnop0123"
        not in f"{failure.value} {failure.value!r} {failure.value.hint}"
    )


async def test_a_5xx_carries_its_error_id(counted: Counted) -> None:
    body = json.dumps(
        {
            "statusCode": 500,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "path": "/v1/integrations",
            "message": "Internal server error",
            "errorId": "abc123\x1b[2J",
        }
    ).encode()
    transport = FaultTransport(before=[status(500, body=body)])
    async with counted.client(transport=transport) as client:
        with pytest.raises(ServerError) as failure:
            await client.list_integrations()
    assert failure.value.error_id == "abc123\x1b[2J", "the raw id, for a program to use"
    assert "(errorId abc123␛[2J)" in failure.value.message, "shown, made safe"
    assert "errorId" in failure.value.hint


async def test_a_name_that_does_not_resolve_gets_its_own_hint() -> None:
    from inboxdesk.client import ClientOptions, InboxClient, NameNotResolved

    options = ClientOptions(timeout=5, retry=RetryPolicy(attempts=3, base=0.01))
    async with InboxClient("http://no-such-host.invalid", STAGING_KEY, options) as client:
        with pytest.raises(NameNotResolved) as failure:
            await client.list_integrations()
    assert "no-such-host.invalid" in failure.value.message
    assert "DNS" in failure.value.hint and "serve" not in failure.value.hint


async def test_the_local_service_hint_only_for_a_loopback_url(counted: Counted) -> None:
    from inboxdesk.client import ClientOptions, InboxClient

    options = ClientOptions(retry=RetryPolicy(attempts=1))
    hints = {}
    for url in ("https://eu.api.novu.co", "http://127.0.0.1:9"):
        transport = FaultTransport(before=[connection_refused()])
        async with InboxClient(url, STAGING_KEY, options, transport) as client:
            with pytest.raises(ConnectionFailed) as failure:
                await client.list_integrations()
        hints[url] = failure.value.hint
    assert "serve --demo" not in hints["https://eu.api.novu.co"]
    assert "network" in hints["https://eu.api.novu.co"]
    assert "inboxdesk serve --demo" in hints["http://127.0.0.1:9"]


async def test_counts_read_any_json_number_and_nothing_else(counted: Counted) -> None:
    """The document types counts as JSON numbers: whole, fractional or negative, each is
    read as sent; a string or a boolean is not a number."""
    transport = FaultTransport(
        after=[
            rewrite(lambda b: {"data": float(b["data"])}),  # type: ignore[index]
            rewrite(lambda b: {"data": {"count": float(b["data"]["count"])}}),  # type: ignore[index]
            rewrite(lambda b: {"data": 2.5}),
            rewrite(lambda b: {"data": {"count": -3}}),
            rewrite(lambda b: {"data": "6"}),
            rewrite(lambda b: {"data": {"count": True}}),
        ]
    )
    async with counted.client(transport=transport) as client:
        changed = await client.mark_all("jane", MarkAs.SEEN)
        unseen = await client.unseen_count("jane")
        fractional = await client.mark_all("jane", MarkAs.UNSEEN)
        negative = await client.unseen_count("jane")
        with pytest.raises(ProtocolError, match="'6' where a number was expected"):
            await client.mark_all("jane", MarkAs.SEEN)
        with pytest.raises(ProtocolError, match="True where a number was expected"):
            await client.unseen_count("jane")
    assert (changed, unseen) == (6, 0)
    assert (fractional, negative) == (2.5, -3)


async def test_messages_returned_for_another_subscriber_are_not_updated(
    counted: Counted,
) -> None:
    """An older deployment answered every id it knew, another subscriber's unchanged."""
    async with counted.client() as client:
        joes = (await client.list_messages(subscriber_id="joe", limit=1)).data[0]
    foreign = joes.to_wire()

    def as_production(body: Any) -> Any:
        # Production's mark-as items do not embed the subscriber; add joe's message back.
        items = [
            {k: v for k, v in m.items() if k != "subscriber"}
            for m in body["data"]
            if m["_id"] != foreign["_id"]
        ]
        return {"data": [*items, foreign]}

    transport = FaultTransport(after=[rewrite(as_production)])
    async with counted.client(transport=transport) as client:
        result = await client.mark_as("jane", [jane_message(1), foreign["_id"]], MarkAs.READ)
    assert len(result.messages) == 2, "every message the service returned is kept"
    assert result.not_updated == [foreign["_id"]]
    # Without an embedded subscriber the client looked jane's _id up.
    assert [r.url.path for r in transport.seen][-1].endswith("/subscribers/jane")
