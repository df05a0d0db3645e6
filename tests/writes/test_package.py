"""The writes package loads each module on first use: the app's first frame imports the
model of a write (its marks' keys need it), never the outbox, its events or its store
(checked in a fresh process that opens the app: tests/cli/test_commands.py)."""

from __future__ import annotations

import inboxdesk.writes as writes


def test_every_public_name_resolves() -> None:
    for name in writes.__all__:
        assert getattr(writes, name) is not None, name
    assert set(writes.__all__) <= set(dir(writes))
