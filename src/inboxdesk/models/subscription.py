"""A subscriber's topic subscriptions (`GET /v2/subscribers/{id}/subscriptions`).

Read tolerantly: the excerpt requires ids, keys and `createdAt`, but production leaves
out what a subscription lacks (a topic's name, the subscriber's names, `contextKeys`)
and adds `preferences` (each workflow's condition), which the excerpt does not list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from inboxdesk.models.base import ApiModel, Number


class SubscriptionTopic(ApiModel):
    id: str = Field("", alias="_id")
    key: str = ""
    name: str | None = None
    created_at: str | None = Field(None, alias="createdAt")
    updated_at: str | None = Field(None, alias="updatedAt")


class SubscriptionSubscriber(ApiModel):
    id: str = Field("", alias="_id")
    subscriber_id: str = Field("", alias="subscriberId")
    first_name: str | None = Field(None, alias="firstName")
    last_name: str | None = Field(None, alias="lastName")
    email: str | None = None
    avatar: str | None = None


class SubscriptionWorkflow(ApiModel):
    """The workflow a subscription's record is for; absent once it was deleted."""

    id: str | None = None
    identifier: str | None = None
    name: str | None = None
    critical: bool | None = None


class SubscriptionPreference(ApiModel):
    """One workflow's record of a subscription: a JSON Logic `condition`, else `enabled`
    (true when left out) decides whether a trigger of it passes the subscription."""

    subscription_id: str | None = Field(None, alias="subscriptionId")
    workflow: SubscriptionWorkflow | None = None
    enabled: bool | None = None
    condition: Any = None


class TopicSubscription(ApiModel):
    id: str = Field("", alias="_id")
    # "" when the subscription has none: production evaluates none of its records then.
    identifier: str | None = None
    created_at: str | None = Field(None, alias="createdAt")
    topic: SubscriptionTopic = Field(default_factory=SubscriptionTopic)
    subscriber: SubscriptionSubscriber | None = None
    context_keys: list[str] | None = Field(None, alias="contextKeys")
    preferences: list[SubscriptionPreference] | None = None


class SubscriptionPage(ApiModel):
    """One cursor page: pass `next` as `after` for the following one."""

    data: list[TopicSubscription] = Field(default_factory=list)
    next: str | None = None
    previous: str | None = None
    total_count: Number | None = Field(None, alias="totalCount")
    total_count_capped: bool | None = Field(None, alias="totalCountCapped")


def default_identifier(topic_key: str, subscriber_id: str, context_keys: Sequence[str] = ()) -> str:
    """The identifier production gives a subscription made without one: its records
    name the subscription by it (`subscriptionId`)."""
    base = f"tk_{topic_key}:si_{subscriber_id}"
    return f"{base}:ctx_{','.join(sorted(context_keys))}" if context_keys else base
