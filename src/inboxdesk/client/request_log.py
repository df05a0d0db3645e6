"""The session's requests, in memory only: method, path, status and
time of each, and its body, for "copy as curl" with the key left as a variable."""

from __future__ import annotations

import shlex
import time
from collections import deque
from dataclasses import dataclass
from datetime import UTC, datetime

KEY_VARIABLE = "NOVU_SECRET_KEY"
KEPT = 500  # the newest requests kept; older ones go


@dataclass(frozen=True)
class LoggedRequest:
    """One request of the session, as the request log shows it (never the key)."""

    at: datetime
    method: str
    url: str  # with its query; never holds the key (it travels in a header)
    status: int | None  # None: no answer (the service was unreachable, or too slow)
    seconds: float
    body: bytes = b""
    idempotency_key: str | None = None
    error: str = ""


class RequestLog:
    def __init__(self, kept: int = KEPT) -> None:
        self.entries: deque[LoggedRequest] = deque(maxlen=kept)

    def started(self) -> float:
        return time.monotonic()

    def add(
        self,
        started: float,
        method: str,
        url: str,
        status: int | None,
        body: bytes,
        idempotency_key: str | None,
        error: str = "",
    ) -> None:
        seconds = time.monotonic() - started
        self.entries.append(
            LoggedRequest(
                datetime.now(UTC), method, url, status, seconds, body, idempotency_key, error
            )
        )

    def newest_first(self) -> list[LoggedRequest]:
        return list(reversed(self.entries))


def as_curl(request: LoggedRequest) -> str:
    """The request as one curl command line; the key is `$NOVU_SECRET_KEY`, expanded by
    the shell that runs it, never written out."""
    parts = ["curl", "-X", request.method, shlex.quote(request.url)]
    parts.append(f'-H "Authorization: ApiKey ${KEY_VARIABLE}"')
    if request.idempotency_key:
        parts += ["-H", shlex.quote(f"Idempotency-Key: {request.idempotency_key}")]
    if request.body:
        parts += ["-H", shlex.quote("Content-Type: application/json")]
        parts += ["--data-raw", shlex.quote(request.body.decode("utf-8", "replace"))]
    return " ".join(parts)
