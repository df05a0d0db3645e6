"""The demo is seeded without the checks a user's fixture goes through (`load_fixture`'s
`checked=False`, what `inboxdesk demo` and `serve --demo` do at every start): it stores
the very rows the checked load stores, so the demo passes every check and skipping them
changes nothing.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import astuple
from pathlib import Path
from typing import Any

from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.store import Store
from tests.templates import DEMO_NOW, Templates, demo_at

# What a load may draw: ids, keys and a key's hash (hex runs of 12 or more).
HEX = re.compile(r"([0-9a-f]{12,})")
# Stored by the same code either way (only their read-back as a client reads them is
# skipped): their 15,000 rows are counted, not compared (a second of CPU).
SAME_CODE = ("execution_details", "jobs", "notifications")


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows in the order they were stored (those of SAME_CODE counted);
    a key's time of creation (the moment of the load) left out."""
    db = sqlite3.connect(path)
    try:
        found: dict[str, list[tuple[Any, ...]]] = {}
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            if table in SAME_CODE:
                found[table] = db.execute(f"SELECT COUNT(*) FROM {table}").fetchall()
                continue
            cursor = db.execute(f"SELECT * FROM {table} ORDER BY rowid")
            kept = [n != "created_at" or table != "api_keys" for n, *_ in cursor.description]
            found[table] = [tuple(v for v, k in zip(row, kept, strict=True) if k) for row in cursor]
        return found
    finally:
        db.close()


class Drawn:
    """Pairs the values two loads of one fixture drew (hex runs the fixture does not
    hold) one to one: a value of one load is always the same value of the other."""

    def __init__(self, fixture: str) -> None:
        self.fixture = fixture
        self.pairs: dict[str, str] = {}
        self.back: dict[str, str] = {}

    def same(self, one: Any, other: Any) -> bool:
        if one == other:
            return True
        if not (isinstance(one, str) and isinstance(other, str)):
            return False
        ones, others = HEX.split(one), HEX.split(other)
        # Split on a group: the text between runs at even places, the runs at odd ones.
        if len(ones) != len(others) or ones[0::2] != others[0::2]:
            return False
        return all(
            a == b
            or (
                a not in self.fixture
                and b not in self.fixture
                and self.pairs.setdefault(a, b) == b
                and self.back.setdefault(b, a) == a
            )
            for a, b in zip(ones[1::2], others[1::2], strict=True)
        )


def test_the_demo_seeded_unchecked_stores_the_rows_a_checked_load_stores(
    tmp_path: Path, templates: Templates
) -> None:
    fixture = demo_at(DEMO_NOW)
    # The checked load: the run's template of this demo (what the service tests serve).
    checked_store, checked_loaded = templates.store(fixture, tmp_path / "checked.db")
    checked_store.close()
    unchecked_store = Store(tmp_path / "unchecked.db")
    try:
        unchecked_loaded = load_fixture(unchecked_store, fixture, checked=False)
    finally:
        unchecked_store.close()

    checked = rows(tmp_path / "checked.db")
    unchecked = rows(tmp_path / "unchecked.db")
    assert sorted(unchecked) == sorted(checked)
    assert len(checked["messages"]) > 2_900 and checked["jobs"][0][0] > 2_900
    drawn = Drawn(json.dumps(fixture))
    differ = [
        (table, one, other)
        for table in checked
        for one, other in zip(checked[table], unchecked[table], strict=True)
        if len(one) != len(other) or not all(map(drawn.same, one, other))
    ]
    assert differ == []
    # Two keys, their hashes and their users: the demo gives every other id.
    assert len(drawn.pairs) == 6
    for one, other in zip(checked_loaded, unchecked_loaded, strict=True):
        assert all(map(drawn.same, astuple(one), astuple(other)))


def test_a_load_leaves_the_collector_as_it_found_it_even_when_it_fails(tmp_path: Path) -> None:
    """The collector makes no pass while a fixture loads; then it is as it was: on again
    after a load refused half-way, and still off when the app's start-up had turned it
    off (tui/collector.py)."""
    import gc

    from inboxdesk.gc_paused import collector_off
    from inboxdesk.server.fixtures import FixtureError

    store = Store(tmp_path / "refused.db")
    was_on = gc.isenabled()
    try:
        refused = {"environments": [{"name": "Development", "subscribers": "not a list"}]}
        for on in (True, False):
            (gc.enable if on else gc.disable)()
            try:
                load_fixture(store, refused)
            except FixtureError:
                pass
            else:
                raise AssertionError("the fixture was not refused")
            assert gc.isenabled() is on
            with collector_off():
                assert not gc.isenabled()
            assert gc.isenabled() is on
    finally:
        (gc.enable if was_on else gc.disable)()
        store.close()
