"""The local service answers as production does: every body it sends validates against
the schema the production excerpt gives that operation and status.

Over the demo data (both environments, every listing, page and operation) and over
fuzzed requests (Hypothesis), every response of an operation in the excerpt is checked
with a JSON Schema validator. The excerpt documents bodies without the `{"data": ...}`
envelope, so a wrapped body is checked by its `data`.
"""

from __future__ import annotations

import base64
import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import jsonschema_rs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import (
    CONTRACT,
    STAGING_KEY,
    Service,
    ServiceFactory,
    fuzz_examples,
    jane_message,
)
from tests.contract.overlay import loosened
from tests.shared_service import SharedService
from tests.templates import DEMO_NOW, Templates, demo_at

SPEC: dict[str, Any] = json.loads(CONTRACT.read_text())
SCHEMAS: dict[str, Any] = loosened(SPEC["components"]["schemas"])
# Each fuzzed test's share of the suite's budget (issue 41: 70 s on two cores); 30
# each cost 1.3 CPU-s of the four. The `thorough` profile draws ten times as many.
EXAMPLES = fuzz_examples(15)
ERROR = {"$ref": "#/components/schemas/ErrorDto"}


def json_schema(schema: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: refs to `definitions` (DEFINITIONS: a schema may refer
    to itself), `nullable` as a null type, and `oneOf` as `anyOf` (the excerpt's oneOf
    members overlap: a null matches two of them)."""
    if isinstance(schema, list):
        return [json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return {"$ref": "#/definitions/" + schema["$ref"].rsplit("/", 1)[1]}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in {"description", "example", "deprecated", "nullable"}:
            continue
        if key == "properties":
            out[key] = {k: json_schema(v) for k, v in value.items()}
        elif key in {"oneOf", "anyOf", "allOf", "items", "additionalProperties"}:
            out["anyOf" if key == "oneOf" else key] = json_schema(value)
        else:
            out[key] = value
    if schema.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if "allOf" in out:
            out = {"anyOf": [{"type": "null"}, out]}
    return out


def _operations() -> dict[tuple[str, re.Pattern[str]], dict[str, Any]]:
    found = {}
    for template, methods in SPEC["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in methods.items():
            found[(method.upper(), pattern)] = operation
    return found


OPERATIONS = _operations()
DEFINITIONS = {name: json_schema(schema) for name, schema in SCHEMAS.items()}
VALIDATORS: dict[str, Validator] = {}


@dataclass(frozen=True)
class Validator:
    """A schema's validator (jsonschema_rs, compiled in Rust: a page of a thousand
    messages passes in a tenth of the time fastjsonschema's generated code took, and it
    is built in milliseconds, not compiled), which names every error of a failing body."""

    schema: jsonschema_rs.Draft7Validator

    def errors(self, body: Any) -> list[str]:
        if self.schema.is_valid(body):
            return []
        found = sorted(self.schema.iter_errors(body), key=lambda e: list(e.instance_path))
        return [f"{list(e.instance_path)}: {e.message[:200]}" for e in found[:5]]


def _refs(schema: Any) -> set[str]:
    """The definitions `schema` names, directly."""
    if isinstance(schema, list):
        return set().union(*map(_refs, schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    if "$ref" in schema:
        return {schema["$ref"].rsplit("/", 1)[1]}
    return set().union(*map(_refs, schema.values())) if schema else set()


def _reachable(schema: Any) -> dict[str, Any]:
    """The definitions `schema` needs, through every reference of theirs."""
    todo, found = _refs(schema), {}
    while todo:
        name = todo.pop()
        if name not in found:
            found[name] = DEFINITIONS[name]
            todo |= _refs(DEFINITIONS[name]) - set(found)
    return found


DRAFT7 = "http://json-schema.org/draft-07/schema#"


@functools.cache
def _definitions_checked() -> None:
    """Every definition is a valid JSON Schema: checked once, not with each operation's."""
    jsonschema_rs.meta.validate({"$schema": DRAFT7, "definitions": DEFINITIONS})


