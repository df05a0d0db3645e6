"""The v2 inbox's flags as columns (store/schema.py) and its deep offsets from checkpoints
(server/checkpoints.py).

Every tab's listing, at every depth, must hold what a walk from the top holds: checked
against the state the fixture and the writes imply, across checkpoint boundaries, after
archive, unarchive, snooze, unsnooze and snoozes that end by themselves; and a database
made before the columns existed, its flags in the message JSON alone, is brought up to
the schema on opening and answers as one made now.
"""

from __future__ import annotations

import copy
import functools
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.server.fixtures import read_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store, iso
from tests.conftest import EXAMPLE, Service, ServiceFactory, jane_message
from tests.shared_service import SharedService

SUBSCRIBER = "deep"
# The deep service's checkpoints are every STRIDE rows (the service's own stride is
# checkpoints.STRIDE, 1000): the same boundaries, crossed in an inbox a twentieth of the
# size (a fixture of 4,345 messages, and every tab walked, took 3.6 CPU-s).
STRIDE = 50
# Every tab's listing runs past STRIDE rows: each is walked from checkpoints.
COUNT = 4 * STRIDE + 17
NOW = datetime(2026, 11, 24, 12, tzinfo=UTC)
START = datetime(2026, 1, 1, tzinfo=UTC)
INBOX = f"/v2/subscribers/{SUBSCRIBER}/notifications"
# Messages each action moves, one request each: every one shifts each checkpoint after
# it, so a dozen cross every boundary as forty did, for a third of the requests.
MOVED = 12

# The app's tabs (core/inbox/tabs.py InboxTab.query), as query strings.
VISIBLE = {"archived": "false", "snoozed": "false"}
TABS: list[dict[str, str]] = [
    VISIBLE,
    {"read": "false", **VISIBLE},
    {"seen": "false", **VISIBLE},
    {"archived": "true"},
    {"snoozed": "true"},
    {},
]


def message_id(n: int) -> str:
    return f"66e{n:021x}"


