"""The names `inboxdesk.models` exports, each once: the type checkers read them here, and
`lazy_loader` imports each from its module when first used (__init__.py)."""

from .base import (
    ApiModel as ApiModel,
    Open as Open,
)
from .enums import (
    PRIMARY_CHANNELS as PRIMARY_CHANNELS,
    Channel as Channel,
    IntegrationKind as IntegrationKind,
    MarkAs as MarkAs,
    MessageStatus as MessageStatus,
    Region as Region,
)
from .environment import Environment as Environment
from .errors import (
    ErrorBody as ErrorBody,
    FieldErrors as FieldErrors,
)
from .feed import (
    FeedActor as FeedActor,
    FeedItem as FeedItem,
    FeedSubscriber as FeedSubscriber,
    FeedTemplate as FeedTemplate,
)
from .filters import (
    FieldFilterPart as FieldFilterPart,
    StepFilter as StepFilter,
)
from .integration import (
    Configurations as Configurations,
    Credentials as Credentials,
    Integration as Integration,
)
from .message import (
    EmailBlock as EmailBlock,
    EmailBlockStyles as EmailBlockStyles,
    Message as Message,
    MessageAction as MessageAction,
    MessageActionResult as MessageActionResult,
    MessageButton as MessageButton,
    MessageCTA as MessageCTA,
    MessageCTAData as MessageCTAData,
    MessageFields as MessageFields,
)
from .pages import (
    COUNT_CAP as COUNT_CAP,
    Count as Count,
    CursorPage as CursorPage,
    Data as Data,
    NotificationCount as NotificationCount,
    NotificationCounts as NotificationCounts,
    Page as Page,
    UnseenCount as UnseenCount,
)
from .requests import (
    MAX_MARK_IDS as MAX_MARK_IDS,
    MarkAllRequest as MarkAllRequest,
    MarkAsRequest as MarkAsRequest,
)
from .secrets import (
    is_secret as is_secret,
    mask_secret as mask_secret,
    mask_secrets as mask_secrets,
)
from .subscriber import (
    ChannelCredentials as ChannelCredentials,
    ChannelSettings as ChannelSettings,
    Subscriber as Subscriber,
)
from .workflow import (
    DelayRegularMetadata as DelayRegularMetadata,
    DelayScheduledMetadata as DelayScheduledMetadata,
    DigestRegularMetadata as DigestRegularMetadata,
    DigestTimedMetadata as DigestTimedMetadata,
    NotificationGroup as NotificationGroup,
    NotificationStep as NotificationStep,
    NotificationTrigger as NotificationTrigger,
    TimedConfig as TimedConfig,
    Workflow as Workflow,
)
