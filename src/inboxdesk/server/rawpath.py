"""Routing on the path as sent, so that an id is one path segment whatever it holds.

The server percent-decodes the path before routing: a subscriberId sent as `a%2Fb`
arrives as two segments and matches no route. `RawPathMiddleware` rebuilds the path
from `raw_path` with each segment decoded except `%` and `/`, which stay encoded (so
`.` and `..` are plain segments too); `RawPathRoute`, the class of every route, then
decodes the path parameters of the route chosen, once, so a route gets `a/b`, `..` or
`100%`: the one id the client sent (decision 24).
"""

from __future__ import annotations

from urllib.parse import unquote, unquote_to_bytes

from fastapi.routing import APIRoute

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


class RawPathRoute(APIRoute):
    """A route whose path parameters are decoded once it is chosen: what the middleware
    left encoded for routing. Decoded here, not in a dependency of every route, which
    FastAPI solved on every request, nor as each route is tried (a dozen a request)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        params = scope.get("path_params")
        if params:
            # Only the ones this route read from the path.
            for name in self.param_convertors:
                value = params.get(name)
                if isinstance(value, str):
                    params[name] = unquote(value)
        await super().handle(scope, receive, send)
