"""Topics in the why (decision 124): which topic a notification came through, which
subscription let it through and on what condition, and a subscriber's subscriptions
with their conditions in words, for the app and the command line alike.

A stored notification's `preferenceEvaluation.result` is always true: a subscription
whose condition filtered leaves no notification at all. Production's feed gives a
notification's `topics` as `{_topicId, topicKey}` only; the evaluation rides on every
job's `Step queued` detail, as `raw` (`{"topics": [{"topic", "preferenceEvaluation"}]}`),
where it is read. Every word here may hold the service's text: callers pass it through
`safe()` before showing it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inboxdesk.models.delivery import ActivityNotification
    from inboxdesk.models.subscription import TopicSubscription

NO_TRACE = (
    "A subscription whose condition filtered a notification leaves no trace in the feed: "
    "the subscriber got nothing, and neither Activity nor the inbox shows it."
)
STEP_QUEUED = "Step queued"
# A `raw` longer than this is not read for topics (a provider's answer may be large).
RAW_LIMIT = 64_000
# Deeper conditions are cut with "…": their words would not fit a line anyway.
DEPTH = 6

_COMPARE = {
    "==": "is",
    "===": "is",
    "!=": "is not",
    "!==": "is not",
    ">": ">",
    ">=": "≥",
    "<": "<",
    "<=": "≤",
}


def condition_words(condition: Any, depth: int = 0) -> str:
    """A JSON Logic condition in words: `payload.region is "eu" and payload.total > 100`.
    Operations without words here are shown as `op(arguments)`."""
    if depth > DEPTH:
        return "…"
    if not isinstance(condition, dict):
        return _literal(condition)
    if len(condition) != 1:
        return _literal(condition)
    ((op, args),) = condition.items()
    items = args if isinstance(args, list) else [args]
    if op == "var":
        name = items[0] if items else ""
        return str(name) if name not in ("", None) else "the data"
    words = [_operand(a, depth + 1) for a in items]
    if op in _COMPARE and len(words) == 2:
        return f"{words[0]} {_COMPARE[op]} {words[1]}"
    if op in ("and", "or") and words:
        return f" {op} ".join(words)
    if op == "!" and len(words) == 1:
        return f"not {words[0]}"
    if op == "!!" and len(words) == 1:
        return f"{words[0]} is set"
    if op == "in" and len(words) == 2:
        return f"{words[1]} contains {words[0]}"
    if op in ("<", "<=") and len(words) == 3:
        return f"{words[0]} {_COMPARE[op]} {words[1]} {_COMPARE[op]} {words[2]}"
    return f"{op}({', '.join(words)})"


def _operand(value: Any, depth: int) -> str:
    words = condition_words(value, depth)
    nested = isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("and", "or")
    return f"({words})" if nested else words


def _literal(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        return str(value)


# -- a subscriber's subscriptions ----------------------------------------------------------


def subscription_name(subscription: TopicSubscription) -> str:
    """`identifier`, or what production calls one that has none."""
    return subscription.identifier or "(no identifier)"


def topic_name(subscription: TopicSubscription) -> str:
    topic = subscription.topic
    return f"{topic.key} ({topic.name})" if topic.name and topic.name != topic.key else topic.key


def rule_lines(subscription: TopicSubscription) -> list[str]:
    """Each workflow record of the subscription: whether a trigger of that workflow
    passes it, in words. No record: every workflow passes."""
    records = subscription.preferences or []
    if not subscription.identifier:
        # Production's worker evaluates only subscriptions that have one.
        return ["every workflow passes: without an identifier, no condition is evaluated"]
    if not records:
        return ["every workflow passes (no condition)"]
    out = []
    for record in records:
        workflow = record.workflow
        name = (workflow.name or workflow.identifier) if workflow else None
        which = f"{name}" if name else "(a deleted workflow)"
        if record.condition is not None:
            out.append(f"{which}: passes only when {condition_words(record.condition)}")
        elif record.enabled is False:
            out.append(f"{which}: never passes (turned off)")
        else:
            out.append(f"{which}: passes (no condition)")
    return out


def contexts_words(subscription: TopicSubscription) -> str:
    keys = subscription.context_keys or []
    return f"context {', '.join(keys)}" if keys else "no context"


# -- the topics a notification came through ------------------------------------------------


@dataclass(frozen=True)
class TopicPass:
    """One topic a notification came through and the subscription that let it through
    (None: not known, or a subscription without identifier)."""

    topic: str
    subscription: str | None = None
    condition: Any = None
    evaluated: bool = False


def _evaluations(raw: str | None) -> list[TopicPass]:
    """The topics of a `Step queued` detail's `raw`, or none."""
    if not raw or len(raw) > RAW_LIMIT:
        return []
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return []
    topics = value.get("topics") if isinstance(value, dict) else None
    out = []
    for item in topics if isinstance(topics, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("topic"), str):
            continue
        out.append(_pass(item["topic"], item.get("preferenceEvaluation"), evaluated=True))
    return out


def _pass(topic: str, evaluation: object, evaluated: bool) -> TopicPass:
    """The topic, with the subscription its evaluation names (and that one's condition)
    where it names one; `evaluated`: whether the topic was weighed at all."""
    if isinstance(evaluation, dict) and isinstance(evaluation.get("subscriptionIdentifier"), str):
        return TopicPass(
            topic, evaluation["subscriptionIdentifier"], evaluation.get("condition"), True
        )
    return TopicPass(topic, evaluated=evaluated)


def topic_passes(notification: ActivityNotification) -> list[TopicPass]:
    """The topics the notification came through, each once, with what let it through:
    from its `topics` (the evaluation where a service sends it) and its jobs' `Step
    queued` details."""
    found: dict[str, TopicPass] = {}

    def add(passes: Iterable[TopicPass]) -> None:
        for one in passes:
            known = found.get(one.topic)
            better = (one.subscription and not known.subscription) if known else True
            if better or (known is not None and one.evaluated and not known.evaluated):
                found[one.topic] = one

    for item in notification.topics or []:
        if not isinstance(item, dict) or not isinstance(item.get("topicKey"), str):
            continue
        add([_pass(item["topicKey"], item.get("preferenceEvaluation"), evaluated=False)])
    for job in notification.jobs:
        for detail in job.execution_details:
            if detail.detail.strip() == STEP_QUEUED and detail.raw:
                add(_evaluations(detail.raw))
    return list(found.values())


def pass_words(one: TopicPass) -> str:
    """Decision 124's sentence for one topic."""
    said = f"came through topic {one.topic}"
    if one.subscription:
        if one.condition is not None:
            rule = f"condition: {condition_words(one.condition)}"
        else:
            rule = "no condition"
        return f"{said}; subscription {one.subscription} let it through ({rule})"
    if one.evaluated:
        return f"{said}; its subscription has no identifier, so no condition was evaluated"
    return said


def topic_words(notification: ActivityNotification) -> list[str]:
    """One sentence per topic the notification came through; none when sent directly."""
    return [pass_words(one) for one in topic_passes(notification)]
