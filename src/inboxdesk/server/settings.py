"""What a local service instance is configured with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inboxdesk.server.limits import MAX_BODY_BYTES
from inboxdesk.server.ratelimit import RateLimit


@dataclass(frozen=True)
class ServerSettings:
    db_path: Path | str
    rate_limit: RateLimit | None = None
    max_body_bytes: int = MAX_BODY_BYTES
    # Seconds each write operation takes on purpose: lets clients be tested against
    # a slow service and a request still in flight.
    operation_delay: float = 0.0
