"""`serve --load` refuses a fixture it cannot store in one line, and stores none of it:
one whose ids or keys the database already holds, and one with a time at the calendar's
edge (0001-01-01T00:00:00+14:00 is in year 0 in UTC)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.store import Store
from tests.cli.test_serve import serve
from tests.hostile import calendar_edge_fixture, hostile_fixture


def organizations(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        (count,) = connection.execute("SELECT count(*) FROM organizations").fetchone()
    return int(count)


def test_a_fixture_the_database_already_holds_is_refused_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, fixture = tmp_path / "local.db", tmp_path / "hostile.json"
    fixture.write_text(json.dumps(hostile_fixture()))
    store = Store(db)
    load_fixture(store, hostile_fixture())
    store.close()
    result = serve(capsys, "--db", str(db), "--load", str(fixture), "--port", "0")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "already in this database: nothing of it was loaded" in result.stderr
    assert organizations(db) == 1, "no partial organization left behind"


def test_a_time_at_the_calendar_s_edge_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, fixture = tmp_path / "local.db", tmp_path / "edge.json"
    fixture.write_text(json.dumps(calendar_edge_fixture()))
    result = serve(capsys, "--db", str(db), "--load", str(fixture), "--port", "0")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "createdAt" in result.stderr and "years 1 to 9999" in result.stderr
    assert organizations(db) == 0
