"""Topics read from a production-shaped server on loopback (decision 124): subscriptions
as production may send them (a record whose workflow was deleted, a topic without a
name, no `contextKeys`, fields this version does not know), and a notification whose
`topics` carry ids only, its evaluation riding on the `Step queued` detail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.client.conftest import run
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.production_shaped import production_shaped
from tests.topic_fixture import topic_fixture


def _use(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str) -> None:
    monkeypatch.setenv("INBOXDESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("INBOXDESK_BASE_URL", url)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    monkeypatch.delenv("INBOXDESK_PROFILE", raising=False)


def as_production(method: str, path: str, body: Any) -> Any:
    """Production's shapes the local service does not make."""
    if path.split("?")[0].endswith("/subscriptions"):
        for item in body["data"]:
            item.pop("contextKeys", None)
            item["topic"].pop("name", None)
            item["futureField"] = {"x": 1}
            for record in item.get("preferences") or []:
                record.pop("workflow", None)  # the workflow was deleted since
    return body


def test_subscriptions_and_a_topic_let_through(
    make_service: ServiceFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    service = make_service(topic_fixture())
    seen: list[str] = []
    with production_shaped(service.url, rewrite=as_production, seen=seen) as url:
        _use(monkeypatch, tmp_path, url)
        code, out, err = run(capsys, "subscriptions", "ada.lovelace")
        assert code == 0, err
        listed = " ".join(out.split())
        assert "topic deploys subscription ada-deploys context none" in listed
        assert '(a deleted workflow): passes only when payload.project is "Atlas"' in listed
        with service.http() as http:
            feed = http.get("/v1/notifications", params={"subscriberIds": "ada.lovelace"})
        (deploy,) = feed.json()["data"]
        # As production's feed: the topic's ids alone.
        assert deploy["topics"] == [
            {"_topicId": deploy["topics"][0]["_topicId"], "topicKey": "deploys"}
        ]
        code, out, err = run(capsys, "delivery", deploy["transactionId"])
    assert code == 0, err
    assert (
        "came through topic deploys; subscription ada-deploys let it through "
        '(condition: payload.project is "Atlas")'
    ) in " ".join(out.split())
    assert any(p.startswith("/v2/subscribers/ada.lovelace/subscriptions?") for p in seen)
