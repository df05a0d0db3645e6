"""The inbox state without widgets: rows, parsing on demand, filters and undo."""

from __future__ import annotations

import json

from inboxdesk.models import MarkAs, Message
from inboxdesk.server.fixtures import load_fixture, read_fixture
from inboxdesk.server.store import Store
from inboxdesk.tui.inbox_state import Change, InboxState, undo_steps
from tests.conftest import EXAMPLE, STAGING_KEY


def jane_messages(tmp_path: object) -> list[Message]:
    store = Store(f"{tmp_path}/state.db")
    load_fixture(store, read_fixture(EXAMPLE))
    caller = store.authenticate(STAGING_KEY)
    assert caller is not None
    return [Message.model_validate(m) for m in store.feed(caller, "jane", 0, 100)[0]]


def test_rows_round_trip_to_the_full_message(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    state = InboxState("jane")
    added = state.add_page(0, messages, has_more=False, total=len(messages))
    assert [r.id for r in added] == [m.id for m in messages]
    for original in messages:
        assert original.id is not None
        parsed = state.message(original.id)
        assert parsed is not None
        assert parsed.to_wire() == original.to_wire()
    again = state.message(messages[0].id or "")
    assert again is state.message(messages[0].id or ""), "recent messages stay parsed"
    assert state.add_page(1, messages, has_more=False, total=12) == [], "no duplicates"


def test_update_and_flags_reach_the_parsed_message(tmp_path: object) -> None:
    messages = jane_messages(tmp_path)
    state = InboxState("jane")
    state.add_page(0, messages, False, 12)
    target = messages[0]
    newer = target.model_copy(update={"read": not target.read, "seen": True})
    state.update([newer])
    parsed = state.message(target.id or "")
    assert parsed is not None and parsed.read is (not target.read)
    state.set_flags(read=True, seen=True)
    assert all(r.read and r.seen for r in state.messages.values())
    assert state.message(messages[5].id or "").read is True  # type: ignore[union-attr]


def test_text_filter_and_targets(tmp_path: object) -> None:
    state = InboxState("jane")
    state.add_page(0, jane_messages(tmp_path), False, 12)
    state.text = "#1005"
    assert [r.heading for r in state.visible()] == ["Order #1005 shipped"]
    first = next(iter(state.messages))
    assert state.targets(first) == [first]
    state.toggle("65f000000000000000000002")
    state.toggle("65f000000000000000000009")
    assert state.targets(first) == ["65f000000000000000000009", "65f000000000000000000002"]


def test_undo_steps_restore_read_then_seen() -> None:
    change = Change(MarkAs.READ, {"a": (False, False), "b": (False, True), "c": (True, True)})
    now = {"a": (True, True), "b": (True, True), "c": (True, True)}
    assert undo_steps(change, now) == [(MarkAs.UNREAD, ["a", "b"]), (MarkAs.UNSEEN, ["a"])]
    seen_change = Change(MarkAs.UNSEEN, {"a": (True, True), "b": (False, True)})
    assert undo_steps(seen_change, {"a": (True, False), "b": (False, False)}) == [
        (MarkAs.SEEN, ["a", "b"])
    ]
    assert json.dumps(undo_steps(change, dict(change.before))) == "[]"
