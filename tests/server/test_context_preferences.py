"""Context-bound preferences on the local service, both ways of its setting: on, a
context's records are kept apart, read for exactly that set of keys, and the worker
applies them to a trigger with that context and nothing else; off (production's
default), a context is ignored everywhere (acting.md 5)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ServiceFactory
from tests.preference_fixture import preference_fixture
from tests.server.test_trigger import NOW, Clock, http, jobs_of, texts
from tests.trigger_fixture import trigger_fixture

ADA = "/v2/subscribers/ada.lovelace/preferences"
ACME = {"tenant": "acme"}
FILTERED = ("Step filtered by subscriber global preferences", "Success")


def _email(body: dict[str, Any]) -> Any:
    return body["data"]["global"]["channels"]["email"]


@pytest.mark.parametrize("contexts", [True, False])
def test_a_context_keeps_its_own_records_only_when_the_setting_is_on(
    make_service: ServiceFactory, contexts: bool
) -> None:
    service = make_service(preference_fixture(), context_preferences=contexts)
    with service.http() as client:
        changed = client.patch(ADA, json={"channels": {"email": False}, "context": ACME})
        assert changed.status_code == 200, changed.text
        acme = client.get(ADA, params={"contextKeys": "tenant:acme"}).json()
        plain = client.get(ADA).json()
        empty = client.get(f"{ADA}?contextKeys=").json()
        other = client.get(ADA, params=[("contextKeys", "tenant:acme"), ("contextKeys", "p:x")])
    assert _email(changed.json()) is False
    assert _email(acme) is False
    if contexts:
        # The no-context records are untouched, and a wider set of keys is another context.
        assert _email(plain) is True and _email(empty) is True
        assert _email(other.json()) is True
    else:
        # Dropped: the change was made to the no-context records, which every read gets.
        assert _email(plain) is False and _email(empty) is False
        assert _email(other.json()) is False


@pytest.mark.parametrize("contexts", [True, False])
def test_a_bad_context_is_refused_and_nothing_is_stored(
    make_service: ServiceFactory, contexts: bool
) -> None:
    service = make_service(preference_fixture(), context_preferences=contexts)
    with service.http() as client:
        refused = client.patch(ADA, json={"channels": {"email": False}, "context": ["acme"]})
        after = client.get(ADA).json()
    assert refused.status_code == 422
    assert "Invalid context payload structure" in refused.text
    assert _email(after) is True


@pytest.mark.parametrize("contexts", [True, False])
def test_the_worker_reads_the_triggers_context_only_when_the_setting_is_on(
    make_service: ServiceFactory, contexts: bool
) -> None:
    service = make_service(trigger_fixture(), context_preferences=contexts)
    clock = Clock()
    clock.now = NOW
    service.store.clock = clock
    with http(service) as client:
        done = client.patch("/v2/subscribers/ada/preferences", json={"channels": {"email": False}})
        assert done.status_code == 200, done.text
    (with_context,) = jobs_of(service, "email", "ada", context=ACME)
    (without,) = jobs_of(service, "email", "ada")
    # Off, the no-context opt-out covers the context's trigger too.
    assert without["status"] == "canceled" and texts(without)[-1] == FILTERED
    if contexts:
        # No fallback: acme has no record of its own, so the workflow's default applies.
        assert with_context["status"] == "completed"
        with http(service) as client:
            client.patch(
                "/v2/subscribers/ada/preferences",
                json={"channels": {"email": True}, "context": ACME},
            )
            client.patch("/v2/subscribers/ada/preferences", json={"channels": {"email": True}})
            client.patch(
                "/v2/subscribers/ada/preferences",
                json={"channels": {"email": False}, "context": ACME},
            )
        (acme_off,) = jobs_of(service, "email", "ada", context=ACME)
        (plain_on,) = jobs_of(service, "email", "ada")
        assert acme_off["status"] == "canceled" and texts(acme_off)[-1] == FILTERED
        assert plain_on["status"] == "completed"
    else:
        assert with_context["status"] == "canceled" and texts(with_context)[-1] == FILTERED
