"""The async API client of the service, on httpx and the shared models."""

from __future__ import annotations

from inboxdesk.client.api import InboxClient, MarkResult
from inboxdesk.client.errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionFailed,
    DeadlineExceeded,
    ForbiddenError,
    InboxdeskError,
    LimitExceeded,
    NameNotResolved,
    NotFoundError,
    ProtocolError,
    RateLimitedError,
    ServerError,
    SubscriberNotFound,
    TimedOut,
    TransportError,
    ValidationError,
)
from inboxdesk.client.inbox import NoV2Inbox
from inboxdesk.client.limits import Limits
from inboxdesk.client.retry import NO_RETRY, RetryPolicy
from inboxdesk.client.transport import ClientOptions

__all__ = [
    "NO_RETRY",
    "ApiError",
    "AuthenticationError",
    "BadRequestError",
    "ClientOptions",
    "ConflictError",
    "ConnectionFailed",
    "DeadlineExceeded",
    "ForbiddenError",
    "InboxClient",
    "InboxdeskError",
    "LimitExceeded",
    "Limits",
    "MarkResult",
    "NameNotResolved",
    "NoV2Inbox",
    "NotFoundError",
    "ProtocolError",
    "RateLimitedError",
    "RetryPolicy",
    "ServerError",
    "SubscriberNotFound",
    "TimedOut",
    "TransportError",
    "ValidationError",
]
