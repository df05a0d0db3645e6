"""The async API client of the service, on httpx and the shared models."""

from __future__ import annotations

from inboxdesk.client.api import ClientOptions, InboxClient, MarkResult
from inboxdesk.client.errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionFailed,
    InboxdeskError,
    NameNotResolved,
    NotFoundError,
    ProtocolError,
    RateLimitedError,
    ServerError,
    TimedOut,
    TransportError,
    ValidationError,
)
from inboxdesk.client.retry import NO_RETRY, RetryPolicy

__all__ = [
    "NO_RETRY",
    "ApiError",
    "AuthenticationError",
    "BadRequestError",
    "ClientOptions",
    "ConflictError",
    "ConnectionFailed",
    "InboxClient",
    "InboxdeskError",
    "MarkResult",
    "NameNotResolved",
    "NotFoundError",
    "ProtocolError",
    "RateLimitedError",
    "RetryPolicy",
    "ServerError",
    "TimedOut",
    "TransportError",
    "ValidationError",
]
