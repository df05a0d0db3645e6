"""The v2 inbox of the local service, as production serves it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import JOE_MESSAGES, Service, ServiceFactory, jane_message

INBOX = "/v2/subscribers/jane/notifications"


def ids(body: dict[str, object]) -> list[str]:
    return [n["id"] for n in body["data"]]  # type: ignore[index, union-attr]


def test_the_list_pages_newest_first_with_no_total(service: Service) -> None:
    with service.http() as http:
        first = http.get(INBOX, params={"limit": 5}).json()
        rest = http.get(INBOX, params={"limit": 5, "after": ids(first)[-1]}).json()
        offset = http.get(INBOX, params={"limit": 5, "offset": 5}).json()
    assert first["hasMore"] is True and "totalCount" not in first and first["filter"] == {}
    assert ids(rest) == ids(offset) and not set(ids(rest)) & set(ids(first))
    item = first["data"][0]
    assert item["to"]["subscriberId"] == "jane" and item["channelType"] == "in_app"
    assert {"isRead", "isSeen", "isArchived", "isSnoozed", "severity", "body"} <= set(item)
    assert JOE_MESSAGES[0] not in ids(first)


def test_archive_hides_a_notification_from_the_inbox_tab_and_shows_it_on_archived(
    service: Service,
) -> None:
    target = jane_message(11)
    inbox = {"archived": "false", "snoozed": "false", "limit": 100}
    with service.http() as http:
        archived = http.patch(f"{INBOX}/{target}/archive")
        assert archived.status_code == 200, archived.text
        assert archived.json()["data"]["isArchived"] is True
        assert archived.json()["data"]["archivedAt"]
        assert target not in ids(http.get(INBOX, params=inbox).json())
        assert target in ids(http.get(INBOX, params={"archived": "true"}).json())
        counts = http.get(
            "/v2/subscribers/jane/notifications/count",
            params={"filters": '[{"archived": true}, {"read": false, "archived": false}]'},
        ).json()["data"]
        assert counts[0]["count"] == 1
        http.patch(f"{INBOX}/{target}/unarchive").raise_for_status()
        assert target in ids(http.get(INBOX, params=inbox).json())


def test_a_snooze_ends_by_itself_when_its_time_passes(service: Service) -> None:
    now = datetime(2026, 11, 24, 12, tzinfo=UTC)
    service.store.clock = lambda: now
    target = jane_message(10)
    until = (now + timedelta(hours=2)).isoformat()
    with service.http() as http:
        snoozed = http.patch(f"{INBOX}/{target}/snooze", json={"snoozeUntil": until})
        assert snoozed.status_code == 200, snoozed.text
        assert snoozed.json()["data"]["isSnoozed"] is True
        assert target in ids(http.get(INBOX, params={"snoozed": "true"}).json())
        service.store.clock = lambda: now + timedelta(hours=3)
        back = http.get(INBOX, params={"snoozed": "false", "limit": 100}).json()
    item = next(n for n in back["data"] if n["id"] == target)
    assert item["isSnoozed"] is False and "snoozedUntil" not in item
    assert item["deliveredAt"][-1].startswith("2026-11-24T15:00")


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({}, 422),
        ({"snoozeUntil": "soon"}, 422),
        ({"snoozeUntil": "2020-01-01T00:00:00Z"}, 422),  # in the past
    ],
)
def test_bad_snoozes_are_422(service: Service, body: dict[str, str], status: int) -> None:
    with service.http() as http:
        answer = http.patch(f"{INBOX}/{jane_message(1)}/snooze", json=body)
    assert answer.status_code == status and "error" not in answer.json()


def test_errors_as_production_words_them(service: Service) -> None:
    with service.http() as http:
        nobody = http.get("/v2/subscribers/nobody/notifications")
        assert nobody.status_code == 404
        assert nobody.json()["message"] == "Subscriber 'nobody' was not found"
        acted = http.patch(f"/v2/subscribers/nobody/notifications/{jane_message(1)}/read")
        assert acted.status_code == 404 and "'nobody' was not found" in acted.json()["message"]
        seen = "/v2/subscribers/nobody/notifications/seen"
        assert http.post(seen, json={"notificationIds": []}).status_code == 204
        assert http.post(seen, json={}).status_code == 404
        both = http.get(INBOX, params={"read": "false", "archived": "true"})
        assert both.status_code == 400 and "unread and archived" in both.json()["message"]
        assert http.get(INBOX, params={"limit": 101}).status_code == 422
        assert http.get(INBOX, params={"read": "maybe"}).status_code == 200
        unknown = http.patch(f"{INBOX}/65f0000000000000000fffff/read")
        assert unknown.status_code == 404
        other = http.patch(f"{INBOX}/{JOE_MESSAGES[0]}/read")
        assert other.status_code == 404, "another subscriber's notification is not found"


def test_bulk_seen_answers_204(service: Service) -> None:
    with service.http() as http:
        answer = http.post(f"{INBOX}/seen", json={"notificationIds": [jane_message(1)]})
    assert answer.status_code == 204 and answer.content == b""
    assert service.row("SELECT seen FROM messages WHERE id = ?", jane_message(1))[0] == 1


def test_an_older_service_without_the_v2_inbox_answers_404(make_service: ServiceFactory) -> None:
    service = make_service(v2_inbox=False)
    with service.http() as http:
        assert http.get(INBOX).status_code == 404
        assert http.patch(f"{INBOX}/{jane_message(1)}/read").status_code == 404


def test_the_list_reads_its_query_as_fastapi_read_declared_parameters(service: Service) -> None:
    """A repeated value: the last one sent; a list: every value sent; none sent: absent."""
    with service.http() as http:
        last = http.get(f"{INBOX}?limit=1&limit=3&read=true&read=false").json()
        many = http.get(f"{INBOX}?severity=high&severity=none&tags=&contextKeys=").json()
        plain = http.get(INBOX).json()
    assert len(last["data"]) == 3 and last["filter"] == {"read": False}
    assert many["filter"]["severity"] == ["high", "none"]
    assert many["filter"]["tags"] == [""]
    assert "contextKeys" not in many["filter"]  # an empty key: messages with no context
    assert plain["filter"] == {}
