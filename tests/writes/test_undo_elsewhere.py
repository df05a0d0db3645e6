"""A write made in one environment is undone only while acting in it: from another,
its undo would go with that environment's key (the app's History lists every
environment's writes of the profile)."""

from __future__ import annotations

from inboxdesk.models import MarkAs
from inboxdesk.writes import Outbox, Refused, Sent, Where, WriteStore
from tests.client.conftest import Counted
from tests.conftest import jane_message
from tests.writes.test_outbox import Gate, client_for, flags, mark

THERE = Where("work", "127.0.0.1", "env-where-it-was-made")
HERE = Where("work", "127.0.0.1", "env-acted-in-now")


async def test_a_write_of_another_environment_is_not_undone_with_this_key(
    counted: Counted,
) -> None:
    message = jane_message(4)
    before = flags(counted, message)
    async with client_for(counted, Gate()) as client:
        there = Outbox(client, THERE, WriteStore(None))
        sent = await there.submit(mark(MarkAs.READ, message, before={message: before}))
        assert isinstance(sent, Sent)
        here = Outbox(client, HERE, there.store)
        refused = await here.undo(sent.write)
        assert isinstance(refused, Refused) and "another environment" in refused.reason
        assert flags(counted, message)[0] is True, "nothing was sent"
        assert isinstance(await there.undo(sent.write), Sent)
    assert flags(counted, message) == before
