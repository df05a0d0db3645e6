"""The client's preference operations: against the local service, through a
production-shaped proxy, and against the looser bodies production may send."""

from __future__ import annotations

import json

import httpx
import pytest

from inboxdesk.client import ApiError, ClientOptions, InboxClient, NotFoundError, RetryPolicy
from inboxdesk.models.preference import Criticality
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.loopback import loopback
from tests.preference_fixture import preference_fixture
from tests.production_shaped import production_shaped

FAST = ClientOptions(timeout=5, retry=RetryPolicy(base=0.01, cap=0.02, deadline=1))


async def test_read_change_and_bulk_through_a_production_shaped_server(
    make_service: ServiceFactory,
) -> None:
    service = make_service(preference_fixture())
    with production_shaped(service.url) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            prefs = await client.preferences("ada.lovelace")
            assert prefs.global_.channels == {
                "in_app": True,
                "email": True,
                "sms": False,
                "tool": True,
            }
            order = next(w for w in prefs.workflows if w.workflow.identifier == "order-shipped")
            assert order.channels["email"] is False and order.source("email") == "subscriber"
            assert order.source("in_app") == "template"
            critical = await client.preferences("ada.lovelace", Criticality.CRITICAL)
            assert [w.workflow.name for w in critical.workflows] == ["Security alert"]

            after = await client.update_preferences(
                "ada.lovelace", {"email": True}, workflow_id="order-shipped"
            )
            order = next(w for w in after.workflows if w.workflow.identifier == "order-shipped")
            assert order.channels["email"] is True

            bulk = await client.update_preferences_bulk(
                "ada.lovelace", [("weekly-digest", {"tool": False})]
            )
            assert bulk[0].workflow is not None and bulk[0].workflow.identifier == "weekly-digest"
            assert bulk[0].channels["tool"] is False

            with pytest.raises(NotFoundError, match="Workflow cannot be found"):
                await client.update_preferences("ada.lovelace", {"email": True}, workflow_id="x")
            with pytest.raises(ApiError, match="Critical workflow") as refused:
                await client.update_preferences(
                    "ada.lovelace", {"email": False}, workflow_id="security-alert"
                )
            assert refused.value.status == 400
            with pytest.raises(NotFoundError, match="nobody"):
                await client.preferences("nobody")


LOOSE = {
    "data": {
        "global": {"channels": {"email": True, "whatsapp": False}},
        "workflows": [
            {
                "channels": {"email": False, "tool": True},
                "workflow": {"slug": "a_wf_1", "identifier": "a", "name": "A"},
                "overrides": [{"channel": "email", "source": "workflowOverride"}],
                "somethingNew": {"x": 1},
            },
            {"enabled": True, "channels": {}, "workflow": {"identifier": "b", "name": "B"}},
        ],
    }
}


async def test_reads_the_looser_bodies_production_may_send() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=LOOSE)

    with loopback(answer) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            prefs = await client.preferences("ada")
    assert prefs.global_.enabled is True
    assert prefs.global_.channels["whatsapp"] is False
    first, second = prefs.workflows
    assert first.source("email") == "workflowOverride" and first.source("tool") is None
    assert first.overrides[0].source == "workflowOverride"
    assert second.overrides == [] and second.workflow.slug == ""


async def test_a_busy_preference_service_is_a_clear_error() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.params.get("criticality", ""))
        body = {
            "statusCode": 503,
            "message": "Get preferences service is currently unavailable",
            "error": "Service Unavailable",
        }
        return httpx.Response(503, content=json.dumps(body).encode())

    with loopback(answer) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            with pytest.raises(ApiError, match="currently unavailable"):
                await client.preferences("ada", "all")
    assert seen and set(seen) == {"all"}
