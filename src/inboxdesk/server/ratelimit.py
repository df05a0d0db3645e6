"""Per-key rate limiting with RateLimit-* headers; off unless configured."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from inboxdesk.server.asgi import ASGIApp, Message, Receive, Scope, Send, reply
from inboxdesk.server.auth import CALLER_KEY
from inboxdesk.server.errors import error_bytes


@dataclass(frozen=True)
class RateLimit:
    """`requests` per `window` seconds for each environment's key."""

    requests: int
    window: float = 1.0


class RateLimitMiddleware:
    """A fixed window per environment: simple, and what the headers describe."""

    def __init__(self, app: ASGIApp, limit: RateLimit) -> None:
        self.app = app
        self.limit = limit
        self._windows: dict[str, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def _take(self, who: str) -> tuple[bool, int, float]:
        """Count one request; whether it is allowed, what remains, seconds to reset."""
        now = time.monotonic()
        with self._lock:
            start, used = self._windows.get(who, (now, 0))
            if now - start >= self.limit.window:
                start, used = now, 0
            allowed = used < self.limit.requests
            if allowed:
                used += 1
            self._windows[who] = (start, used)
        # The window less what has passed: `start + window - now` could come out a hair
        # over the window in floating point, and the header (rounded up) one second over.
        return allowed, self.limit.requests - used, self.limit.window - (now - start)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        caller = scope.get("state", {}).get(CALLER_KEY)
        if scope["type"] != "http" or caller is None:
            await self.app(scope, receive, send)
            return
        allowed, remaining, reset = self._take(caller.environment_id)
        reset_seconds = str(max(1, math.ceil(reset))).encode()
        headers = [
            (b"ratelimit-limit", str(self.limit.requests).encode()),
            (b"ratelimit-remaining", str(remaining).encode()),
            (b"ratelimit-reset", reset_seconds),
        ]
        if not allowed:
            body = error_bytes(429, scope["path"], "API rate limit exceeded")
            await reply(send, 429, body, [*headers, (b"retry-after", reset_seconds)])
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, send_with_headers)