def validator(operation: dict[str, Any], status: int) -> tuple[Validator, bool]:
    """The validator for a status of an operation, and whether its body is a page (not
    wrapped in `{"data"}`): found once for each (converting the schema and naming it
    cost more than validating most bodies)."""
    key = (id(operation), status)
    if key not in FOUND:
        FOUND[key] = _validator(operation, status)
    return FOUND[key]


# By the operation (an object of SPEC, kept for the run) and the status.
FOUND: dict[tuple[int, int], tuple[Validator, bool]] = {}


def _validator(operation: dict[str, Any], status: int) -> tuple[Validator, bool]:
    response = operation["responses"][str(status)]
    # One error response documents no body; production sends its ErrorDto there too.
    content = response.get("content", {"application/json": {"schema": ERROR}})
    schema = content["application/json"]["schema"]
    converted = json_schema(schema)
    if "$ref" in converted:
        converted = DEFINITIONS[converted["$ref"].rsplit("/", 1)[1]]
    # Operations that answer the same schema (every ErrorDto) share one validator.
    key = json.dumps(converted, sort_keys=True)
    if key not in VALIDATORS:
        _definitions_checked()
        jsonschema_rs.meta.validate({"$schema": DRAFT7, **converted})
        # Only the definitions it reaches: building the rest checks nothing.
        whole = {**converted, "definitions": _reachable(converted)}
        # Formats unchecked, as jsonschema's reference validator leaves them by default.
        VALIDATORS[key] = Validator(jsonschema_rs.Draft7Validator(whole, validate_formats=False))
    # Pages require their `data` beside their counts; a resource's own `data` is optional.
    paged = "data" in converted.get("required", [])
    return VALIDATORS[key], paged or status >= 400


def check(response: httpx.Response) -> Any:
    """Validate one response of the service against the excerpt; return its body."""
    method, path = response.request.method, response.request.url.path
    operation = next(
        (op for (m, pattern), op in OPERATIONS.items() if m == method and pattern.match(path)),
        None,
    )
    assert operation is not None, f"{method} {path} is not an operation of the excerpt"
    assert str(response.status_code) in operation["responses"], (
        f"{method} {path} answered {response.status_code}, which production does not document"
    )
    if response.status_code == 204:
        assert response.content == b"", f"{method} {path}: a 204 has no body"
        return None
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    schema, bare = validator(operation, response.status_code)
    checked = body if bare else body["data"]
    if not bare:
        assert set(body) == {"data"}, f"{method} {path}: a wrapped body holds only data"
    errors = schema.errors(checked)
    assert not errors, f"{method} {response.request.url} {response.status_code}: " + "; ".join(
        errors
    )
    return body


@pytest.fixture(scope="module")
def demo(
    tmp_path_factory: pytest.TempPathFactory, shared_thread: SharedService, templates: Templates
) -> Iterator[tuple[Service, list[str]]]:
    """One service on the demo data for the module, with a key per environment, served
    on a thread of its own by the run's built app: the run's one demo at DEMO_NOW, whose
    template the demo's stories share (a load of its own cost two CPU-seconds)."""
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.settings import ServerSettings

    db = tmp_path_factory.mktemp("demo") / "demo.db"
    store, loaded = templates.store(demo_at(DEMO_NOW), db)
    settings = ServerSettings(db_path=db)
    app = shared_thread.app_for(settings, store)
    thread = ServiceThread(settings, store, app=app).start()
    yield Service(thread.url, store, thread, db), [env.api_key for env in loaded]
    thread.stop()
    store.close()


