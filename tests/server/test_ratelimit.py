"""Configurable rate limiting, with production's 429 and headers."""

from __future__ import annotations

from tests.conftest import OTHER_KEY, Service, ServiceFactory


def test_off_by_default(service: Service) -> None:
    with service.http() as http:
        responses = [http.get("/v1/integrations") for _ in range(30)]
    assert {r.status_code for r in responses} == {200}
    assert "ratelimit-limit" not in responses[0].headers


def test_429_with_retry_after_past_the_limit(make_service: ServiceFactory) -> None:
    from inboxdesk.server.ratelimit import RateLimit

    service = make_service(rate_limit=RateLimit(requests=3, window=60))
    with service.http() as http, service.http(OTHER_KEY) as other:
        ok = [http.get("/v1/integrations") for _ in range(3)]
        limited = http.post("/v1/integrations/65e000000000000000000003/set-primary")
        elsewhere = other.get("/v1/integrations")
    assert [r.headers["ratelimit-remaining"] for r in ok] == ["2", "1", "0"]
    assert ok[0].headers["ratelimit-limit"] == "3"
    assert 0 < int(ok[0].headers["ratelimit-reset"]) <= 60
    assert limited.status_code == 429
    assert limited.json()["message"] == "API rate limit exceeded"
    assert 0 < int(limited.headers["retry-after"]) <= 60
    assert (
        service.row("SELECT is_primary FROM integrations WHERE id = ?", "65e000000000000000000003")[
            0
        ]
        == 0
    )
    assert elsewhere.status_code == 200, "each environment has its own budget"
