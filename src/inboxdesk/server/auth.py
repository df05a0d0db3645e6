"""API-key authentication: `Authorization: ApiKey <key>` on every /v1 request."""

from __future__ import annotations

from inboxdesk.server.asgi import ASGIApp, Receive, Scope, Send, header, reply
from inboxdesk.server.errors import error_bytes
from inboxdesk.server.store import Caller, Store

CALLER_KEY = "caller"
MAX_SCHEME_SHOWN = 16


def caller_of(scope: Scope) -> Caller:
    """The authenticated caller a request acts for (set by AuthMiddleware)."""
    caller = scope.get("state", {}).get(CALLER_KEY)
    assert isinstance(caller, Caller), "route reached without authentication"
    return caller


class AuthMiddleware:
    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(("/v1", "/v2")):
            await self.app(scope, receive, send)
            return
        problem = self._check(scope)
        if problem is not None:
            await reply(
                send,
                401,
                error_bytes(401, scope["path"], problem),
                [(b"www-authenticate", b"ApiKey")],
            )
            return
        await self.app(scope, receive, send)

    def _check(self, scope: Scope) -> str | None:
        """Authenticate the request into its scope; the 401 message when that fails."""
        value = header(scope, "authorization")
        if value is None:
            return "Missing authorization header"
        # Any whitespace separates scheme and key: a tab must not glue the key to the scheme.
        scheme, key = [*value.split(None, 1), "", ""][:2]
        if scheme != "ApiKey":
            # Echo only what looks like a scheme name; "ApiKey<key>" or a bare key is not.
            shown = scheme if scheme.isalpha() and len(scheme) <= MAX_SCHEME_SHOWN else ""
            return (
                f'Invalid authentication scheme: "{shown}"'
                if shown
                else ('Invalid authentication scheme; expected "ApiKey <key>"')
            )
        key = key.strip()
        if not key:
            return "Unauthorized"
        caller = self.store.authenticate(key)
        if caller is None:
            return "API Key not found"
        scope.setdefault("state", {})[CALLER_KEY] = caller
        return None