def stamp(n: int) -> str:
    # Three messages share each minute: the id breaks the tie.
    return iso(START + timedelta(minutes=n // 3))


@dataclass
class State:
    """One message as the tabs filter it."""

    created: str
    read: bool
    seen: bool
    archived: bool
    snoozed_until: str | None


def initial_state() -> dict[str, State]:
    """Half archived; a third snoozed, half of those until an hour from NOW."""
    return {
        message_id(n): State(
            created=stamp(n),
            read=n % 5 == 0,
            seen=n % 7 == 0,
            archived=n % 2 == 1,
            snoozed_until=(
                None if n % 3 != 2 else iso(NOW + timedelta(hours=1 if n % 2 == 0 else 100))
            ),
        )
        for n in range(COUNT)
    }


def deep_fixture() -> dict[str, Any]:
    """The example, the deep inbox, and Jane's flags: 2 archived, 3 snoozed ahead, 4
    snoozed until a time already passed; every flag in the message document alone."""
    fixture = copy.deepcopy(read_fixture(EXAMPLE))
    environment = fixture["environments"][0]
    environment["subscribers"].append({"subscriberId": SUBSCRIBER, "firstName": "Deep"})
    for message in environment["messages"]:
        if message["_id"] == jane_message(2):
            message.update(archived=True, archivedAt=iso(NOW - timedelta(days=1)))
        elif message["_id"] == jane_message(3):
            message["snoozedUntil"] = iso(NOW + timedelta(hours=5))
        elif message["_id"] == jane_message(4):
            message["snoozedUntil"] = iso(NOW - timedelta(hours=1))
    for message_key, state in initial_state().items():
        message: dict[str, Any] = {
            "_id": message_key,
            "subscriberId": SUBSCRIBER,
            "workflow": "Order shipped",
            "createdAt": state.created,
            "title": f"Message {message_key}",
            "read": state.read,
            "seen": state.seen,
            "transactionId": f"deep-{message_key}",
        }
        if state.archived:
            message.update(archived=True, archivedAt=iso(NOW - timedelta(days=2)))
        if state.snoozed_until is not None:
            message["snoozedUntil"] = state.snoozed_until
        environment["messages"].append(message)
    return fixture


def shows(state: State, tab: dict[str, str]) -> bool:
    for flag, wanted in tab.items():
        now = state.snoozed_until is not None if flag == "snoozed" else getattr(state, flag)
        if now != (wanted == "true"):
            return False
    return True


@functools.cache
def newest_first() -> list[str]:
    """Every id, newest first: no write moves a message, so sorted once."""
    states = initial_state()
    return sorted(states, key=lambda key: (states[key].created, key), reverse=True)


def listing(states: dict[str, State], tab: dict[str, str]) -> list[str]:
    """The tab's ids, newest first, as a walk from the top lists them."""
    return [key for key in newest_first() if shows(states[key], tab)]


def assert_tab(service: Service, states: dict[str, State], tab: dict[str, str]) -> None:
    """Single rows at and around every checkpoint and the end; pages across them."""
    expected = listing(states, tab)
    length = len(expected)
    probes = [(0, 30), (STRIDE - 10, 20), (2 * STRIDE - 3, 7), (length - 5, 30)]
    for mark in range(STRIDE, length + 1, STRIDE):
        probes += [(mark - 1, 1), (mark, 1), (mark + 1, 1)]
    probes += [(length - 1, 1), (length, 1)]
    with service.http() as http:
        for offset, limit in probes:
            body = http.get(INBOX, params={**tab, "offset": offset, "limit": limit}).json()
            got = [n["id"] for n in body["data"]]
            want = expected[offset : offset + limit]
            assert (got, body["hasMore"]) == (want, offset + limit < length), (tab, offset)
            for item in body["data"]:
                state = states[item["id"]]
                assert item["isArchived"] is state.archived
                assert item.get("snoozedUntil") == state.snoozed_until


def assert_tabs(service: Service, states: dict[str, State]) -> None:
    for tab in TABS:
        assert_tab(service, states, tab)


@pytest.fixture
def deep(make_service: ServiceFactory) -> Service:
    service = make_service(fixture=deep_fixture())
    service.store.clock = lambda: NOW
    service.store.checkpoint_stride = STRIDE
    return service


@pytest.mark.slow
def test_deep_offsets_of_every_tab_follow_archives_snoozes_and_their_end(deep: Service) -> None:
    states = initial_state()
    assert_tabs(deep, states)  # every tab's checkpoints built

    def act(action: str, keys: list[str], until: datetime | None = None) -> None:
        with deep.http() as http:
            for key in keys:
                body = None if until is None else {"snoozeUntil": until.isoformat()}
                answer = http.patch(f"{INBOX}/{key}/{action}", json=body)
                assert answer.status_code == 200, answer.text

    newest_visible = listing(states, VISIBLE)[:MOVED]
    act("archive", newest_visible)
    for key in newest_visible:  # archive also reads and sees
        states[key].archived = states[key].read = states[key].seen = True
    assert_tabs(deep, states)

    unarchived = listing(states, {"archived": "true"})[10 : 10 + MOVED]
    act("unarchive", unarchived)
    for key in unarchived:  # unarchive also reads and sees
        states[key].archived, states[key].read, states[key].seen = False, True, True
    assert_tabs(deep, states)

    later = NOW + timedelta(hours=30)
    snoozed = listing(states, VISIBLE)[5 : 5 + MOVED]
    act("snooze", snoozed, later)
    for key in snoozed:  # snooze also sees and unarchives
        states[key].snoozed_until, states[key].seen, states[key].archived = iso(later), True, False
    assert_tabs(deep, states)

    woken = listing(states, {"snoozed": "true"})[:MOVED]
    act("unsnooze", woken)
    for key in woken:  # unsnooze also sees and unarchives
        states[key].snoozed_until, states[key].seen, states[key].archived = None, True, False
    assert_tabs(deep, states)

    # Two hours on: the fixture's hour-long snoozes end on the next request by themselves.
    deep.store.clock = lambda: NOW + timedelta(hours=2)
    ended = 0
    for state in states.values():
        if state.snoozed_until is not None and state.snoozed_until <= iso(NOW + timedelta(hours=2)):
            state.snoozed_until, ended = None, ended + 1
    assert ended > STRIDE // 2
    assert_tabs(deep, states)


# The stopgap indexes of the v2 listing, over the JSON, as databases made then hold them.
OLD_INDEXES = (
    """CREATE INDEX messages_inbox ON messages(environment_id, subscriber_pk, channel,
        coalesce(json_extract(doc, '$.archived'), 0),
        (json_extract(doc, '$.snoozedUntil') IS NOT NULL), created_at DESC, id DESC)""",
    """CREATE INDEX messages_snoozed ON messages(subscriber_pk, json_extract(doc, '$.snoozedUntil'))
        WHERE json_extract(doc, '$.snoozedUntil') IS NOT NULL""",
)


def old_database(path: Path, loaded: Service) -> dict[str, str]:
    """A database as the service made it before the flag columns: a copy of `loaded`
    (the fixture loaded, nothing done yet), then the columns and their indexes taken
    away (the columns are the table's last, so what is left is the old table). Its
    documents, by message id."""
    with closing(sqlite3.connect(loaded.db_path)) as source, closing(sqlite3.connect(path)) as db:
        source.backup(db)
    with sqlite3.connect(path) as db:
        for index in ("messages_by_flags", "messages_by_snooze"):
            db.execute(f"DROP INDEX {index}")
        for column in ("archived", "snoozed_until"):
            db.execute(f"ALTER TABLE messages DROP COLUMN {column}")
        for statement in OLD_INDEXES:
            db.execute(statement)
        db.execute("PRAGMA user_version = 0")  # databases made then were never stamped
        docs = dict(db.execute("SELECT id, doc FROM messages").fetchall())
    db.close()
    return docs


@contextmanager
def serving(store: Store, shared: SharedService) -> Iterator[Service]:
    """`store` served over loopback on a thread of its own."""
    settings = ServerSettings(db_path=Path(store.path))
    thread = ServiceThread(settings, store, app=shared.app_for(settings, store)).start()
    try:
        yield Service(thread.url, store, thread, Path(store.path))
    finally:
        thread.stop()


def jane_counts(service: Service) -> list[int]:
    filters = [
        {"archived": True},
        {"snoozed": True},
        {"archived": False, "snoozed": False},
        {"read": False, "archived": False, "snoozed": False},
    ]
    with service.http() as http:
        answer = http.get(
            "/v2/subscribers/jane/notifications/count", params={"filters": json.dumps(filters)}
        )
    assert answer.status_code == 200, answer.text
    return [c["count"] for c in answer.json()["data"]]


def jane_inbox(service: Service, **tab: str) -> list[dict[str, Any]]:
    with service.http() as http:
        body = http.get("/v2/subscribers/jane/notifications", params={**tab, "limit": 100})
    items: list[dict[str, Any]] = body.json()["data"]
    for item in items:
        item["to"].pop("id")  # the subscriber's internal id: new in each database
    return items


def test_a_database_made_before_the_flag_columns_is_brought_up_and_answers_the_same(
    tmp_path: Path, shared_thread: SharedService, deep: Service
) -> None:
    docs = old_database(tmp_path / "old.db", deep)
    migrated = Store(tmp_path / "old.db")
    migrated.clock = lambda: NOW
    migrated.checkpoint_stride = STRIDE
    db = migrated.read()
    columns = {row["name"] for row in db.execute("PRAGMA table_info(messages)")}
    assert {"archived", "snoozed_until"} <= columns
    indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"messages_by_flags", "messages_by_snooze"} <= indexes
    assert not {"messages_inbox", "messages_snoozed"} & indexes
    # The columns filled from the documents, which are left as they were.
    assert dict(db.execute("SELECT id, doc FROM messages").fetchall()) == docs
    archived, snoozed = (
        {row[0] for row in db.execute(f"SELECT id FROM messages WHERE {where}")}
        for where in ("archived = 1", "snoozed_until IS NOT NULL")
    )
    states = initial_state()
    assert archived == {k for k, s in states.items() if s.archived} | {jane_message(2)}
    assert snoozed == {k for k, s in states.items() if s.snoozed_until} | {
        jane_message(3),
        jane_message(4),
    }
    # Opened again: nothing more to do, and the flags stay.
    Store(tmp_path / "old.db").close()
    assert db.execute("SELECT COUNT(*) FROM messages WHERE archived = 1").fetchone()[0] == len(
        archived
    )

    with serving(migrated, shared_thread) as old:
        # Jane: 2 archived; 3 snoozed; 4's snooze ends on the first request, as on `deep`.
        assert jane_counts(old) == jane_counts(deep)
        assert jane_counts(old)[:2] == [1, 1]
        for tab in TABS:
            assert jane_inbox(old, **tab) == jane_inbox(deep, **tab), tab
        assert_tabs(old, states)
        newest = listing(states, VISIBLE)[0]
        with old.http() as http:
            http.patch(f"{INBOX}/{newest}/archive").raise_for_status()
        states[newest].archived = True
        assert_tabs(old, states)
