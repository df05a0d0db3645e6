"""Every row of the conformance table (production_table.py) against one local service:
the status production answers and the texts its answer holds, or, on a row where the
service chooses to differ, its own answer and the reason written beside it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from tests.client.faults import loopback_client
from tests.conftest import JOE_MESSAGES, STAGING_KEY, jane_message
from tests.contract.production_table import ROWS, Row
from tests.delivery_fixture import delivery_fixture
from tests.shared_service import SharedService
from tests.templates import Templates

GHOST_ID = "65f0000000000000000fffff"


def table_fixture() -> dict[str, Any]:
    """The delivery fixture (jane's messages and notifications, joe's, two environments),
    with a critical workflow, one of jane's messages snoozed and one of joe's the newest."""
    fixture = delivery_fixture()
    staging = fixture["environments"][0]
    staging["workflows"].append(
        {
            "name": "Security alert",
            "critical": True,
            "steps": [
                {"name": "email", "active": True, "template": {"type": "email"}},
                {"name": "sms", "active": True, "template": {"type": "sms"}},
            ],
            "triggers": [{"type": "event", "identifier": "security-alert", "variables": []}],
        }
    )
    for message in staging["messages"]:
        if message["_id"] == jane_message(6):
            message["snoozedUntil"] = "2099-01-01T00:00:00.000Z"
        if message["_id"] == JOE_MESSAGES[2]:  # newer than all of jane's: a cursor for her
            message["createdAt"] = "2026-12-31T00:00:00.000Z"
    return fixture


@pytest.fixture(scope="module")
def table_service(
    tmp_path_factory: pytest.TempPathFactory, templates: Templates, shared_thread: SharedService
) -> Iterator[tuple[httpx.Client, dict[str, str]]]:
    """One service (and one connection to it) for every row, and the values of the
    table's placeholders: a copy of the fixture's template, on a thread of its own served
    by the run's built app."""
    db: Path = tmp_path_factory.mktemp("table") / "table.db"
    store, _ = templates.store(table_fixture(), db)
    settings = ServerSettings(db_path=db)
    thread = ServiceThread(settings, store, app=shared_thread.app_for(settings, store)).start()
    notes = dict(store.read().execute("SELECT transaction_id, id FROM notifications").fetchall())
    now = datetime.now(UTC)
    values = {
        **{f"jane{n}": jane_message(n) for n in range(12)},
        **{f"joe{n}": m for n, m in enumerate(JOE_MESSAGES)},
        "note": notes["txn-delivered"],
        "note_upper": notes["txn-delivered"].upper(),
        "other_note": notes["txn-other-env"],
        "ghost_id": GHOST_ID,
        "in2h": (now + timedelta(hours=2)).isoformat(),
        "in2h_bare": (now + timedelta(hours=2)).replace(tzinfo=None).isoformat(),
        "in30s": (now + timedelta(seconds=30)).isoformat(),
        "in400d": (now + timedelta(days=400)).isoformat(),
    }
    headers = {"Authorization": f"ApiKey {STAGING_KEY}"}
    with loopback_client(base_url=thread.url, headers=headers, timeout=10) as http:
        yield http, values
    thread.stop()


def _filled(value: Any, values: dict[str, str]) -> Any:
    if isinstance(value, str):
        for name, text in values.items():
            value = value.replace("{" + name + "}", text)
        return value
    if isinstance(value, list):
        return [_filled(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _filled(v, values) for k, v in value.items()}
    return value


def test_the_table_holds_each_of_the_138_requests_once() -> None:
    assert [row.id for row in ROWS] == list(range(1, 139))
    for row in ROWS:
        assert row.source.startswith(("apps/", "libs/")), row.id
        assert bool(row.differs) is (row.ours is not None), row.id


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.id}-{row.method}")
def test_the_service_answers_as_production(
    table_service: tuple[httpx.Client, dict[str, str]], row: Row
) -> None:
    http, values = table_service
    status, says = row.expected
    answer = http.request(
        row.method,
        _filled(row.path, values),
        params=_filled(row.query, values),
        json=_filled(row.body, values),
    )
    text = json.dumps(answer.json(), separators=(",", ":")) if answer.content else ""
    assert answer.status_code == status, f"row {row.id}: {answer.status_code} {text[:300]}"
    for said in says:
        assert _filled(said, values) in text, f"row {row.id}: {said!r} not in {text[:400]}"
