"""Pydantic models of the API contract, shared by server, client and app."""

from __future__ import annotations

from inboxdesk.models.base import ApiModel, Open
from inboxdesk.models.enums import PRIMARY_CHANNELS, Channel, MarkAs, MessageStatus, Region
from inboxdesk.models.errors import ErrorBody, FieldErrors
from inboxdesk.models.filters import FieldFilterPart, StepFilter
from inboxdesk.models.integration import Configurations, Credentials, Integration, mask_secret
from inboxdesk.models.message import (
    EmailBlock,
    EmailBlockStyles,
    Message,
    MessageAction,
    MessageActionResult,
    MessageButton,
    MessageCTA,
    MessageCTAData,
)
from inboxdesk.models.pages import Data, Page, UnseenCount
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
    "MAX_MARK_IDS",
    "PRIMARY_CHANNELS",
    "ApiModel",
    "Channel",
    "ChannelCredentials",
    "ChannelSettings",
    "Configurations",
    "Credentials",
    "Data",
    "DelayRegularMetadata",
    "DelayScheduledMetadata",
    "DigestRegularMetadata",
    "DigestTimedMetadata",
    "EmailBlock",
    "EmailBlockStyles",
    "ErrorBody",
    "FieldErrors",
    "FieldFilterPart",
    "Integration",
    "MarkAllRequest",
    "MarkAs",
    "MarkAsRequest",
    "Message",
    "MessageAction",
    "MessageActionResult",
    "MessageButton",
    "MessageCTA",
    "MessageCTAData",
    "MessageStatus",
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
    "mask_secret",
]
