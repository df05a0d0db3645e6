"""The writes package loads each module on first use: the app's first frame imports the
model of a write (its marks' keys need it), never the outbox, its events or its store."""

from __future__ import annotations

import subprocess
import sys

import inboxdesk.writes as writes


def test_every_public_name_resolves() -> None:
    for name in writes.__all__:
        assert getattr(writes, name) is not None, name
    assert set(writes.__all__) <= set(dir(writes))


def test_the_first_frame_modules_leave_the_outbox_unloaded() -> None:
    code = (
        "import sys\n"
        "from inboxdesk.config import Settings\n"
        "from inboxdesk.tui.app import InboxdeskApp\n"
        "from inboxdesk.tui.inbox.screen import InboxScreen\n"
        "print(*sorted(m for m in sys.modules if m.startswith('inboxdesk.writes.')"
        " or m == 'sqlite3'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == [
        "inboxdesk.writes.before",
        "inboxdesk.writes.effects",
        "inboxdesk.writes.model",
    ], loaded