@pytest.mark.slow
def test_every_demo_read_validates(demo: tuple[Service, list[str]]) -> None:
    service, keys = demo
    for key in keys:
        with service.http(key) as http:
            check(http.get("/v1/integrations"))
            check(http.get("/v1/integrations/active"))
            environments = check(http.get("/v1/environments"))["data"]
            assert [e["name"] for e in environments] == ["Development", "Production"]
            keys_of = {e["_id"]: [k["key"] for k in e["apiKeys"]] for e in environments}
            assert sorted(keys_of.values()) == [[], [key]]
            page = check(http.get("/v2/subscribers", params={"limit": 3}))
            subscribers = list(page["data"])
            while page["next"]:
                page = check(
                    http.get("/v2/subscribers", params={"limit": 3, "after": page["next"]})
                )
                subscribers += page["data"]
            for subscriber in subscribers:
                sid = subscriber["subscriberId"]
                check(http.get(f"/v2/subscribers/{sid}"))
                check(http.get(f"/v2/subscribers/{sid}/subscriptions", params={"limit": 100}))
                filters = json.dumps([{"read": False}, {"seen": False}, {"archived": False}])
                check(
                    http.get(
                        f"/v2/subscribers/{sid}/notifications/count", params={"filters": filters}
                    )
                )
                check(http.get(f"/v1/subscribers/{sid}/notifications/unseen"))
                inbox = f"/v2/subscribers/{sid}/notifications"
                for params in ({"limit": 100}, {"archived": "true"}, {"snoozed": "true"}):
                    check(http.get(inbox, params=params))
                feed = f"/v1/subscribers/{sid}/notifications/feed"
                for params in ({"limit": 100}, {"limit": 100, "page": 1}, {"read": "false"}):
                    body = check(http.get(feed, params=params))
                    assert all(isinstance(i["content"], str) for i in body["data"])
            page_number = 0
            while True:
                body = check(http.get("/v1/messages", params={"limit": 1000, "page": page_number}))
                if not body["hasMore"]:
                    break
                page_number += 1


CHANNELS = {"in_app", "email", "sms", "chat", "push", "tool"}
NO_INTEGRATION = "Subscriber does not have an active integration"


@pytest.mark.slow
def test_the_demo_activity_validates_with_a_provider_on_every_channel_job(
    demo: tuple[Service, list[str]],
) -> None:
    service, keys = demo
    seen = 0
    for key in keys:
        # A notification on both pages (Ada's newest) is read and validated once; the
        # second page's item is held to the same detail.
        details: dict[str, Any] = {}
        with service.http(key) as http:
            # Ada's stories (one for each cause) and the newest page of everyone's.
            for params in ({"subscriberIds": "ada.lovelace", "limit": 50}, {"limit": 50}):
                body = check(http.get("/v1/notifications", params=params))
                for item in body["data"]:
                    if item["_id"] not in details:
                        answer = http.get(f"/v1/notifications/{item['_id']}")
                        details[item["_id"]] = check(answer)["data"]
                    detail = details[item["_id"]]
                    assert detail["jobs"] == item["jobs"]
                    for job in item["jobs"]:
                        seen += 1
                        assert job["type"] != "trigger", "production's feed has no trigger job"
                        assert job["step"]["_parentId"] is None
                        said = {d["detail"] for d in job["executionDetails"]}
                        if job["type"] in CHANNELS and NO_INTEGRATION not in said:
                            assert job.get("providerId"), (item["transactionId"], job["type"])
    assert seen > 50


@pytest.mark.slow
def test_every_demo_write_validates(demo: tuple[Service, list[str]]) -> None:
    service, keys = demo
    listed = {}
    for key in keys:
        with service.http(key) as http:
            listed[key] = check(http.get("/v1/integrations"))["data"]
    for key in keys:
        with service.http(key) as http:
            integrations = listed[key]
            assert {i.get("channel") for i in integrations} >= {"email", "tool", None}
            for integration in integrations:
                check(http.post(f"/v1/integrations/{integration['_id']}/set-primary"))
            # Another environment's: the 403 production documents.
            (other,) = [k for k in keys if k != key]
            refused = http.post(f"/v1/integrations/{listed[other][0]['_id']}/set-primary")
            assert check(refused)["statusCode"] == 403
            check(http.post("/v1/integrations/65e0000000000000000fffff/set-primary"))
            check(http.post("/v1/integrations/nope/set-primary"))
            sid = check(http.get("/v2/subscribers", params={"limit": 1}))["data"][0]["subscriberId"]
            messages = check(http.get("/v1/messages", params={"limit": 50}))["data"]
            ids = [m["_id"] for m in messages]
            mark = f"/v1/subscribers/{sid}/messages/mark-as"
            for state in ("read", "unread", "seen", "unseen"):
                check(http.post(mark, json={"messageId": ids, "markAs": state}))
                check(http.post(mark, json={"messageId": ",".join(ids[:3]), "markAs": state}))
                check(http.post(f"/v1/subscribers/{sid}/messages/mark-all", json={"markAs": state}))
            inbox = f"/v2/subscribers/{sid}/notifications"
            notification = check(http.get(inbox, params={"limit": 1}))["data"][0]["id"]
            later = "2030-01-01T00:00:00Z"
            for action in ("read", "unread", "archive", "unarchive", "unsnooze"):
                check(http.patch(f"{inbox}/{notification}/{action}"))
            check(http.patch(f"{inbox}/{notification}/snooze", json={"snoozeUntil": later}))
            check(http.patch(f"{inbox}/{notification}/snooze", json={"snoozeUntil": "no"}))
            check(http.patch(f"{inbox}/65f0000000000000000fffff/read"))
            check(http.post(f"{inbox}/seen", json={"notificationIds": [notification]}))
            check(http.post(mark, json={"markAs": "read"}))
            check(http.post(mark, json={"messageId": ids, "markAs": "bogus"}))
            check(
                http.post(
                    "/v1/subscribers/ghost/messages/mark-as",
                    json={"messageId": ids[0], "markAs": "read"},
                )
            )


