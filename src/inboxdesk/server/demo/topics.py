"""The demo's topic story (decision 124): Ada follows two topics.

- `deploys`: her subscription lets a "Deploy finished" through only for the Atlas
  project. One deploy of Atlas came to her by email through it: its timeline names the
  topic, the subscription and the condition.
- `invoices-eu`: her subscription lets an "Invoice ready" through only over 1,000. An
  invoice under that would be filtered, and leave no trace in her feed: the subscriber
  view says so beside the condition.

Nothing here draws from the demo's generators, so the rest of the demo stays as it was.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from inboxdesk.server.demo.delivery import ADA
from inboxdesk.server.demo.draws import hex_id, rng_for
from inboxdesk.server.store import iso

DEPLOYS = "deploys"
INVOICES = "invoices-eu"
DEPLOYS_SUBSCRIPTION = "ada-deploys"
INVOICES_SUBSCRIPTION = "ada-invoices-eu"
ATLAS_ONLY = {"==": [{"var": "payload.project"}, "Atlas"]}
OVER_1000 = {">": [{"var": "payload.amount"}, 1000]}
# The story's notification: how it came, said in its title.
TITLE = "Deploy of Atlas, through the deploys topic"


def add_topic_story(now: datetime, environment: dict[str, Any]) -> None:
    """Ada's topics, her subscriptions with their conditions, and the deploy that came
    through one of them."""
    rng = rng_for("topic-story")
    made = now - timedelta(days=30)
    deploys_id, invoices_id = hex_id(rng, made), hex_id(rng, made)
    environment["topics"] = [
        {
            "_id": deploys_id,
            "key": DEPLOYS,
            "name": "Production deploys",
            "createdAt": iso(made),
            "subscriptions": [
                {
                    "_id": hex_id(rng, made + timedelta(hours=1)),
                    "subscriberId": ADA,
                    "identifier": DEPLOYS_SUBSCRIPTION,
                    "createdAt": iso(made + timedelta(hours=1)),
                    "preferences": [{"workflow": "Deploy finished", "condition": ATLAS_ONLY}],
                }
            ],
        },
        {
            "_id": invoices_id,
            "key": INVOICES,
            "name": "EU invoices",
            "createdAt": iso(made),
            "subscriptions": [
                {
                    "_id": hex_id(rng, made + timedelta(hours=2)),
                    "subscriberId": ADA,
                    "identifier": INVOICES_SUBSCRIPTION,
                    "createdAt": iso(made + timedelta(hours=2)),
                    "preferences": [{"workflow": "Invoice ready", "condition": OVER_1000}],
                }
            ],
        },
    ]
    at = now - timedelta(hours=30)
    evaluation = {
        "result": True,
        "subscriptionIdentifier": DEPLOYS_SUBSCRIPTION,
        "condition": ATLAS_ONLY,
    }
    # What production's worker writes on every job: the topics and what let each through.
    queued = json.dumps({"topics": [{"topic": DEPLOYS, "preferenceEvaluation": evaluation}]})
    sendgrid = next(i for i in environment["integrations"] if i["providerId"] == "sendgrid")
    answer = {"id": f"sendgrid-{rng.getrandbits(40):010x}", "date": iso(at)}
    environment["notifications"].append(
        {
            "_id": hex_id(rng, at),
            "subscriberId": ADA,
            "workflow": "Deploy finished",
            "transactionId": f"txn_{rng.getrandbits(48):012x}",
            "createdAt": iso(at),
            "payload": {"story": TITLE, "project": "Atlas"},
            "to": {"type": "Topic", "topicKey": DEPLOYS},
            "topics": [
                {"_topicId": deploys_id, "topicKey": DEPLOYS, "preferenceEvaluation": evaluation}
            ],
            "jobs": [
                {
                    "type": "email",
                    "status": "completed",
                    "providerId": "sendgrid",
                    "executionDetails": [
                        _detail(at, "Step queued", raw=queued),
                        {
                            **_detail(at, "SendGrid provider was selected"),
                            "providerId": "sendgrid",
                            "raw": json.dumps(
                                {
                                    k: sendgrid[k]
                                    for k in ("providerId", "identifier", "name", "_id")
                                }
                            ),
                        },
                        {**_detail(at, "Message created"), "providerId": "sendgrid"},
                        {
                            **_detail(at + timedelta(seconds=1), "Message sent", "Success"),
                            "providerId": "sendgrid",
                            "raw": json.dumps(answer),
                        },
                    ],
                }
            ],
        }
    )


def _detail(
    at: datetime, text: str, status: str = "Pending", raw: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"createdAt": iso(at), "status": status, "detail": text}
    if raw is not None:
        out["raw"] = raw
    return out
