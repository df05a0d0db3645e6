"""Following the inbox (decisions 108, 109): `L` makes the one auto-refresh timer run at
the follow pace, with `● live` in the header; a message sent meanwhile shows without a
key press, and the highlighted message stays highlighted; off the top row it pauses."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from inboxdesk.models import Message
from inboxdesk.tui.inbox.header import SubscriberHeader
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from tests.conftest import Service
from tests.tui.conftest import NOW, SIZE, app_for, plain, until
from tests.tui.test_inbox import opened

NEW_ID = "6c" + "0" * 22


def _send_meanwhile(service: Service) -> None:
    """A copy of jane's newest message with a new id, newer than any."""
    row = (
        service.store.read()
        .execute("SELECT doc FROM messages ORDER BY created_at DESC LIMIT 1")
        .fetchone()
    )
    doc = json.loads(row[0])
    stamp = (NOW + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    doc |= {"_id": NEW_ID, "createdAt": stamp, "transactionId": "txn-follow", "read": False}
    service.store.insert_messages([Message.model_validate(doc)])


async def test_following_shows_a_message_sent_meanwhile(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(InboxScreen, "follow_fast", 0.2)
    app = app_for(service)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        table = screen.query_one(MessageTable)
        first = table.cursor_key
        await pilot.press("L")
        header = screen.query_one(SubscriberHeader)
        await until(pilot, lambda: "● live" in plain(header), what="live")
        _send_meanwhile(service)
        await until(pilot, lambda: screen.feed.index_of(NEW_ID) == 0, what="the new one on top")
        assert table.cursor_key == first, "the cursor stays on its message"
        assert table.cursor_row == 1 and "● live" in plain(header), "still live"
        await pilot.press("j")  # the agent moves away: following pauses
        await until(pilot, lambda: "⏸ paused" in plain(header), what="paused")
        await pilot.press("g")  # back on top: live again
        await until(pilot, lambda: "● live" in plain(header), what="live again")
        await pilot.press("L")
        await until(pilot, lambda: "live" not in plain(header), what="following off")
