"""A write claimed by a process killed before it sent it (SIGKILL between the claim and
the send) is released at the next start, in its original place: it goes out before any
write of the same message made after it, so the message ends as the last key left it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from inboxdesk.models import MarkAs
from inboxdesk.writes import Outbox, Queued, Sent, WriteStore
from tests.client.conftest import Counted
from tests.conftest import jane_message
from tests.writes.test_outbox import Gate, client_for, flags, mark
from tests.writes.test_queue_keys import UNKNOWN

# A process that claims the oldest queued write, then is killed before it sends it.
CLAIM_THEN_DIE = """
import os, signal, sys
from pathlib import Path
from inboxdesk.writes import WriteStore
store = WriteStore(Path(sys.argv[1]))
assert store.claim(sys.argv[2])
os.kill(os.getpid(), signal.SIGKILL)
"""


async def test_a_killed_claim_is_released_in_its_original_order(
    counted: Counted, tmp_path: Path
) -> None:
    path = tmp_path / "writes.db"
    message = jane_message(5)
    async with client_for(counted, Gate(down=True)) as away:
        outbox = Outbox(away, UNKNOWN, WriteStore(path))
        read = await outbox.submit(mark(MarkAs.READ, message))
        unread = await outbox.submit(mark(MarkAs.UNREAD, message))  # the last key pressed
        assert isinstance(read, Queued) and isinstance(unread, Queued)
        outbox.store.close()
    killed = subprocess.run(
        [sys.executable, "-c", CLAIM_THEN_DIE, str(path), read.write.id], check=False
    )
    assert killed.returncode == -signal.SIGKILL

    async with client_for(counted, Gate()) as client:
        again = Outbox(client, UNKNOWN, WriteStore(path))
        assert [w.id for w in again.queued()] == [read.write.id, unread.write.id]
        sent = await again.flush()
        again.store.close()
    assert [type(e) for e in sent] == [Sent, Sent]
    assert [e.write.id for e in sent] == [read.write.id, unread.write.id]
    assert flags(counted, message)[0] is False, "unread, as the last key left it"
