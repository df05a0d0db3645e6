"""Topics on the command line, on the real service (decision 124): `inboxdesk
subscriptions` prints each subscription with its conditions in words (and `--json` the
service's items), paging through them all; `inboxdesk delivery` names the topic and the
subscription that let a notification through. Hostile text comes out made safe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inboxdesk.core.delivery.topics import NO_TRACE
from tests.command_line import run_with_key
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.topic_fixture import topic_fixture


def test_subscriptions_in_words_and_as_json(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    fixture = topic_fixture()
    # A hostile topic name: shown as text, never as an escape sequence.
    fixture["environments"][0]["topics"][2]["name"] = "Status\x1b[31m page"
    service = make_service(fixture)

    def run(*args: str) -> tuple[int, str, str]:
        return run_with_key(monkeypatch, capsys, tmp_path, service.url, STAGING_KEY, *args)

    code, out, err = run("subscriptions", "ada.lovelace")
    assert code == 0, err
    assert "topic  deploys (Production deploys)" in out
    assert "subscription  ada-deploys" in out
    assert 'passes  Deploy finished: passes only when payload.project is "Atlas"' in out
    assert "passes  Invoice ready: passes only when payload.amount > 1000" in out
    assert "context  tenant:acme" in out
    assert "subscription  (no identifier)" in out
    assert "passes  every workflow passes: without an identifier, no condition is evaluated" in out
    assert "\x1b" not in out and "Status" in out
    assert NO_TRACE in out and "(4 subscriptions)" in err
    # One topic's alone, and every page read (the client asks for 100 at a time).
    code, out, err = run("subscriptions", "ada.lovelace", "--topic", "deploys", "--json")
    assert code == 0, err
    (only,) = json.loads(out)["data"]
    assert only["identifier"] == "ada-deploys"
    assert only["preferences"][0]["condition"] == {"==": [{"var": "payload.project"}, "Atlas"]}
    code, out, err = run("subscriptions", "grace.hopper")
    assert code == 0 and "topic  status" in out
    # The deploy's delivery names the topic and what let it through.
    with service.http() as http:
        listed = http.get("/v1/notifications", params={"subscriberIds": "ada.lovelace"})
    (deploy,) = listed.json()["data"]
    code, out, err = run("delivery", "--subscriber", "ada.lovelace", deploy["transactionId"])
    assert code == 0, err
    assert (
        "topic  came through topic deploys; subscription ada-deploys let it through "
        '(condition: payload.project is "Atlas")'
    ) in out
