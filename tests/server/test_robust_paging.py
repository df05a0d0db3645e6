"""Out-of-range page and limit values get a 4xx in the JSON error shape on every listing."""

from __future__ import annotations

import pytest

from tests.conftest import Service

LISTINGS = [
    "/v1/subscribers",
    "/v1/subscribers/jane/notifications/feed",
    "/v1/subscribers/jane/notifications/unseen",
    "/v1/messages",
]
# "1e3" and "2.0" are fine: production reads query numbers as JSON numbers.
BAD = [str(10**30), str(2**63), "-1", "-" + str(10**30), "abc", "1.5", "", "NaN"]


@pytest.mark.parametrize("path", LISTINGS)
@pytest.mark.parametrize("name", ["page", "limit"])
def test_out_of_range_paging_is_a_json_4xx(service: Service, path: str, name: str) -> None:
    with service.http() as http:
        for value in BAD:
            response = http.get(path, params={name: value})
            if name == "page" and path.endswith("/unseen"):
                # unseen has no page; an unknown query parameter is ignored.
                assert response.status_code == 200, (value, response.text)
                continue
            assert 400 <= response.status_code < 500, (value, response.text)
            body = response.json()
            assert body["statusCode"] == response.status_code
            assert body["path"].split("?")[0] == path  # production keeps the query
            # A validation error names the parameter; production's own 400 for a large
            # /v1/messages limit says it in its message.
            assert name in body.get("errors", {}) or name in body["message"].lower(), body


def test_the_last_allowed_page_is_empty_not_an_error(service: Service) -> None:
    with service.http() as http:
        response = http.get("/v1/messages", params={"page": 10**9, "limit": 1000})
    assert response.status_code == 200
    assert response.json()["data"] == []
