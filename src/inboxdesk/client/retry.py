"""When to try a request again, and how long to wait first."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

# Statuses that say "not now" rather than "no": safe to retry with the same key.
RETRY_STATUSES = frozenset({409, 429, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, honouring Retry-After, within a deadline."""

    attempts: int = 6
    base: float = 0.2
    cap: float = 5.0
    deadline: float = 30.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt` (1 for the first retry)."""
        return self.rng.uniform(0, min(self.cap, self.base * 2 ** (attempt - 1)))


NO_RETRY = RetryPolicy(attempts=1)


def retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a Retry-After header: delta seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
