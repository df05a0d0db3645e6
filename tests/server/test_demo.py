"""The demo data set: deterministic, and exercising every field the app shows."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

import pytest

from inboxdesk.models import Integration, Message, Subscriber
from inboxdesk.server.demo import BIG_INBOX, BIG_INBOX_SIZE, demo_fixture
from inboxdesk.server.store import Caller, Store
from tests.templates import DEMO_NOW, demo_at, demo_store

# The moment of the fixture the tests below build (once a process: demo_at).
NOW = DEMO_NOW


def test_same_seed_and_time_give_the_same_data() -> None:
    built = demo_fixture(NOW)
    assert built == demo_at(NOW)  # built apart, in this process
    assert built != demo_fixture(NOW, seed=8)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[Any]]:
    """The demo as loaded (a copy of the run's template, seeded at the run's start, as
    `serve --demo` seeds it): the tests only read it."""
    return demo_store(tmp_path_factory, tmp_path_factory.mktemp("demo") / "demo.db")


def test_two_environments_with_their_own_keys(demo: tuple[Store, list[Any]]) -> None:
    store, loaded = demo
    assert [e.name for e in loaded] == ["Development", "Production"]
    assert len({e.api_key for e in loaded}) == 2
    for env in loaded:
        assert store.authenticate(env.api_key).environment_id == env.environment_id  # type: ignore[union-attr]


def test_integrations_cover_every_channel_and_state(demo: tuple[Store, list[Any]]) -> None:
    store, loaded = demo
    for env in loaded:
        caller = store.authenticate(env.api_key)
        assert caller is not None
        items = [Integration.model_validate(i) for i in store.list_integrations(caller)]
        # A key lists its own environment's.
        assert {i.environment_id for i in items} == {env.environment_id}
        everywhere = store.list_integrations(caller, org_wide=True)
        assert {i["_environmentId"] for i in everywhere} == {e.environment_id for e in loaded}
        by_channel = Counter(str(i.channel) for i in items if i.channel is not None)
        assert set(by_channel) == {"in_app", "email", "sms", "chat", "push", "tool"}
        # A PagerDuty integration in each environment: the tool channel has no primary.
        (tool,) = [i for i in items if i.channel == "tool"]
        assert (tool.provider_id, tool.active, tool.primary) == ("pagerduty", True, False)
        assert by_channel["email"] >= 3 and by_channel["sms"] >= 3
        for channel in ("email", "sms"):
            assert sum(i.primary for i in items if i.channel == channel) == 1
        assert any(not i.active for i in items)
        assert any(c.children for i in items for c in (i.conditions or []))
        # An agent-kind integration has no channel, as production's.
        assert any(i.kind == "agent" and i.channel is None for i in items)


def test_conditions_come_in_every_shape_production_stores(
    demo: tuple[Store, list[Any]],
) -> None:
    """No isNegated/type, children with _id, on: tenant, any value."""
    store, loaded = demo
    caller = store.authenticate(loaded[0].api_key)
    assert caller is not None
    raw = [c for i in store.list_integrations(caller) for c in i.get("conditions") or []]
    children = [child for c in raw for child in c["children"]]
    assert any("isNegated" not in c and "type" not in c for c in raw)
    assert any("_id" in child for child in children)
    assert any(child.get("on") == "tenant" for child in children)
    assert any(isinstance(child.get("value"), int) for child in children)
    assert any(isinstance(child.get("value"), list) for child in children)
    for item in store.list_integrations(caller):
        Integration.model_validate(item)


def test_each_environment_has_its_own_primaries(demo: tuple[Store, list[Any]]) -> None:
    store, loaded = demo
    caller = store.authenticate(loaded[0].api_key)
    assert caller is not None
    names = {
        (env["name"], i["channel"]): i["name"]
        for env in store.list_environments(caller)
        for i in store.list_integrations(caller, org_wide=True)
        if i["primary"] and i["_environmentId"] == env["_id"]
    }
    assert names[("Development", "email")] != names[("Production", "email")]
    assert {c for _, c in names} == {"email", "sms"}


def test_messages_exercise_every_field(demo: tuple[Store, list[Any]]) -> None:
    store, _ = demo
    keys = {r["name"]: r for r in store.environments()}
    assert set(keys) == {"Development", "Production"}
    rows = (
        store.read()
        .execute(
            "SELECT m.id FROM messages m JOIN environments e ON e.id = m.environment_id "
            "WHERE e.name = 'Development'"
        )
        .fetchall()
    )
    assert len(rows) > 2000
    dev = Caller(keys["Development"]["id"], keys["Development"]["organization_id"])
    messages: list[dict[str, Any]] = []
    page = 0
    while True:
        data, total = store.list_messages(dev, page, 1000)
        messages += data
        if (page + 1) * 1000 >= total:
            break
        page += 1
    parsed = [Message.model_validate(m) for m in messages]
    in_app = [m for m in parsed if m.channel == "in_app"]
    assert len(in_app) >= 300
    per_subscriber = Counter(m.subscriber.subscriber_id for m in in_app if m.subscriber)
    assert per_subscriber[BIG_INBOX] == BIG_INBOX_SIZE
    assert len(per_subscriber) >= 5

    used = set().union(*(m.keys() for m in messages))
    every_field = {f.alias or name for name, f in Message.model_fields.items()}
    assert every_field <= used, every_field - used
    assert {str(m.status) for m in parsed} == {"sent", "error", "warning"}
    assert {type(m.content) for m in parsed} == {str, list}
    actions = {str(m.cta.action.status) for m in parsed if m.cta.action}
    assert actions == {"pending", "done"}
    assert any(m.delivered_at and len(m.delivered_at) > 1 for m in parsed)
    assert Counter((m.read, m.seen) for m in in_app).keys() >= {
        (True, True),
        (False, False),
        (False, True),
    }
    steps = [s for m in parsed if m.template for s in m.template.steps]
    kinds = {type(s.metadata).__name__ for s in steps if s.metadata is not None}
    assert kinds == {
        "DigestRegularMetadata",
        "DigestTimedMetadata",
        "DelayRegularMetadata",
        "DelayScheduledMetadata",
    }
    assert any(s.filters for s in steps)
    created = sorted(m.created_at for m in parsed)
    span = datetime.fromisoformat(created[-1].replace("Z", "+00:00")) - datetime.fromisoformat(
        created[0].replace("Z", "+00:00")
    )
    assert span.days >= 21

    subscribers = [Subscriber.model_validate(s) for s in store.list_subscribers(dev, 0, 100)[0]]
    for s in subscribers:
        assert s.first_name and s.last_name and s.avatar and s.locale and s.timezone and s.channels


def _dates(value: Any, key: str = "") -> list[tuple[str, str]]:
    """Every (field, timestamp) in a fixture, nested lists and objects included."""
    if isinstance(value, dict):
        return [d for k, v in value.items() for d in _dates(v, k)]
    if isinstance(value, list):
        return [d for v in value for d in _dates(v, key)]
    if isinstance(value, str) and key.endswith(("At", "Date", "Until")):
        return [(key, value)]
    return []


def test_no_date_lies_in_the_future_but_a_snooze() -> None:
    dates = _dates(demo_at(NOW))
    keys = {k for k, _ in dates}
    assert {"createdAt", "deliveredAt", "lastSeenDate", "lastReadDate", "lastOnlineAt"} <= keys
    stamp = NOW.isoformat().replace("+00:00", "")
    future = [(k, v) for k, v in dates if v.removesuffix("Z")[:19] > stamp[:19]]
    assert future and {k for k, _ in future} == {"snoozedUntil"}


def test_errors_fit_their_message_and_waits_are_named_for_what_they_do() -> None:
    messages = [m for env in demo_at(NOW)["environments"] for m in env["messages"]]
    errors = [m for m in messages if m.get("status") == "error"]
    assert {m["errorId"] for m in errors} == {"render_error", "provider_error"}
    for m in errors:
        if m["errorId"] == "render_error":
            missing = m["errorText"].split("'")[1]
            assert missing in m["payload"], (m["workflow"], m["errorText"])
        else:
            assert m["channel"] != "in_app", m["errorText"]
    workflows = demo_at(NOW)["environments"][0]["workflows"]
    waits = [s for w in workflows for s in w["steps"] if s.get("metadata")]
    assert waits
    for step in waits:
        kind = "digest" if "digestKey" in step["metadata"] else "delay"
        assert step["template"]["type"] == kind
        assert step["name"].lower().startswith(kind), step["name"]


def test_one_workflow_pages_on_call_through_a_tool_step() -> None:
    for env in demo_at(NOW)["environments"]:
        with_tool = [
            w["name"]
            for w in env["workflows"]
            for step in w["steps"]
            if step["template"]["type"] == "tool"
        ]
        assert with_tool == ["Security alert"]


def test_each_environment_holds_a_message_of_the_tool_channel(
    demo: tuple[Store, list[Any]],
) -> None:
    store, loaded = demo
    for env in loaded:
        caller = store.authenticate(env.api_key)
        assert caller is not None
        data, _ = store.list_messages(caller, 0, 10, "tool")
        (paged,) = [Message.model_validate(m) for m in data]
        assert (paged.channel, paged.workflow_name) == ("tool", "Security alert")
