"""Mark messages over HTTP, as production's mark-as does."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from inboxdesk.models import MarkAs
from inboxdesk.server.fixtures import load_fixture, read_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Caller, Store
from tests.client.faults import loopback_client
from tests.conftest import (
    EXAMPLE,
    JOE_MESSAGES,
    OTHER_ENV_MESSAGES,
    OTHER_KEY,
    STAGING_KEY,
    Service,
    jane_message,
)

MARK = "/v1/subscribers/jane/messages/mark-as"
FEED_OF_JANE = "/v1/subscribers/jane/notifications/feed"

# (read, seen) before the call: one message in each of the four states.
STATES = {
    jane_message(0): (True, True),
    jane_message(1): (False, False),
    jane_message(2): (False, True),
    jane_message(3): (True, False),
}


def stored(service: Service, message_id: str) -> dict[str, Any]:
    row = service.row(
        "SELECT read, seen, last_read_date, last_seen_date FROM messages WHERE id = ?", message_id
    )
    return {
        "read": bool(row[0]),
        "seen": bool(row[1]),
        "lastReadDate": row[2],
        "lastSeenDate": row[3],
    }


def recent(stamp: str | None) -> bool:
    assert stamp is not None and stamp.endswith("Z")
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return datetime.now(UTC) - when < timedelta(seconds=30)


@pytest.mark.parametrize("single", [True, False], ids=["single-id", "id-array"])
@pytest.mark.parametrize("mark_as", ["read", "unread", "seen", "unseen"])
def test_flags_and_dates_follow_the_table(service: Service, mark_as: str, single: bool) -> None:
    ids = list(STATES)
    for message_id, (read, seen) in STATES.items():
        service.store.read().execute(
            "UPDATE messages SET read = ?, seen = ?, last_read_date = NULL, last_seen_date = NULL "
            "WHERE id = ?",
            (int(read), int(seen), message_id),
        )
    targets = ids[:1] if single else ids
    body = {"messageId": targets[0] if single else targets, "markAs": mark_as}
    with service.http() as http:
        response = http.post(MARK, json=body)
    assert response.status_code == 201
    returned = response.json()["data"]
    assert [m["_id"] for m in returned] == targets
    for message in returned:
        before_read, _ = STATES[message["_id"]]
        expected_read = {"read": True, "unread": False}.get(mark_as, before_read)
        expected_seen = mark_as != "unseen"
        assert (message["read"], message["seen"]) == (expected_read, expected_seen)
        assert recent(message["lastSeenDate"])
        if mark_as in ("read", "unread"):
            assert recent(message["lastReadDate"])
        else:
            assert "lastReadDate" not in message, "seen/unseen leave lastReadDate alone"
        after = stored(service, message["_id"])
        assert after == {k: message.get(k) for k in after}
    untouched = [i for i in ids if i not in targets]
    for message_id in untouched:
        assert stored(service, message_id)["lastSeenDate"] is None


def test_dates_are_set_even_when_the_flag_already_had_the_value(service: Service) -> None:
    with service.http() as http:
        first = http.post(MARK, json={"messageId": jane_message(0), "markAs": "read"}).json()
        second = http.post(MARK, json={"messageId": jane_message(0), "markAs": "read"}).json()
    assert second["data"][0]["lastReadDate"] >= first["data"][0]["lastReadDate"]
    assert second["data"][0]["read"] is True


def test_foreign_ids_come_back_unchanged_unknown_ones_not_and_order_is_kept(
    service: Service,
) -> None:
    """As production since August 2025: only jane's come back, changed; another
    subscriber's and unknown ids are absent."""
    before = service.snapshot()
    ids = [
        jane_message(7),
        JOE_MESSAGES[0],
        "65f0000000000000000fffff",
        OTHER_ENV_MESSAGES[0],
        jane_message(2),
        jane_message(7),
    ]
    with service.http() as http:
        response = http.post(MARK, json={"messageId": ids, "markAs": "seen"})
    assert response.status_code == 201
    returned = response.json()["data"]
    assert [m["_id"] for m in returned] == [jane_message(7), jane_message(2)]
    changed = {row[0] for row in set(service.snapshot()) - set(before)}
    assert changed == {jane_message(7), jane_message(2)}


OBJECT_IDS = "messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds"


@pytest.mark.parametrize(
    ("missing", "messages"),
    [
        ({}, ["messageId should not be null or undefined", OBJECT_IDS]),
        ({"messageId": None}, ["messageId should not be null or undefined", OBJECT_IDS]),
        ({"messageId": ""}, [OBJECT_IDS]),
        ({"messageId": []}, [OBJECT_IDS]),
    ],
)
def test_missing_or_empty_message_id_is_422_in_general(
    service: Service, missing: dict[str, Any], messages: list[str]
) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(MARK, json={**missing, "markAs": "read"})
    assert response.status_code == 422
    body = response.json()
    assert body["message"] == "Validation Error"
    assert body["errors"] == {"general": {"messages": messages, "value": "No Value Recorded"}}
    assert service.snapshot() == before


