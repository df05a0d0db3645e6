"""API keys: production's 401s, and scoping of every query by environment."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from tests.conftest import OTHER_KEY, STAGING_KEY, Service


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (None, "Missing authorization header"),
        ("Bearer staging-key-0123456789abcdef", 'Invalid authentication scheme: "Bearer"'),
        ("ApiKey", "Unauthorized"),
        ("ApiKey  \t x", "API Key not found"),
        ("ApiKey not-a-key-we-know", "API Key not found"),
    ],
)
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/integrations"),
        ("POST", "/v1/integrations/65e000000000000000000002/set-primary"),
        ("POST", "/v1/subscribers/jane/messages/mark-as"),
    ],
)
def test_authentication_failures_are_401(
    service: Service, header: str | None, message: str, method: str, path: str
) -> None:
    before = service.snapshot()
    headers = {"Authorization": header} if header is not None else {}
    with service.http(None) as http:
        response = http.request(
            method,
            path,
            headers=headers,
            json={"messageId": "65f000000000000000000001", "markAs": "read"},
        )
    assert response.status_code == 401
    assert response.json()["message"] == message
    assert response.json()["statusCode"] == 401
    assert service.snapshot() == before


def test_keys_are_stored_as_hashes(service: Service) -> None:
    rows = service.store.read().execute("SELECT key_hash FROM api_keys").fetchall()
    assert len(rows) == 2
    assert all(len(r[0]) == 64 and "key" not in r[0] for r in rows)


def test_each_key_sees_only_its_environment(service: Service) -> None:
    """Everything is scoped to the key's environment, integrations included."""
    with service.http() as staging, service.http(OTHER_KEY) as other:
        mine = {i["name"] for i in staging.get("/v1/integrations").json()["data"]}
        theirs = {i["name"] for i in other.get("/v1/integrations").json()["data"]}
        assert "SendGrid" in mine and "Postmark" not in mine
        assert theirs == {"Postmark", "SMTP"}
        staging_env = staging.get("/v1/environments/me").json()["data"]
        other_env = other.get("/v1/environments/me").json()["data"]
        assert (staging_env["name"], other_env["name"]) == ("Staging", "Other")
        assert other.get("/v1/subscribers/joe").status_code == 404
        assert staging.get("/v1/subscribers/joe").status_code == 200
        jane_here = staging.get("/v1/subscribers/jane").json()["data"]["lastName"]
        jane_there = other.get("/v1/subscribers/jane").json()["data"]["lastName"]
        assert (jane_here, jane_there) == ("Doe", "Elsewhere")
        assert other.get("/v1/messages").json()["totalCount"] == 2


SECRET = "Sk9secretsecret0123456789abcdef"
LETTERS = "SecretLettersOnlyKeyABCDEFGHIJKL"


@pytest.mark.parametrize(
    ("header", "key"),
    [
        (f"ApiKey\t{SECRET}", SECRET),
        (f"ApiKey {SECRET} ", SECRET),
        (f"ApiKey {SECRET}\t", SECRET),
        (f"ApiKey\t{SECRET}\t", SECRET),
        (f"ApiKey{SECRET}", SECRET),
        (f"ApiKey:{SECRET}", SECRET),
        (SECRET, SECRET),
        (f"Bearer\t{SECRET}", SECRET),
        (f"{SECRET} ApiKey", SECRET),
        (LETTERS, LETTERS),
        (f"{LETTERS}\t{SECRET}", LETTERS),
    ],
)
def test_a_401_never_echoes_the_key(service: Service, header: str, key: str) -> None:
    # http.client, unlike httpx, sends a trailing space or tab as the caller wrote it.
    connection = http.client.HTTPConnection(urlsplit(service.url).netloc, timeout=30)
    try:
        connection.request("GET", "/v1/integrations", headers={"Authorization": header})
        response = connection.getresponse()
        text = response.read().decode()
    finally:
        connection.close()
    assert response.status == 401
    assert json.loads(text)["statusCode"] == 401
    assert key not in text and SECRET not in text


def test_a_tab_separates_scheme_and_key(service: Service) -> None:
    with service.http(None) as client:
        response = client.get(
            "/v1/integrations", headers={"Authorization": f"ApiKey\t{STAGING_KEY}"}
        )
    assert response.status_code == 200
