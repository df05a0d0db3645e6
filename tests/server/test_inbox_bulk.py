"""The v2 inbox's bulk operations on the local service: 204 with no body and no count,
every channel's messages of the subscriber, new dates even for those already in the
state, and production's errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import JOE_MESSAGES, Service, jane_message

BASE = "/v2/subscribers/jane/notifications"
EMAIL = "65f000000000000000000200"  # jane's one email message


def jane(service: Service, where: str = "1") -> int:
    subscriber = service.row(
        "SELECT id FROM subscribers WHERE json_extract(doc, '$.subscriberId') = 'jane'"
    )[0]
    return int(
        service.row(
            f"SELECT COUNT(*) FROM messages WHERE subscriber_pk = ? AND ({where})", subscriber
        )[0]
    )


def joe_untouched(service: Service) -> bool:
    row = service.row("SELECT read, archived FROM messages WHERE id = ?", JOE_MESSAGES[0])
    return tuple(row) == (0, 0)


def test_read_marks_every_channel_and_gives_new_dates(service: Service) -> None:
    now = datetime(2026, 11, 24, 12, tzinfo=UTC)
    service.store.clock = lambda: now
    was_read = service.row("SELECT id FROM messages WHERE read = 1 AND channel = 'in_app'")[0]
    with service.http() as http:
        answer = http.post(f"{BASE}/read", json={})
    assert answer.status_code == 204 and answer.content == b""
    assert jane(service, "read = 0 OR seen = 0") == 0
    assert service.row("SELECT read FROM messages WHERE id = ?", EMAIL)[0] == 1, "not in-app only"
    stamp = service.row("SELECT last_read_date FROM messages WHERE id = ?", was_read)[0]
    assert stamp.startswith("2026-11-24T12:00:00"), "already read: a new date all the same"
    assert joe_untouched(service)


def test_archive_keeps_the_snooze_and_read_archive_takes_the_read_ones(service: Service) -> None:
    until = (datetime.now(UTC) + timedelta(hours=3)).isoformat()
    with service.http() as http:
        http.patch(
            f"{BASE}/{jane_message(3)}/snooze", json={"snoozeUntil": until}
        ).raise_for_status()
        read = jane(service, "read = 1")
        assert http.post(f"{BASE}/read-archive").status_code == 204
        assert jane(service, "archived = 1") == read
        assert http.post(f"{BASE}/archive", json={}).status_code == 204
        assert jane(service, "archived = 0") == 0 and jane(service, "read = 0") == 0
        snoozed = http.get(BASE, params={"snoozed": "true"}).json()["data"]
    assert [n["id"] for n in snoozed] == [jane_message(3)]
    assert snoozed[0]["isArchived"] and snoozed[0]["archivedAt"] and snoozed[0]["snoozedUntil"]
    assert joe_untouched(service)


def test_delete_removes_every_message_for_good(service: Service) -> None:
    with service.http() as http:
        assert http.post(f"{BASE}/delete", json={}).status_code == 204
        assert http.get(BASE).json()["data"] == []
    assert jane(service) == 0 and joe_untouched(service)


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/v2/subscribers/ghost/notifications/read", {}, 404, "Subscriber 'ghost' was not found"),
        (f"{BASE}/archive", {"data": "{not json"}, 400, "Invalid JSON format for data parameter"),
    ],
)
def test_errors_are_production_s(
    service: Service, path: str, body: dict[str, str], status: int, words: str
) -> None:
    with service.http() as http:
        answer = http.post(path, json=body)
    assert answer.status_code == status and words in answer.text
    assert jane(service, "archived = 1") == 0


def test_filters_narrow_it(service: Service) -> None:
    with service.http() as http:
        assert http.post(f"{BASE}/archive", json={"tags": ["no-such-tag"]}).status_code == 204
        assert http.post(f"{BASE}/archive", json={"contextKeys": ["tenant:x"]}).status_code == 204
    assert jane(service, "archived = 1") == 0
