"""Idempotency-Key on POST, as production honours it."""

from __future__ import annotations

import threading

import httpx

from tests.conftest import MAILGUN, OTHER_KEY, SENDGRID, Service, ServiceFactory, jane_message

MARK = "/v1/subscribers/jane/messages/mark-as"


def test_replay_returns_the_stored_response_without_running_again(service: Service) -> None:
    body = {"messageId": jane_message(1), "markAs": "read"}
    with service.http() as http:
        first = http.post(MARK, json=body, headers={"Idempotency-Key": "k-1"})
        assert first.headers["idempotency-key"] == "k-1"
        assert "idempotency-replay" not in first.headers
        # Change the message behind the key's back; a replay must not undo this.
        http.post(MARK, json={"messageId": jane_message(1), "markAs": "unread"})
        again = http.post(MARK, json=body, headers={"Idempotency-Key": "k-1"})
    assert again.status_code == first.status_code == 201
    assert again.headers["idempotency-replay"] == "true"
    assert again.headers["idempotency-key"] == "k-1"
    assert again.json() == first.json()
    row = service.row("SELECT read FROM messages WHERE id = ?", jane_message(1))
    assert row[0] == 0, "the replay did not mark the message read again"


def test_set_primary_replay_does_not_flip_back(service: Service) -> None:
    with service.http() as http:
        first = http.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "p"}
        )
        http.post(f"/v1/integrations/{SENDGRID}/set-primary")
        again = http.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "p"}
        )
    assert again.json() == first.json()
    assert service.row("SELECT is_primary FROM integrations WHERE id = ?", SENDGRID)[0] == 1


def test_errors_are_replayed_too(service: Service) -> None:
    with service.http() as http:
        first = http.post(
            "/v1/subscribers/ghost/messages/mark-as",
            json={"messageId": jane_message(1), "markAs": "read"},
            headers={"Idempotency-Key": "err"},
        )
        again = http.post(
            "/v1/subscribers/ghost/messages/mark-as",
            json={"messageId": jane_message(1), "markAs": "read"},
            headers={"Idempotency-Key": "err"},
        )
    assert first.status_code == again.status_code == 404
    assert again.headers["idempotency-replay"] == "true"
    assert again.json() == first.json()


def test_same_key_with_another_body_is_422(service: Service) -> None:
    with service.http() as http:
        http.post(
            MARK,
            json={"messageId": jane_message(1), "markAs": "read"},
            headers={"Idempotency-Key": "x"},
        )
        before = service.snapshot()
        response = http.post(
            MARK,
            json={"messageId": jane_message(1), "markAs": "unread"},
            headers={"Idempotency-Key": "x"},
        )
    assert response.status_code == 422
    assert response.json()["message"] == 'Request with key "x" is being reused for a different body'
    assert service.snapshot() == before


def test_same_key_on_another_endpoint_is_a_different_body(service: Service) -> None:
    with service.http() as http:
        http.post(f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "y"})
        response = http.post(
            f"/v1/integrations/{SENDGRID}/set-primary", headers={"Idempotency-Key": "y"}
        )
    assert response.status_code == 422


def test_key_still_in_flight_is_409_with_retry_after(make_service: ServiceFactory) -> None:
    service = make_service(operation_delay=1.0)
    body = {"messageId": jane_message(1), "markAs": "read"}
    results: list[httpx.Response] = []

    def first() -> None:
        with service.http() as http:
            results.append(http.post(MARK, json=body, headers={"Idempotency-Key": "slow"}))

    worker = threading.Thread(target=first)
    worker.start()
    with service.http() as http:
        # Wait until the first request holds the key.
        for _ in range(100):
            if service.row("SELECT state FROM idempotency WHERE key = 'slow'"):
                break
            threading.Event().wait(0.02)
        response = http.post(MARK, json=body, headers={"Idempotency-Key": "slow"})
    worker.join()
    assert response.status_code == 409
    assert response.headers["retry-after"] == "1"
    assert results[0].status_code == 201
    with service.http() as http:
        replay = http.post(MARK, json=body, headers={"Idempotency-Key": "slow"})
    assert replay.headers["idempotency-replay"] == "true"


def test_key_longer_than_255_is_400(service: Service) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(
            MARK,
            json={"messageId": jane_message(1), "markAs": "read"},
            headers={"Idempotency-Key": "k" * 256},
        )
        ok = http.post(
            MARK,
            json={"messageId": jane_message(1), "markAs": "seen"},
            headers={"Idempotency-Key": "k" * 255},
        )
    assert response.status_code == 400
    assert "255" in response.json()["message"]
    assert ok.status_code == 201
    assert before != service.snapshot()


def test_keys_are_scoped_to_the_organization(make_service: ServiceFactory) -> None:
    service = make_service()
    store = service.store
    # A second organization with its own environment and key, over the same database.
    org = store.create_organization("Second")
    env = store.create_environment(org, "Main")
    store.add_api_key(env, "second-org-key-0123456789")
    with service.http() as http, service.http("second-org-key-0123456789") as second:
        first = http.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "shared"}
        )
        theirs = second.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "shared"}
        )
    assert first.status_code == 200
    assert theirs.status_code == 404 and "idempotency-replay" not in theirs.headers


def test_keys_are_shared_by_the_environments_of_one_organization(service: Service) -> None:
    """As in production: a key is the organization's, whichever environment's API key
    sends it, so environments are not isolated from each other's keys."""
    with service.http() as http, service.http(OTHER_KEY) as other:
        first = http.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "org-wide"}
        )
        again = other.post(
            f"/v1/integrations/{MAILGUN}/set-primary", headers={"Idempotency-Key": "org-wide"}
        )
    assert first.status_code == 200
    assert again.status_code == 200 and again.headers.get("idempotency-replay") == "true"
    assert again.json() == first.json()


def test_an_empty_key_is_a_400_and_changes_nothing(service: Service) -> None:
    before = service.snapshot()
    body = {"messageId": jane_message(1), "markAs": "read"}
    with service.http() as http:
        # httpx refuses a value with surrounding whitespace, so "" is the blank case.
        response = http.post(MARK, json=body, headers={"Idempotency-Key": ""})
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["statusCode"] == 400 and error["path"] == MARK
    assert "must not be empty" in error["message"]
    assert service.snapshot() == before
