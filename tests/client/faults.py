"""A fault-injecting httpx transport for faults no real server makes on demand.

Each request goes to the real local service unless a scripted fault says otherwise;
`after` faults forward first (the service applies the request) and then lie about it.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

Fault = Callable[[httpx.Request, httpx.Response | None], httpx.Response]

# Tests speak plain HTTP to loopback: a context that trusts no one (it would refuse any
# TLS peer) spares loading the CA bundle, 70 ms for each client made.
LOOPBACK_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def loopback_transport() -> httpx.AsyncHTTPTransport:
    return httpx.AsyncHTTPTransport(verify=LOOPBACK_TLS)


def loopback_client(base_url: str = "", **options: Any) -> httpx.Client:
    """A client of a service on loopback, over plain HTTP (no CA bundle loaded)."""
    return httpx.Client(base_url=base_url, verify=LOOPBACK_TLS, **options)


def loopback_async_client(base_url: str = "", **options: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base_url, verify=LOOPBACK_TLS, **options)


def answers(url: str, timeout: float = 5) -> bool:
    """Whether anything answers HTTP at `url`, whatever its status."""
    try:
        with loopback_client(timeout=timeout) as http:
            http.get(url)
    except httpx.TransportError:
        return False
    return True


@dataclass
class Hold:
    """The service's answers held back until `release` is set: a request it applied
    whose answer the client has not read yet. `reached` is set by the first."""

    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    async def back(self, response: httpx.Response) -> httpx.Response:
        await response.aread()
        self.reached.set()
        await self.release.wait()
        return response


@dataclass
class FaultTransport(httpx.AsyncBaseTransport):
    before: list[Fault] = field(default_factory=list)
    after: list[Fault] = field(default_factory=list)
    inner: httpx.AsyncBaseTransport = field(default_factory=loopback_transport)
    seen: list[httpx.Request] = field(default_factory=list)
    # Paths starting with a prefix get that answer instead of the service's.
    route: dict[str, Callable[[httpx.Request], httpx.Response]] = field(default_factory=dict)
    # Paths starting with a prefix get the service's answer, held back.
    holds: dict[str, Hold] = field(default_factory=dict)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        for prefix, answer in self.route.items():
            if request.url.path.startswith(prefix):
                return answer(request)
        if self.before:
            return self.before.pop(0)(request, None)
        response = await self.inner.handle_async_request(request)
        if self.after:
            await response.aread()
            return self.after.pop(0)(request, response)
        for prefix, hold in self.holds.items():
            if request.url.path.startswith(prefix):
                return await hold.back(response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def status(code: int, headers: dict[str, str] | None = None, body: bytes = b"{}") -> Fault:
    def fault(request: httpx.Request, _: httpx.Response | None) -> httpx.Response:
        return httpx.Response(code, headers=headers, content=body, request=request)

    return fault


def connection_refused() -> Fault:
    def fault(request: httpx.Request, _: httpx.Response | None) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    return fault


def rewrite(change: Callable[[object], object]) -> Fault:
    """Forward, then hand back a changed copy of the real body."""

    def fault(request: httpx.Request, response: httpx.Response | None) -> httpx.Response:
        assert response is not None
        body = change(response.json())
        return httpx.Response(response.status_code, json=body, request=request)

    return fault


def garbled() -> Fault:
    def fault(request: httpx.Request, response: httpx.Response | None) -> httpx.Response:
        code = response.status_code if response is not None else 200
        return httpx.Response(
            code,
            content=b'{"data": [tru',
            request=request,
            headers={"content-type": "application/json"},
        )

    return fault


def decoded(request: httpx.Request) -> object:
    return json.loads(request.content) if request.content else None


def without_v2() -> FaultTransport:
    """The real service as an older deployment: every /v2 path answers 404."""

    def missing(request: httpx.Request) -> httpx.Response:
        message = f"Cannot GET {request.url.path}"
        body = {"statusCode": 404, "message": message, "error": "Not Found"}
        return httpx.Response(404, json=body, request=request)

    return FaultTransport(route={"/v2/": missing})
