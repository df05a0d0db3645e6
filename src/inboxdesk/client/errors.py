"""What can go wrong talking to the service, as a small hierarchy callers can act on.

Every message says what happened and what to do next; none carries the API key.
"""

from __future__ import annotations

from http import HTTPStatus

from inboxdesk.models import ErrorBody


class InboxdeskError(Exception):
    """Base of every error the client raises."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip()


class TransportError(InboxdeskError):
    """The service could not be reached or did not answer in time (after retries)."""


class ConnectionFailed(TransportError):
    pass


class NameNotResolved(ConnectionFailed):
    """The service's host name does not resolve (DNS): a typo, or no network."""


class TimedOut(TransportError):
    pass


class DeadlineExceeded(TimedOut):
    """The whole request (retries and a slow body included) took longer than the deadline."""


class ProtocolError(InboxdeskError):
    """The service answered with something that is not the API's shape."""


class LimitExceeded(ProtocolError):
    """An answer past one of the client's limits; `setting` names the one to raise."""

    def __init__(self, message: str, hint: str = "", setting: str = "") -> None:
        super().__init__(message, hint)
        self.setting = setting


class Looping(ProtocolError):
    """A listing the service would never end: a cursor given twice, or a page of ids all
    listed already, while it still says "more"."""


class ApiError(InboxdeskError):
    """The service answered with an error status."""

    def __init__(
        self,
        status: int,
        message: str,
        hint: str = "",
        body: ErrorBody | None = None,
        path: str = "",
    ) -> None:
        super().__init__(message, hint)
        self.status = status
        self.body = body
        self.path = path

    @property
    def error_id(self) -> str | None:
        """The service's reference for this error (production sends one with a 5xx)."""
        return self.body.error_id if self.body else None


class AuthenticationError(ApiError):
    """401: the key is missing, malformed or unknown to this service."""


class ForbiddenError(ApiError):
    """403: the key is good, and may not do this. A key acts only in its own
    environment, so the usual cause is a request that acts in another environment."""


class NotFoundError(ApiError):
    """404: the resource named in the path does not exist in this environment."""


class SubscriberNotFound(NotFoundError):
    """404: the subscriber named in the path is not in this environment (the v2 inbox's
    list answers so, and only the subscriber's own route tells it from a missing one)."""


class ValidationError(ApiError):
    """422 (or an older 400): the request was malformed; `fields` says how."""

    def __init__(
        self, status: int, message: str, fields: dict[str, list[str]], **kw: object
    ) -> None:
        super().__init__(status, message, **kw)  # type: ignore[arg-type]
        self.fields = fields


class BadRequestError(ApiError):
    """400 that is not about one field, e.g. a channel without primary."""


class ConflictError(ApiError):
    """409: an idempotency key still in flight after every retry."""


class RateLimitedError(ApiError):
    """429 after every retry; `retry_after` is how long the service asked to wait."""

    def __init__(
        self,
        status: int,
        message: str,
        retry_after: float,
        hint: str = "",
        body: ErrorBody | None = None,
        path: str = "",
    ) -> None:
        super().__init__(status, message, hint, body, path)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx after every retry."""


# Answers that say "not now" rather than "no": a queued write stays queued on them.
TRANSIENT_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def transient(error: InboxdeskError) -> bool:
    """True when the service was away, too slow, or said "not now": the same write, with
    the same key, may succeed later."""
    if isinstance(error, TransportError):
        return True
    return isinstance(error, ApiError) and error.status in TRANSIENT_STATUSES


def phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
