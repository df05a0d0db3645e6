"""Pydantic models of the API contract, shared by server, client and app.

Names are imported from their modules when first used (PEP 562): `from
inboxdesk.models.enums import Region` must not build every model, since start-up
needs only a few of them (BENCHMARKS.md, start-up).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inboxdesk.lazy import exports

if TYPE_CHECKING:
    from inboxdesk.models.base import ApiModel, Open
    from inboxdesk.models.enums import (
        PRIMARY_CHANNELS,
        Channel,
        IntegrationKind,
        MarkAs,
        MessageStatus,
        Region,
    )
    from inboxdesk.models.environment import Environment
    from inboxdesk.models.errors import ErrorBody, FieldErrors
    from inboxdesk.models.feed import FeedActor, FeedItem, FeedSubscriber, FeedTemplate
    from inboxdesk.models.filters import FieldFilterPart, StepFilter
    from inboxdesk.models.integration import Configurations, Credentials, Integration
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
    from inboxdesk.models.secrets import is_secret, mask_secret, mask_secrets
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

# Each public name and the module that defines it.
_MODULES = {
    **dict.fromkeys(["ApiModel", "Open"], "base"),
    **dict.fromkeys(
        ["PRIMARY_CHANNELS", "Channel", "IntegrationKind", "MarkAs", "MessageStatus", "Region"],
        "enums",
    ),
    **dict.fromkeys(["Environment"], "environment"),
    **dict.fromkeys(["ErrorBody", "FieldErrors"], "errors"),
    **dict.fromkeys(["FeedActor", "FeedItem", "FeedSubscriber", "FeedTemplate"], "feed"),
    **dict.fromkeys(["FieldFilterPart", "StepFilter"], "filters"),
    **dict.fromkeys(["Configurations", "Credentials", "Integration"], "integration"),
    **dict.fromkeys(
        [
            "EmailBlock",
            "EmailBlockStyles",
            "Message",
            "MessageAction",
            "MessageActionResult",
            "MessageButton",
            "MessageCTA",
            "MessageCTAData",
            "MessageFields",
        ],
        "message",
    ),
    **dict.fromkeys(
        [
            "COUNT_CAP",
            "Count",
            "CursorPage",
            "Data",
            "NotificationCount",
            "NotificationCounts",
            "Page",
            "UnseenCount",
        ],
        "pages",
    ),
    **dict.fromkeys(["MAX_MARK_IDS", "MarkAllRequest", "MarkAsRequest"], "requests"),
    **dict.fromkeys(["is_secret", "mask_secret", "mask_secrets"], "secrets"),
    **dict.fromkeys(["ChannelCredentials", "ChannelSettings", "Subscriber"], "subscriber"),
    **dict.fromkeys(
        [
            "DelayRegularMetadata",
            "DelayScheduledMetadata",
            "DigestRegularMetadata",
            "DigestTimedMetadata",
            "NotificationGroup",
            "NotificationStep",
            "NotificationTrigger",
            "TimedConfig",
            "Workflow",
        ],
        "workflow",
    ),
}


# Not seen by mypy, which reads the imports above and so still flags a wrong name.
if not TYPE_CHECKING:
    __getattr__, __dir__ = exports(__name__, _MODULES, globals())


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
    "Environment",
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
