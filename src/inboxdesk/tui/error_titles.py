"""The title over an error the service gave: one place for the app's notices and its
start-up problem screen."""

from __future__ import annotations

from inboxdesk.client import (
    AuthenticationError,
    InboxdeskError,
    LimitExceeded,
    NotFoundError,
    ProtocolError,
    TransportError,
)


def error_title(error: InboxdeskError, starting: bool = False) -> str:
    """`starting`: nothing is shown yet, so the title says what stopped the start."""
    if isinstance(error, AuthenticationError) and starting:
        return "The service rejected the API key"
    if isinstance(error, TransportError):
        return "The service is unreachable"
    if isinstance(error, LimitExceeded):
        return "Stopped at a limit"
    if isinstance(error, ProtocolError):
        return "The service's answer cannot be read"
    if isinstance(error, NotFoundError) and not starting:
        return "Not found"
    return "The service answered with an error" if starting else "The service said no"
