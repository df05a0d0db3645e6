"""Malformed requests get their documented 4xx, never a 500, and change nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Service, fuzz_examples, jane_message

MARK = "/v1/subscribers/jane/messages/mark-as"
VALID_ID = jane_message(1)


OBJECT_IDS = "messageId must be a valid MongoDB ObjectId or an array of valid MongoDB ObjectIds"
STATES = "markAs must be one of the following values: read, seen, unread, unseen"
ID_MISSING = ["messageId should not be null or undefined", OBJECT_IDS]


@pytest.mark.parametrize(
    ("content", "status", "messages"),
    [
        (b"{not json", 422, None),
        (b"", 422, None),
        (b"[1, 2]", 422, None),
        (b'"read"', 422, None),
        (json.dumps({"messageId": VALID_ID, "markAs": "bogus"}).encode(), 422, [STATES]),
        (json.dumps({"messageId": VALID_ID, "markAs": "READ"}).encode(), 422, [STATES]),
        (
            json.dumps({"messageId": VALID_ID}).encode(),
            422,
            ["markAs should not be null or undefined", STATES],
        ),
        # Missing or empty: refused as production's validators refuse them.
        (json.dumps({"markAs": "read"}).encode(), 422, ID_MISSING),
        (json.dumps({"messageId": None, "markAs": "read"}).encode(), 422, ID_MISSING),
        (json.dumps({"messageId": [], "markAs": "read"}).encode(), 422, [OBJECT_IDS]),
        (json.dumps({"messageId": "", "markAs": "read"}).encode(), 422, [OBJECT_IDS]),
        # Ids joined by commas are not split.
        (
            json.dumps({"messageId": f"{VALID_ID},{jane_message(2)}", "markAs": "read"}).encode(),
            422,
            [OBJECT_IDS],
        ),
        (
            json.dumps({"messageId": f"{VALID_ID},not-an-id", "markAs": "read"}).encode(),
            422,
            [OBJECT_IDS],
        ),
        (
            json.dumps({"messageId": [VALID_ID] * 1001, "markAs": "read"}).encode(),
            422,
            ["messageId must contain no more than 1000 ids"],
        ),
        (json.dumps({"messageId": 12, "markAs": "read"}).encode(), 422, [OBJECT_IDS]),
        (json.dumps({"messageId": [VALID_ID, 7], "markAs": "read"}).encode(), 422, [OBJECT_IDS]),
        (
            json.dumps({"messageId": {"id": VALID_ID}, "markAs": "read"}).encode(),
            422,
            [OBJECT_IDS],
        ),
        (json.dumps({"messageId": "nope", "markAs": "nope"}).encode(), 422, [OBJECT_IDS, STATES]),
        (json.dumps({"messageId": VALID_ID, "markAs": ["read"]}).encode(), 422, [STATES]),
        (
            json.dumps({"messageId": VALID_ID, "markAs": None}).encode(),
            422,
            ["markAs should not be null or undefined", STATES],
        ),
        (b'{"messageId": Infinity, "markAs": NaN}', 422, None),
        (b'{"messageId": "' + b"a" * (1024 * 1024) + b'", "markAs": "read"}', 413, None),
    ],
    ids=lambda v: v.decode()[:40] if isinstance(v, bytes) else str(v)[:30],
)
def test_bad_mark_as_bodies(
    service: Service, content: bytes, status: int, messages: list[str] | None
) -> None:
    """A body production's validators refuse: one 422 with every sentence under
    `errors.general`, no value echoed, and nothing changed."""
    before = service.snapshot()
    with service.http() as http:
        response = http.post(MARK, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == status
    body = response.json()
    assert body["statusCode"] == status and body["path"] == MARK and body["message"]
    if status == 422:
        assert body["message"] == "Validation Error" and "error" not in body
        assert set(body["errors"]) == {"general"}, body
        general = body["errors"]["general"]
        assert general["value"] == "No Value Recorded" and all(general["messages"])
        if messages is not None:
            assert general["messages"] == messages
    assert service.snapshot() == before


def test_an_upper_case_message_id_is_the_same_message(service: Service) -> None:
    with service.http() as http:
        response = http.post(MARK, json={"messageId": VALID_ID.upper(), "markAs": "read"})
    assert response.status_code == 201
    assert [m["_id"] for m in response.json()["data"]] == [VALID_ID]


def test_1000_ids_are_accepted(service: Service) -> None:
    ids = [VALID_ID] + [f"65f0000000000000001{n:05d}" for n in range(999)]
    with service.http() as http:
        response = http.post(MARK, json={"messageId": ids, "markAs": "seen"})
    assert response.status_code == 201
    assert [m["_id"] for m in response.json()["data"]] == [VALID_ID]


def test_body_without_json_content_type_says_so(service: Service) -> None:
    with service.http() as http:
        response = http.post(
            MARK,
            content=json.dumps({"messageId": VALID_ID, "markAs": "read"}),
            headers={"Content-Type": "text/plain"},
        )
    assert response.status_code == 422
    general = response.json()["errors"]["general"]["messages"]
    assert "Content-Type: application/json" in general[0]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/v1/unknown", 404),
        ("POST", "/v1/integrations", 405),
        ("GET", "/v1/integrations/x/set-primary", 405),
        ("DELETE", MARK, 405),
        ("GET", "/nothing-here", 404),
    ],
)
def test_unknown_paths_and_methods(service: Service, method: str, path: str, status: int) -> None:
    with service.http() as http:
        response = http.request(method, path)
    assert response.status_code == status
    assert response.json()["statusCode"] == status


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(
        [VALID_ID, "read", "seen", "unread", "unseen", "", "65f0000000000000000000zz"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = (
    st.fixed_dictionaries(
        {}, optional={"messageId": json_values, "markAs": json_values, "extra": json_values}
    )
    | json_values
)


@pytest.fixture
def http(service: Service) -> Iterator[httpx.Client]:
    """One client for all of a fuzzed test's examples: one kept-alive connection, in
    place of a connection (and a client) made for each example."""
    with service.http() as client:
        yield client


# Shares of the suite's budget (issue 41): the service's refusal of a bad body or id
# has one code path per field, which a few dozen examples reach; `thorough` draws more.
@settings(
    max_examples=fuzz_examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=bodies, subscriber=st.sampled_from(["jane", "nobody", "j%20ane", "jane%00"]))
def test_fuzzed_mark_as_never_5xx_and_rejections_change_nothing(
    service: Service, http: httpx.Client, body: Any, subscriber: str
) -> None:
    before = service.snapshot()
    response = http.post(f"/v1/subscribers/{subscriber}/messages/mark-as", json=body)
    assert response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/json")
    if response.status_code >= 400:
        assert service.snapshot() == before
        assert response.json()["message"]


@settings(
    max_examples=fuzz_examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    integration=st.text(min_size=1, max_size=40).filter(
        lambda s: "/" not in s and s not in {".", ".."}
    ),
    key=st.none()
    | st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=300),
)
def test_fuzzed_set_primary_never_5xx(
    service: Service, http: httpx.Client, integration: str, key: str | None
) -> None:
    before = service.snapshot()
    headers = {"Idempotency-Key": key} if key else {}
    response = http.post(
        f"/v1/integrations/{quote(integration, safe='')}/set-primary", headers=headers
    )
    assert response.status_code in (400, 404, 422), response.text
    assert service.snapshot() == before


def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "payload",
    [
        '{"a":' * 3000 + "1" + "}" * 3000,
        '{"a": NaN}',
        '{"a": "\\ud800"}',
        json.dumps({f"k{n}": n for n in range(900)}),
    ],
    ids=["deep", "nan", "lone-surrogate", "900-keys"],
)
def test_a_hostile_payload_filter_is_400_never_500(service: Service, payload: str) -> None:
    with service.http() as http:
        response = http.get(
            "/v1/subscribers/jane/notifications/feed", params={"payload": _b64(payload)}
        )
    assert response.status_code == 400, response.text


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("mark-as", b'{"messageId": "\\ud800", "markAs": "read"}'),
        ("mark-as", b'{"messageId": "65f000000000000000000001", "markAs": "\\ud800"}'),
        ("mark-all", b'{"markAs": "\\udfff"}'),
    ],
)
def test_a_lone_surrogate_in_a_write_is_422_and_changes_nothing(
    service: Service, path: str, body: bytes
) -> None:
    before = service.snapshot()
    with service.http() as http:
        response = http.post(
            f"/v1/subscribers/jane/messages/{path}",
            content=body,
            headers={"content-type": "application/json"},
        )
    assert response.status_code == 422, response.text
    # A body's errors echo no value: nothing of the surrogate comes back.
    assert response.json()["errors"]["general"]["value"] == "No Value Recorded"
    assert service.snapshot() == before


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("title", "hi \ud800", "messages[0].title: holds a lone surrogate"),
        ("\udfffkey", "x", "messages[0] (a key): holds a lone surrogate"),
        ("score", float("nan"), "messages[0].score: nan is not a JSON number"),
        # Ids and times the service would refuse later (a v2 action, a cursor, a snooze).
        ("_id", "not-an-id", "messages[0]._id: must be a MongoDB id"),
        ("_id", "65f0000000000000000000zz", "messages[0]._id: must be a MongoDB id"),
        ("_notificationId", 7, "messages[0]._notificationId: must be a MongoDB id"),
        ("createdAt", "yesterday", "messages[0].createdAt: must be an ISO 8601 time"),
        ("createdAt", "2026-11-20T10:00:00", "messages[0].createdAt: must be an ISO 8601 time"),
        ("snoozedUntil", "soon", "messages[0].snoozedUntil: must be an ISO 8601 time"),
        ("deliveredAt", ["2026-13-01T00:00:00Z"], "messages[0].deliveredAt: must be an ISO"),
    ],
)
def test_the_fixture_loader_refuses_what_it_could_not_serve(
    tmp_path: Any, field: str, value: Any, said: str
) -> None:
    from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
    from inboxdesk.server.store import Store
    from tests.conftest import EXAMPLE

    fixture = read_fixture(EXAMPLE)
    fixture["environments"][0]["messages"][0][field] = value
    store = Store(tmp_path / "x.db")
    with pytest.raises(FixtureError, match=re.escape(said)):
        load_fixture(store, fixture)
    assert store.is_empty(), "nothing was stored"


def test_the_fixture_loader_stores_ids_and_times_as_the_service_reads_them(
    tmp_path: Any,
) -> None:
    from inboxdesk.server.fixtures import load_fixture, read_fixture
    from inboxdesk.server.store import Store
    from tests.conftest import EXAMPLE

    fixture = read_fixture(EXAMPLE)
    message = fixture["environments"][0]["messages"][0]
    message["_id"] = "65F00000000000000000ABCD"
    message["createdAt"] = "2026-11-20T12:00:00+02:00"
    store = Store(tmp_path / "x.db")
    load_fixture(store, fixture)
    row = (
        store.read()
        .execute("SELECT created_at FROM messages WHERE id = ?", ("65f00000000000000000abcd",))
        .fetchone()
    )
    assert tuple(row) == ("2026-11-20T10:00:00.000Z",)


# Malformed bodies for the routes added for triggers and a subscriber's own data.
MALFORMED = [
    b"{not json",
    b"",
    b"[1, 2]",
    b"null",
    b'"x"',
    b"12",
    json.dumps({"name": None, "to": None, "payload": None}).encode(),
    json.dumps({"name": 12, "to": {"subscriberId": ["a"]}, "payload": []}).encode(),
    json.dumps({"name": "w", "to": [None, 1, {}], "payload": {"a": "\ud800"}}).encode(),
    json.dumps({"name": "w", "to": "jane", "transactionId": {"x": 1}}).encode(),
    json.dumps({"name": "w", "to": {"subscriberId": ""}, "overrides": "x"}).encode(),
    json.dumps({"firstName": {"a": 1}, "email": [1], "data": "x", "phone": 1e308}).encode(),
    json.dumps({"timezone": "Mars/Base", "locale": None, "avatar": 5}).encode(),
    json.dumps({"providerId": None, "credentials": None}).encode(),
    json.dumps({"providerId": "fcm", "credentials": {"deviceTokens": "t"}}).encode(),
    json.dumps({"providerId": "fcm", "credentials": {"deviceTokens": [1, None, {}]}}).encode(),
    json.dumps({"providerId": ["fcm"], "credentials": []}).encode(),
    json.dumps({"providerId": "slack", "credentials": {"webhookUrl": 5}}).encode(),
    json.dumps({"providerId": "slack", "integrationIdentifier": {}, "credentials": {}}).encode(),
]
ROUTES = [
    ("POST", "/v1/events/trigger"),
    ("POST", "/v1/events/trigger/bulk"),
    ("PATCH", "/v2/subscribers/jane"),
    ("PUT", "/v1/subscribers/jane/credentials"),
    ("PATCH", "/v1/subscribers/jane/credentials"),
    ("PUT", "/v1/subscribers/ghost/credentials"),
    ("DELETE", "/v1/subscribers/jane/credentials/%00fcm"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_malformed_trigger_and_subscriber_data_bodies_are_4xx_never_500(
    service: Service, method: str, path: str
) -> None:
    with service.http() as http:
        for content in MALFORMED:
            answer = http.request(
                method, path, content=content, headers={"Content-Type": "application/json"}
            )
            assert answer.status_code < 500, (method, path, content, answer.text)
