"""A cap on request bodies: read at most the limit, then answer 413."""

from __future__ import annotations

from inboxdesk.server.asgi import (
    BODY_KEY,
    ASGIApp,
    Receive,
    Scope,
    Send,
    header,
    replay_body,
    reply,
)
from inboxdesk.server.errors import error_bytes

# The production service caps bodies at 100 kB; 1,000 ids take about 28 kB.
MAX_BODY_BYTES = 100 * 1024


class BodyLimitMiddleware:
    """Buffers each request body (up to the cap) so later middlewares can read it too."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = header(scope, "content-length")
        too_big = declared is not None and declared.isdigit() and int(declared) > self.max_bytes
        body = b""
        while not too_big:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            too_big = len(body) > self.max_bytes
            if not message.get("more_body", False):
                break
        if too_big:
            text = f"Request body is larger than {self.max_bytes} bytes"
            await reply(send, 413, error_bytes(413, scope["path"], text))
            return
        scope[BODY_KEY] = body
        await self.app(scope, replay_body(body), send)
