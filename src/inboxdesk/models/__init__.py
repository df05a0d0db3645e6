"""Pydantic models of the API contract, shared by server, client and app."""

from __future__ import annotations

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import (
    PRIMARY_CHANNELS,
    Channel,
    IntegrationKind,
    MarkAs,
    MessageStatus,
    Region,
)
from inboxdesk.models.errors import ErrorBody, FieldErrors
from inboxdesk.models.feed import FeedActor, FeedItem, FeedSubscriber, FeedTemplate
from inboxdesk.models.filters import FieldFilterPart, StepFilter
from inboxdesk.models.integration import (
    Configurations,
    Credentials,
    Integration,
    is_secret,
    mask_secret,
    mask_secrets,
)
from inboxdesk.models.message import (
    EmailBlock,
    EmailBlockStyles,
    Message,
    MessageAction,
    MessageActionResult,
    MessageButton,
    MessageCTA,
    MessageCTAData,
    MessageFields,
)
from inboxdesk.models.pages import (
    COUNT_CAP,
    Count,
    CursorPage,
    Data,
    NotificationCount,
    NotificationCounts,
    Page,
    UnseenCount,
)
from inboxdesk.models.requests import MAX_MARK_IDS, MarkAllRequest, MarkAsRequest
from inboxdesk.models.subscriber import ChannelCredentials, ChannelSettings, Subscriber
from inboxdesk.models.workflow import (
    DelayRegularMetadata,
    DelayScheduledMetadata,
    DigestRegularMetadata,
    DigestTimedMetadata,
    NotificationGroup,
    NotificationStep,
    NotificationTrigger,
    TimedConfig,
    Workflow,
)

__all__ = [
    "COUNT_CAP",
    "MAX_MARK_IDS",
    "PRIMARY_CHANNELS",
    "ApiModel",
    "Channel",
    "ChannelCredentials",
    "ChannelSettings",
    "Configurations",
    "Count",
    "Credentials",
    "CursorPage",
    "Data",
    "DelayRegularMetadata",
    "DelayScheduledMetadata",
    "DigestRegularMetadata",
    "DigestTimedMetadata",
    "EmailBlock",
    "EmailBlockStyles",
    "ErrorBody",
    "FeedActor",
    "FeedItem",
    "FeedSubscriber",
    "FeedTemplate",
    "FieldErrors",
    "FieldFilterPart",
    "Integration",
    "IntegrationKind",
    "MarkAllRequest",
    "MarkAs",
    "MarkAsRequest",
    "Message",
    "MessageAction",
    "MessageActionResult",
    "MessageButton",
    "MessageCTA",
    "MessageCTAData",
    "MessageFields",
    "MessageStatus",
    "NotificationCount",
    "NotificationCounts",
    "NotificationGroup",
    "NotificationStep",
    "NotificationTrigger",
    "Open",
    "Page",
    "Region",
    "StepFilter",
    "Subscriber",
    "TimedConfig",
    "UnseenCount",
    "Workflow",
    "is_secret",
    "mask_secret",
    "mask_secrets",
]
