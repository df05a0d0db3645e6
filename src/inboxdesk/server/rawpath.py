"""Routing on the path as sent, so that an id is one path segment whatever it holds.

The server percent-decodes the path before routing: a subscriberId sent as `a%2Fb`
arrives as two segments and matches no route. `RawPathMiddleware` rebuilds the path
from `raw_path` with each segment decoded except `%` and `/`, which stay encoded (so
`.` and `..` are plain segments too); `decoded_path_params`, a dependency of every
route, then decodes the path parameters once, so a route gets `a/b`, `..` or `100%`:
the one id the client sent (decision 24).
"""

from __future__ import annotations

from urllib.parse import unquote, unquote_to_bytes

from starlette.requests import Request

from inboxdesk.server.asgi import ASGIApp, Receive, Scope, Send


def routed_path(raw_path: bytes) -> str:
    """The path to route on: segments decoded, a `/` or `%` inside one left encoded."""
    segments = raw_path.split(b"?", 1)[0].split(b"/")
    return "/".join(_segment(s) for s in segments)


def _segment(raw: bytes) -> str:
    text = unquote_to_bytes(raw).decode("utf-8", "replace")
    return text.replace("%", "%25").replace("/", "%2F")


class RawPathMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path")
        if scope["type"] == "http" and raw and raw.startswith(b"/"):
            scope["path"] = routed_path(raw)
        await self.app(scope, receive, send)


async def decoded_path_params(request: Request) -> None:
    """The path parameters as sent: decodes what the middleware left encoded for routing.

    Run before the endpoint reads them: FastAPI solves a route's dependencies first.
    """
    params = request.scope.get("path_params")
    if params:
        for name, value in params.items():
            if isinstance(value, str):
                params[name] = unquote(value)