def test_a_comma_joined_message_id_is_refused_not_split(service: Service) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(
            MARK, json={"messageId": f"{jane_message(1)},{jane_message(3)}", "markAs": "read"}
        )
    assert response.status_code == 422
    assert response.json()["errors"]["general"]["messages"] == [OBJECT_IDS]
    assert service.snapshot() == before


def test_response_messages_are_productions_slimmer_dto(service: Service) -> None:
    with service.http() as http:
        message = http.post(MARK, json={"messageId": jane_message(4), "markAs": "read"}).json()[
            "data"
        ][0]
    for left_out in ("subscriber", "template", "contextKeys", "archived", "tags"):
        assert left_out not in message, left_out
    assert message["_feedId"] is None
    assert message["content"][1] == {
        "type": "button",
        "content": "Pay now",
        "url": "https://pay.example.test",
    }
    assert message["cta"]["action"]["status"] == "pending"
    for field in (
        "_environmentId",
        "_organizationId",
        "_notificationId",
        "_subscriberId",
        "createdAt",
        "transactionId",
        "channel",
        "status",
    ):
        assert message[field]


def test_unknown_subscriber_is_404(service: Service) -> None:
    with service.http() as http:
        response = http.post(
            "/v1/subscribers/nobody/messages/mark-as",
            json={"messageId": jane_message(0), "markAs": "read"},
        )
    assert response.status_code == 404
    assert response.json()["message"] == "Subscriber nobody not found"


def test_another_environment_sees_its_own_jane_only(service: Service) -> None:
    with service.http(OTHER_KEY) as http:
        response = http.post(
            MARK, json={"messageId": [jane_message(0), OTHER_ENV_MESSAGES[1]], "markAs": "read"}
        )
    assert [m["_id"] for m in response.json()["data"]] == [OTHER_ENV_MESSAGES[1]]
    assert stored(service, jane_message(1))["read"] is False


@pytest.mark.parametrize(
    ("mark_as", "column", "value"),
    [("read", "read", 1), ("seen", "seen", 1), ("unread", "read", 0), ("unseen", "seen", 0)],
)
def test_mark_all_changes_every_in_app_message(
    service: Service, mark_as: str, column: str, value: int
) -> None:
    query = (
        "SELECT COUNT(*) FROM messages m JOIN subscribers s ON s.id = m.subscriber_pk "
        "JOIN environments e ON e.id = s.environment_id WHERE e.name = 'Staging' "
        f"AND s.subscriber_id = 'jane' AND m.channel = 'in_app' AND m.{column} != ?"
    )
    differing = service.row(query, value)[0]
    email_before = service.row("SELECT read, seen FROM messages WHERE id = ?", jane_message(200))
    with service.http() as http:
        response = http.post("/v1/subscribers/jane/messages/mark-all", json={"markAs": mark_as})
    assert response.status_code == 201
    assert response.json() == {"data": differing}
    assert service.row(query, value)[0] == 0
    assert tuple(
        service.row("SELECT read, seen FROM messages WHERE id = ?", jane_message(200))
    ) == tuple(email_before)
    other = service.row("SELECT read FROM messages WHERE id = ?", OTHER_ENV_MESSAGES[0])[0]
    assert other == 0, "the other environment's jane is untouched"


class GatedStore(Store):
    """The real store, whose mark-as waits for the test to let it go."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entered = threading.Event()
        self.release = threading.Event()

    def mark_as(
        self, caller: Caller, subscriber_id: str, message_ids: Sequence[str], mark_as: MarkAs
    ) -> list[dict[str, Any]]:
        self.entered.set()
        assert self.release.wait(30), "the test never released the write"
        return super().mark_as(caller, subscriber_id, message_ids, mark_as)


def test_a_store_call_in_progress_never_blocks_the_event_loop(tmp_path: Path) -> None:
    """Store calls run in worker threads: while a write is held, reads are answered."""
    store = GatedStore(tmp_path / "gated.db")
    load_fixture(store, read_fixture(EXAMPLE))
    with ServiceThread(ServerSettings(db_path=store.path), store) as service:
        headers = {"Authorization": f"ApiKey {STAGING_KEY}"}
        answers: list[httpx.Response] = []

        def write() -> None:
            body = {"messageId": jane_message(1), "markAs": "read"}
            with loopback_client(base_url=service.url, headers=headers, timeout=30) as http:
                answers.append(http.post(MARK, json=body))

        writer = threading.Thread(target=write)
        writer.start()
        try:
            assert store.entered.wait(30), "the write never reached the store"
            with loopback_client(base_url=service.url, headers=headers, timeout=10) as http:
                assert http.get("/v1/integrations").status_code == 200
                assert http.get(FEED_OF_JANE).json()["data"][0]["_id"] == jane_message(11)
            assert not answers, "the write is still held"
        finally:
            store.release.set()
            writer.join(30)
    assert [a.status_code for a in answers] == [201]
