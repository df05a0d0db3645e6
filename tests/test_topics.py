"""Topics in words (core/delivery/topics.py): JSON Logic conditions, and what a
notification's topics and `Step queued` details say let it through, whatever shape
they come in."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inboxdesk.core.delivery.topics import RAW_LIMIT, condition_words, topic_words
from inboxdesk.models.delivery import ActivityNotification


@pytest.mark.parametrize(
    ("condition", "words"),
    [
        ({"==": [{"var": "payload.region"}, "eu"]}, 'payload.region is "eu"'),
        ({"!==": [{"var": ["subscriber.locale", "en"]}, "de"]}, 'subscriber.locale is not "de"'),
        (
            {"and": [{">": [{"var": "payload.total"}, 100]}, {"!": {"var": "payload.test"}}]},
            "payload.total > 100 and not payload.test",
        ),
        (
            {"or": [{"and": [True, False]}, {"in": ["vip", {"var": "subscriber.data.tags"}]}]},
            '(true and false) or subscriber.data.tags contains "vip"',
        ),
        ({"<=": [1, {"var": "payload.n"}, 9]}, "1 ≤ payload.n ≤ 9"),
        ({"!!": [{"var": "payload.id"}]}, "payload.id is set"),
        (
            {"some": [{"var": "payload.items"}, {"==": [{"var": ""}, 1]}]},
            "some(payload.items, the data is 1)",
        ),
        ("just text", '"just text"'),
        ({"a": 1, "b": 2}, '{"a": 1, "b": 2}'),
    ],
)
def test_conditions_in_words(condition: Any, words: str) -> None:
    assert condition_words(condition) == words


def test_a_deep_condition_is_cut() -> None:
    deep: Any = {"var": "x"}
    for _ in range(50):
        deep = {"!": deep}
    assert condition_words(deep).endswith("…")


def _notification(topics: Any, raws: list[str | None]) -> ActivityNotification:
    details = [{"detail": "Step queued", "status": "Pending", "raw": raw} for raw in raws]
    return ActivityNotification.model_validate(
        {"_id": "n1", "topics": topics, "jobs": [{"type": "email", "executionDetails": details}]}
    )


def test_what_let_a_notification_through() -> None:
    queued = {
        "topics": [
            {
                "topic": "deploys",
                "preferenceEvaluation": {"result": True, "subscriptionIdentifier": "s1"},
            },
            {"topic": "status"},  # a subscription without identifier: none evaluated
        ]
    }
    found = _notification(
        [
            {"_topicId": "t1", "topicKey": "deploys"},
            {"_topicId": "t2", "topicKey": "status"},
            "junk",
        ],
        [json.dumps(queued), json.dumps(queued), "not json", None],
    )
    assert topic_words(found) == [
        "came through topic deploys; subscription s1 let it through (no condition)",
        "came through topic status; its subscription has no identifier, so no condition was "
        "evaluated",
    ]
    # The evaluation on the topic itself (as a service may store it) is read too.
    stored = _notification(
        [
            {
                "topicKey": "eu",
                "preferenceEvaluation": {
                    "result": True,
                    "subscriptionIdentifier": "s2",
                    "condition": {"==": [{"var": "payload.region"}, "eu"]},
                },
            }
        ],
        [],
    )
    assert topic_words(stored) == [
        'came through topic eu; subscription s2 let it through (condition: payload.region is "eu")'
    ]
    # Sent to the subscriber directly: nothing said; a huge raw is not read.
    assert topic_words(_notification(None, [])) == []
    huge = json.dumps({**queued, "pad": "x" * RAW_LIMIT})
    assert topic_words(_notification([], [huge])) == []


def test_a_subscription_s_rules_in_words() -> None:
    from inboxdesk.core.delivery.topics import rule_lines
    from inboxdesk.models.subscription import TopicSubscription

    def rules(**body: Any) -> list[str]:
        return rule_lines(TopicSubscription.model_validate({"topic": {"key": "k"}, **body}))

    assert rules(identifier="s") == ["every workflow passes (no condition)"]
    records = [
        {"workflow": {"name": "Invoice ready"}, "condition": {">": [{"var": "payload.n"}, 1]}},
        {"workflow": {"identifier": "deploy"}, "enabled": False},
        {"condition": {"==": [1, 1]}},  # its workflow was deleted
        {"workflow": {"name": "Weekly"}},
    ]
    assert rules(identifier="s", preferences=records) == [
        "Invoice ready: passes only when payload.n > 1",
        "deploy: never passes (turned off)",
        "(a deleted workflow): passes only when 1 is 1",
        "Weekly: passes (no condition)",
    ]
    # Production's worker evaluates no subscription without an identifier.
    assert rules(identifier="", preferences=records) == [
        "every workflow passes: without an identifier, no condition is evaluated"
    ]
