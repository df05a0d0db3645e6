"""/openapi.json describes the real wire shapes: envelopes and error bodies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inboxdesk.client import InboxClient
from inboxdesk.models import MarkAllRequest, MarkAs, MarkAsRequest
from tests.client.faults import FaultTransport
from tests.conftest import STAGING_KEY, Service, jane_message

# The tests that read /openapi.json are kept in this module, so that they run in one
# worker: the first request for it costs the worker's service a CPU-second to build.


def test_openapi_describes_envelopes_and_errors(service: Service) -> None:
    with service.http(None) as http:
        spec = http.get("/openapi.json").json()
    mark = spec["paths"]["/v1/subscribers/{subscriberId}/messages/mark-as"]["post"]
    created = mark["responses"]["201"]["content"]["application/json"]["schema"]["$ref"]
    envelope = spec["components"]["schemas"][created.rsplit("/", 1)[1]]
    assert envelope["required"] == ["data"]
    assert envelope["properties"]["data"]["type"] == "array"
    for status in ("401", "404", "422", "429"):
        ref = mark["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorBody")
    params = {p["name"] for p in mark["parameters"]}
    assert {"subscriberId", "idempotency-key"} <= params
    # The listings document every query parameter they read.
    listings = {
        "/v2/subscribers/{subscriberId}/notifications": [
            "subscriberId", "limit", "offset", "after", "read", "seen", "archived", "snoozed",
            "severity", "tags", "data", "createdGte", "createdLte", "contextKeys",
        ],
        "/v1/notifications": [
            "page", "limit", "subscriberIds", "transactionId", "channels", "templates",
            "emails", "severity", "contextKeys", "topicKey", "subscriptionId", "search",
            "after", "before",
        ],
    }  # fmt: skip
    for path, names in listings.items():
        assert [p["name"] for p in spec["paths"][path]["get"]["parameters"]] == names
    primary = spec["paths"]["/v1/integrations/{integrationId}/set-primary"]["post"]
    assert "200" in primary["responses"] and "400" in primary["responses"]
    error = spec["components"]["schemas"]["ErrorBody"]
    assert {"statusCode", "timestamp", "path", "message", "errors"} <= set(error["properties"])


def test_openapi_is_valid_openapi(service: Service) -> None:
    from openapi_spec_validator import validate

    with service.http(None) as http:
        spec = http.get("/openapi.json").json()
    validate(spec)  # raises with the first problem it finds


@pytest.mark.parametrize(
    "metadata",
    [
        {"type": "regular", "amount": 5, "unit": "minutes"},
        {"type": "regular", "amount": 5, "unit": "minutes", "digestKey": "postId"},
        {"type": "backoff", "amount": 1, "unit": "hours", "backoffAmount": 5},
        {"type": "timed", "amount": 1, "unit": "days", "timed": {"atTime": "09:00"}},
        {"type": "scheduled", "delayPath": "payload.sendAt"},
        {"type": "some-future-kind", "x": 1},
    ],
)
def test_real_step_metadata_satisfies_the_schema(service: Service, metadata: object) -> None:
    from jsonschema import Draft202012Validator

    with service.http(None) as http:
        spec = http.get("/openapi.json").json()
    schema = {
        "$ref": "#/components/schemas/NotificationStep/properties/metadata",
        "components": spec["components"],
    }
    Draft202012Validator(schema).validate(metadata)


async def test_the_service_and_the_client_share_one_request_model(service: Service) -> None:
    """The service validates MarkAsRequest / MarkAllRequest; the client sends their wire form."""
    with service.http() as http:
        paths = http.get("/openapi.json").json()["paths"]
    for path, model in (("mark-as", MarkAsRequest), ("mark-all", MarkAllRequest)):
        body = paths[f"/v1/subscribers/{{subscriberId}}/messages/{path}"]["post"]["requestBody"]
        assert body["content"]["application/json"]["schema"]["$ref"].endswith(model.__name__)
    transport = FaultTransport()
    async with InboxClient(service.url, STAGING_KEY, transport=transport) as client:
        await client.mark_as("jane", [jane_message(1)], "read")
        await client.mark_all("jane", "seen")
    sent = [json.loads(r.content) for r in transport.seen if r.method == "POST"]
    assert sent == [
        MarkAsRequest(message_id=[jane_message(1)], mark_as=MarkAs.READ).to_wire(),
        MarkAllRequest(mark_as=MarkAs.SEEN).to_wire(),
    ]


def test_each_route_is_built_once_and_served_as_built(tmp_path: Path) -> None:
    """The routers' routes are moved into the app (server/app.py `mount`), not included:
    FastAPI builds an included route's validators again, which had tripled the cost of
    starting the service. An included router shows as a route that is not a `Route`."""
    from starlette.routing import Route

    from inboxdesk.server.app import create_app
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store

    app = create_app(ServerSettings(db_path=tmp_path / "x.db"), Store(":memory:"))
    assert [r for r in app.routes if not isinstance(r, Route)] == []
    paths = {r.path for r in app.routes if isinstance(r, Route)}
    assert {"/v1/events/trigger", "/v2/subscribers/{subscriberId}/notifications"} <= paths
