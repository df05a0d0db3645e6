"""Finding a message by id reads each page of `GET /v1/messages` for its ids and only the
message found in full: a message the client cannot read costs the scan nothing unless
it is the one asked for."""

from __future__ import annotations

from typing import Any

import pytest

from inboxdesk.client import ClientOptions, InboxClient, RetryPolicy
from inboxdesk.client.errors import ProtocolError
from inboxdesk.core.inbox.lookup import find
from tests.client.hostile_server import HostileServer, Reply, Seen, feed_item, json_reply

KEY = "scan-key-0123456789abcdef"


def listing(seen: Seen) -> Reply:
    """Two pages of messages, each holding one this client cannot read (no
    transactionId); none carries a transactionId that is looked for."""
    if "transactionId=" in seen.query:
        return json_reply({"data": [], "page": 0, "pageSize": 1000, "hasMore": False})
    page = 1 if "page=1" in seen.query else 0
    unreadable = feed_item(10 + page)
    del unreadable["transactionId"]
    data: list[dict[str, Any]] = [feed_item(2 * page), unreadable, feed_item(2 * page + 1)]
    return json_reply(
        {"data": data, "page": page, "pageSize": 1000, "totalCount": 6, "hasMore": page == 0}
    )


async def test_a_scan_reads_in_full_only_the_message_it_finds() -> None:
    options = ClientOptions(retry=RetryPolicy(attempts=1))
    with HostileServer(listing) as server:
        async with InboxClient(server.url, KEY, options) as client:
            seen: list[tuple[int, int | None]] = []
            found = await find(client, "m00003", progress=lambda *p: seen.append(p))
            assert found is not None and found.by == "id"
            (message,) = found.messages
            assert (message.id, message.transaction_id, message.preview) == (
                "m00003",
                "tx3",
                "message 3",
            )
            assert seen == [(1, 1)]  # the first page searched; the second holds it
            assert await find(client, "m00099") is None  # past both pages: not there
            # The one asked for is read in full, and says what it lacks.
            with pytest.raises(ProtocolError, match="transactionId"):
                await find(client, "m00011")
