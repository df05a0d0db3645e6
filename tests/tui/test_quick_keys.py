"""Keys pressed while an earlier write's answer is on its way: each `z` takes back one
write, to the state just before it (the outbox's rule, fast: tests/writes/test_outbox.py)."""

from __future__ import annotations

import json
from datetime import timedelta

from inboxdesk.models import Message
from inboxdesk.tui.screens.confirm import ConfirmScreen
from tests.client.faults import FaultTransport, Hold
from tests.conftest import Service, jane_message
from tests.tui.conftest import NOW, SIZE, app_for, settled, until
from tests.tui.test_inbox import marker, opened, stored
from tests.tui.test_inbox_v2 import MARK

MORE = 10  # beside jane's 12: over the 20 messages a mark asks about first


def more_messages(service: Service) -> list[str]:
    """`MORE` unread, unseen copies of jane's newest message, older than hers."""
    doc = json.loads(service.row("SELECT doc FROM messages WHERE id = ?", jane_message(11))[0])
    made = []
    for n in range(MORE):
        stamp = (NOW - timedelta(days=30 + n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        made.append(doc | {"_id": f"6d{n:022d}", "createdAt": stamp, "read": False, "seen": False})
    service.store.insert_messages([Message.model_validate(d) for d in made])
    return [d["_id"] for d in made]


async def test_a_mark_confirmed_once_an_earlier_ones_answer_shows_undoes_to_that_answer(
    service: Service,
) -> None:
    """Every message selected and `r`, asked (over 20) and confirmed; while its answer is
    on its way, `u`, asked from rows that still show them unread. Confirmed once the
    read shows: the unread's undo marks them read again, not unread as before both."""
    ids = [jane_message(n) for n in range(12)] + more_messages(service)
    transport = FaultTransport()
    transport.holds[MARK] = held = Hold()
    app = app_for(service, transport=transport)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        await until(pilot, lambda: len(screen.feed) == len(ids), what="every message")
        await pilot.press("asterisk", "r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked")
        await pilot.press("y")
        await until(pilot, held.reached.is_set, what="the read at the service")
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="asked again")
        # The dialog over the rows: what they hold, as the inbox draws them once shown.
        assert not all(read for read, _ in screen.feed.flags(ids).values()), "shown unread"
        held.release.set()
        await until(
            pilot,
            lambda: all(read for read, _ in screen.feed.flags(ids).values()),
            what="the read shown",
        )
        await pilot.press("y")
        await until(pilot, lambda: not any(stored(service, i)[0] for i in ids), what="unread")
        await pilot.press("z")
        await until(pilot, lambda: all(stored(service, i)[0] for i in ids), what="undone")
        await settled(pilot)
        assert all(stored(service, i) == (True, True) for i in ids)
        assert all(marker(app, i)[1:] == "  " for i in ids)
