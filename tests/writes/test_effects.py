"""The rules of a mark, as pure functions: the notice it gives and how undo restores."""

from __future__ import annotations

import json

from inboxdesk.models import MarkAs
from inboxdesk.writes import restore_steps
from inboxdesk.writes.kinds.mark import marked_notice


def test_notices_count_what_changed() -> None:
    assert marked_notice("seen", 3, 1, 0) == "1 of 3 messages marked seen; 2 already were."
    assert marked_notice("read", 1, 0, 0) == "Already read: nothing changed."
    assert "ignored 1 id " in marked_notice("read", 2, 1, 1)


def test_undo_steps_restore_read_then_seen() -> None:
    before = {"a": (False, False), "b": (False, True), "c": (True, True)}
    now = {"a": (True, True), "b": (True, True), "c": (True, True)}
    assert restore_steps(before, now) == [(MarkAs.UNREAD, ["a", "b"]), (MarkAs.UNSEEN, ["a"])]
    seen_before = {"a": (True, True), "b": (False, True)}
    assert restore_steps(seen_before, {"a": (True, False), "b": (False, False)}) == [
        (MarkAs.SEEN, ["a", "b"])
    ]
    assert json.dumps(restore_steps(before, before)) == "[]"