def test_every_error_of_the_example_validates(service: Service) -> None:
    with service.http() as http:
        check(http.get("/v1/subscribers/nobody/notifications/feed", params={"limit": 5}))
        check(http.get("/v1/subscribers/jane/notifications/feed", params={"payload": "nope"}))
        check(http.get("/v1/subscribers/jane/notifications/feed", params={"limit": 0}))
        check(http.get("/v1/messages", params={"limit": 1001}))
        check(http.get("/v2/subscribers/ghost"))
        check(http.get("/v2/subscribers", params={"after": "65f0000000000000000fffff"}))
        check(http.get("/v2/subscribers/jane/notifications/count", params={"filters": "x"}))
    with service.http(None) as http:
        check(http.get("/v1/integrations"))
    with service.http("unknown-key-0123456789") as http:
        check(http.get("/v2/subscribers"))


# -- fuzzed requests ---------------------------------------------------------------------

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
NUMBER = st.one_of(st.integers(-3, 1200), st.sampled_from(["", "1.0", "ten", "NaN", "2e3"]))
BOOLEAN = st.sampled_from(["true", "false", "1", "0", "maybe", ""])
SUBSCRIBERS = st.sampled_from(["jane", "joe", "nobody", "Jane", "j%61ne", ""])
PAYLOADS = st.one_of(
    st.dictionaries(TEXT, st.one_of(st.integers(), TEXT, st.booleans(), st.none()), max_size=3).map(
        lambda d: base64.b64encode(json.dumps(d).encode()).decode()
    ),
    TEXT,
)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


def query(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries({k: maybe(v) for k, v in fields.items()}).map(
        lambda d: {k: str(v) for k, v in d.items() if v is not None}
    )


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(
    subscriber=SUBSCRIBERS,
    params=query(page=NUMBER, limit=NUMBER, read=BOOLEAN, seen=BOOLEAN, payload=PAYLOADS),
)
def test_fuzzed_feed_requests(service: Service, subscriber: str, params: dict[str, str]) -> None:
    with service.http() as http:
        check(http.get(f"/v1/subscribers/{subscriber or 'x'}/notifications/feed", params=params))


@FUZZ
@given(
    params=query(
        page=NUMBER,
        limit=NUMBER,
        channel=st.sampled_from(["in_app", "email", "sms", "chat", "push", "fax"]),
        subscriberId=SUBSCRIBERS,
        transactionId=st.sampled_from(["txn-1", "txn-mail", "none"]),
    )
)
def test_fuzzed_message_listings(service: Service, params: dict[str, str]) -> None:
    with service.http() as http:
        check(http.get("/v1/messages", params=params))


@FUZZ
@given(
    params=query(
        email=TEXT,
        name=st.one_of(TEXT, st.sampled_from(["jane", "Doe", "o"])),
        phone=TEXT,
        subscriberId=st.one_of(TEXT, SUBSCRIBERS),
        limit=NUMBER,
        after=st.sampled_from([jane_message(1), "x", ""]),
        before=st.sampled_from([jane_message(1), "x", ""]),
        orderBy=st.sampled_from(["_id", "createdAt", "updatedAt", "email", "nope"]),
        orderDirection=st.sampled_from(["ASC", "DESC", "up"]),
        includeCursor=BOOLEAN,
    ),
    subscriber=SUBSCRIBERS,
    filters=st.one_of(
        st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "read": st.booleans(),
                    "seen": st.booleans(),
                    "archived": st.booleans(),
                    "snoozed": st.booleans(),
                    "tags": st.lists(TEXT, max_size=2),
                },
            ),
            max_size=31,
        ).map(json.dumps),
        TEXT,
    ),
)
def test_fuzzed_v2_subscriber_requests(
    service: Service, params: dict[str, str], subscriber: str, filters: str
) -> None:
    with service.http() as http:
        page = check(http.get("/v2/subscribers", params=params))
        if page.get("data"):
            cursor = page["next"] or page["data"][0]["_id"]
            check(http.get("/v2/subscribers", params={**params, "after": cursor}))
        check(http.get(f"/v2/subscribers/{subscriber or 'x'}"))
        check(
            http.get(
                f"/v2/subscribers/{subscriber or 'x'}/notifications/count",
                params={"filters": filters},
            )
        )


