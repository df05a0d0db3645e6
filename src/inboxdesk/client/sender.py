"""The client's one sender: every operation, v1 and v2, goes through it.

It holds the connection pool and the key, adds the Idempotency-Key to writes, logs each
request for the app's request log (never the key), and turns a refusal into the
matching ApiError. Retries, the deadline and the body cap are transport.py's.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import httpx

from inboxdesk import __version__
from inboxdesk.client.errors import InboxdeskError
from inboxdesk.client.parse import api_error, json_of
from inboxdesk.client.request_log import RequestLog
from inboxdesk.client.retry import RetryPolicy
from inboxdesk.client.transport import ClientOptions, default_transport, send

USER_AGENT = f"inboxdesk/{__version__} httpx/{httpx.__version__}"


def segment(value: str) -> str:
    """A path segment, percent-encoded so that an id can never change the path.

    `/`, `?`, `#` and `%` are encoded by quote; a segment of dots alone is too, since
    URL normalisation (httpx's included) removes `.` and `..` segments.
    """
    return quote(value, safe="") if value.strip(".") else "%2E" * len(value)


class Sender:
    """Sends one request with retries within the limits; answers the 2xx response."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        options: ClientOptions,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.options = options
        # The session's requests, for the app's request log (never the key).
        self.requests = RequestLog()
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers={
                "Authorization": f"ApiKey {api_key}",
                "User-Agent": USER_AGENT,
                "Accept": "application/json",
            },
            timeout=options.timeout,
            transport=transport or default_transport(options, base_url),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    def key_fingerprint(self, secret: bytes) -> str:
        """HMAC-SHA256 of the key under `secret`: tells keys apart without keeping one."""
        import hashlib
        import hmac

        key = self._http.headers.get("Authorization", "").removeprefix("ApiKey ")
        return hmac.new(secret, key.encode(), hashlib.sha256).hexdigest()

    async def json(
        self,
        method: str,
        path: str,
        params: Any = None,
        json_body: Any = None,
        idempotency_key: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> Any:
        """The parsed JSON body of a 2xx, or the matching ApiError."""
        return json_of(await self.send(method, path, params, json_body, idempotency_key, retry))

    async def send(
        self,
        method: str,
        path: str,
        params: Any = None,
        json_body: Any = None,
        idempotency_key: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> httpx.Response:
        """The 2xx response, or the matching ApiError. `retry` replaces the client's
        policy for this call (a trigger tries once, and asks before trying again)."""
        headers = {}
        if method in ("POST", "PATCH"):
            # One key for every try of this call: a retried write is applied once (the
            # outbox's keys for archive and snooze too).
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        request = self._http.build_request(
            method, path, params=params, json=json_body, headers=headers
        )
        started = self.requests.started()
        try:
            options = self.options if retry is None else replace(self.options, retry=retry)
            response = await send(self._http, request, options)
        except InboxdeskError as exc:
            self._logged(started, request, None, type(exc).__name__)
            raise
        self._logged(started, request, response.status_code)
        if response.is_success:
            return response
        raise api_error(response)

    def _logged(
        self, started: float, request: httpx.Request, status: int | None, error: str = ""
    ) -> None:
        self.requests.add(
            started,
            request.method,
            str(request.url),
            status,
            _masked(request),
            request.headers.get("Idempotency-Key"),
            error,
        )


def _masked(request: httpx.Request) -> bytes:
    """The body as the request log keeps it: a credentials write's tokens and webhook
    URL masked, as every secret is outside the 0600 journal."""
    if not request.url.path.endswith("/credentials") or not request.content:
        return request.content
    import json

    from inboxdesk.models.subscriber_edit import masked_credentials

    try:
        body = json.loads(request.content)
        body["credentials"] = masked_credentials(body.get("credentials"))
    except (ValueError, TypeError, AttributeError):
        return b"(a credentials body, not shown)"
    return json.dumps(body).encode()