IDS = st.sampled_from(
    [jane_message(n) for n in (1, 2, 100, 200, 300)] + ["65f0000000000000000fffff"]
)


@FUZZ
@given(
    subscriber=SUBSCRIBERS,
    message_id=st.one_of(
        st.lists(IDS, max_size=4),
        st.lists(IDS, max_size=3).map(",".join),
        IDS,
        st.none(),
        st.integers(),
        TEXT,
    ),
    mark_as=st.one_of(st.sampled_from(["read", "seen", "unread", "unseen"]), TEXT),
    integration=st.one_of(
        st.sampled_from([f"65e0000000000000000{n:05d}" for n in range(1, 13)]), TEXT
    ),
)
def test_fuzzed_writes(
    service: Service, subscriber: str, message_id: Any, mark_as: str, integration: str
) -> None:
    body: dict[str, Any] = {"markAs": mark_as}
    if message_id is not None:
        body["messageId"] = message_id
    with service.http() as http:
        sid = subscriber or "x"
        check(http.post(f"/v1/subscribers/{sid}/messages/mark-as", json=body))
        check(http.post(f"/v1/subscribers/{sid}/messages/mark-all", json={"markAs": mark_as}))
        if integration.strip(".") and "/" not in integration:
            check(http.post(f"/v1/integrations/{quote(integration, safe='')}/set-primary"))


def test_an_older_deployment_still_answers_within_the_contract(
    make_service: ServiceFactory,
) -> None:
    """With credentials sent and integrations listed and switched organization-wide (older
    deployments), integrations still validate."""
    service = make_service(
        send_credentials=True, org_wide_integrations=True, every_environment_key=True
    )
    with service.http(STAGING_KEY) as http:
        listed = check(http.get("/v1/integrations"))["data"]
        assert all("credentials" in i for i in listed)
        assert len({i["_environmentId"] for i in listed}) == 2
        check(http.get("/v1/integrations/active"))
        for integration in listed:
            check(http.post(f"/v1/integrations/{integration['_id']}/set-primary"))
        environments = check(http.get("/v1/environments"))["data"]
        assert all(e["apiKeys"] for e in environments)


def test_a_body_outside_the_contract_is_refused_with_each_error_named() -> None:
    """The validator behind `check` fails a body that breaks its schema, naming where."""
    operation = next(
        op for (m, p), op in OPERATIONS.items() if m == "GET" and p.match("/v1/messages")
    )
    schema, bare = validator(operation, 200)
    assert bare
    good = {"data": [], "totalCount": 0, "hasMore": False, "page": 0, "pageSize": 10}
    assert schema.errors(good) == []
    assert schema.errors({**good, "hasMore": "no"}) == [
        '[\'hasMore\']: "no" is not of type "boolean"'
    ]
    errors = schema.errors({**good, "data": [{"_id": 3}]})
    assert len(errors) == 5, errors  # the first five, by where
    assert all(e.startswith("['data', 0]") for e in errors), errors
