"""Sending one request: TLS and the connection pool, retries, the deadline, the body cap."""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from dataclasses import dataclass, field

import httpx

from inboxdesk.client.errors import ConnectionFailed, NameNotResolved, TimedOut
from inboxdesk.client.limits import Limits, body_too_large, past_deadline
from inboxdesk.client.retry import RETRY_STATUSES, RetryPolicy, retry_after


@dataclass(frozen=True)
class ClientOptions:
    """Transport settings; every one has a sensible default."""

    timeout: float = 10.0
    verify: bool | str = True
    cert: str | tuple[str, str] | None = None
    proxy: str | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    limits: Limits = field(default_factory=Limits)


class Answer(httpx.Response):
    """A response read whole, within the body cap, carrying the limits its parsing applies."""

    def __init__(self, streamed: httpx.Response, content: bytes, limits: Limits) -> None:
        # The content is decoded already: without the header it is not decoded twice.
        headers = [
            (k, v) for k, v in streamed.headers.multi_items() if k.lower() != "content-encoding"
        ]
        super().__init__(
            streamed.status_code,
            headers=headers,
            content=content,
            request=streamed.request,
            extensions=streamed.extensions,
        )
        self.limits = limits


def limits_of(response: httpx.Response) -> Limits:
    return response.limits if isinstance(response, Answer) else Limits()


async def send(
    http: httpx.AsyncClient, request: httpx.Request, options: ClientOptions
) -> httpx.Response:
    """`request` sent with retries, and its last answer read whole (2xx or not).

    httpx's timeout bounds each read, so a body that drips a byte at a time never
    trips it: the deadline bounds the whole, retries and their waits included.
    """
    limits = options.limits
    deadline = asyncio.timeout(limits.deadline)
    try:
        async with deadline:
            return await _attempts(http, request, options)
    except TimeoutError:
        if not deadline.expired():
            raise
        raise past_deadline(limits.deadline, base_url(http)) from None


async def _attempts(
    http: httpx.AsyncClient, request: httpx.Request, options: ClientOptions
) -> httpx.Response:
    policy = options.retry
    # A retry never starts a wait that would end past either deadline.
    budget = min(policy.deadline, options.limits.deadline)
    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        try:
            response = await _read(http, request, options.limits)
        except (httpx.TimeoutException, httpx.TransportError) as exc:
            failure = transport_failure(exc, base_url(http), options.timeout)
            # A name that does not resolve is a typo or no network: waiting won't help.
            if attempt >= policy.attempts or isinstance(failure, NameNotResolved):
                raise failure from None
            wait = policy.backoff(attempt)
            if time.monotonic() - started + wait > budget:
                raise failure from None
            await asyncio.sleep(wait)
            continue
        if response.status_code in RETRY_STATUSES and attempt < policy.attempts:
            asked = retry_after(response.headers.get("Retry-After"))
            wait = asked if asked is not None else policy.backoff(attempt)
            if time.monotonic() - started + wait <= budget:
                await asyncio.sleep(wait)
                continue
        return response


async def _read(http: httpx.AsyncClient, request: httpx.Request, limits: Limits) -> Answer:
    """One try: the answer with its body, read no further than the cap."""
    cap = limits.max_body_bytes
    streamed = await http.send(request, stream=True)
    try:
        declared = streamed.headers.get("Content-Length", "")
        encoded = streamed.headers.get("Content-Encoding", "identity") != "identity"
        # A length of more digits than any cap is refused before int() reads it.
        if not encoded and declared.isdigit() and (len(declared) > 18 or int(declared) > cap):
            raise body_too_large(cap, base_url(http))
        chunks: list[bytes] = []
        size = 0
        async for chunk in streamed.aiter_bytes():
            size += len(chunk)
            if size > cap:
                raise body_too_large(cap, base_url(http))
            chunks.append(chunk)
    finally:
        await streamed.aclose()
    return Answer(streamed, b"".join(chunks), limits)


def base_url(http: httpx.AsyncClient) -> str:
    return str(http.base_url).rstrip("/")


def transport_failure(
    exc: httpx.HTTPError, url: str, timeout: float
) -> ConnectionFailed | TimedOut:
    """What a transport error means to the user, and what to do about it."""
    if isinstance(exc, httpx.TimeoutException):
        return TimedOut(
            f"{url} did not answer within {timeout:g} s.",
            "Check the network, or raise the timeout (--timeout, INBOXDESK_TIMEOUT).",
        )
    reason = str(exc) or type(exc).__name__
    parsed = httpx.URL(url)
    host = parsed.host
    if _name_not_resolved(exc):
        return NameNotResolved(
            f"Cannot find the host {host}: the name does not resolve.",
            "Check the base URL or region for typos, then the network's DNS "
            "(a VPN or proxy may be needed: --proxy).",
        )
    if host in LOOPBACK:
        # On the port asked for: `serve` alone may pick another.
        port = f" --port {parsed.port}" if parsed.port else ""
        hint = f"Is the local service running? Start one: inboxdesk serve --demo{port}."
    else:
        hint = "Check the network (a proxy may be needed: --proxy) and the base URL."
    return ConnectionFailed(f"Cannot reach {url}: {reason}.", hint)


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
# What resolvers say when a name does not resolve, for errors that lost their gaierror.
_DNS_WORDS = (
    "name or service not known",
    "nodename nor servname",
    "temporary failure in name resolution",
    "no address associated with hostname",
    "getaddrinfo failed",
    "name resolution",
)


def _name_not_resolved(exc: BaseException) -> bool:
    """True when a connection failed because the host name did not resolve."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, socket.gaierror):
            return True
        if any(words in str(seen).lower() for words in _DNS_WORDS):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


# Without it a small POST waits for a delayed ACK between headers and body.
NO_DELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def tls_context(options: ClientOptions, base_url: str = "") -> ssl.SSLContext | bool:
    """Verification as configured: a CA bundle, a client certificate, or the defaults."""
    if options.verify is False:
        return False
    if isinstance(options.verify, str):
        context = ssl.create_default_context(cafile=options.verify)
    elif options.cert is not None:
        context = httpx.create_ssl_context()
    elif _plain_http(base_url) and (options.proxy is None or _plain_http(options.proxy)):
        # Nothing goes over TLS (a local service): the CA bundle is not loaded at
        # start-up. A context that trusts no one refuses any TLS peer, so nothing is
        # ever sent unverified.
        return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    else:
        return True
    if options.cert is not None:
        certfile, keyfile = (
            options.cert if isinstance(options.cert, tuple) else (options.cert, None)
        )
        context.load_cert_chain(certfile, keyfile)
    return context


def default_transport(options: ClientOptions, base_url: str = "") -> httpx.AsyncHTTPTransport:
    """The connection pool: TLS settings, proxy, and TCP_NODELAY on every socket."""
    return httpx.AsyncHTTPTransport(
        verify=tls_context(options, base_url), proxy=options.proxy, socket_options=NO_DELAY
    )


def _plain_http(url: str) -> bool:
    return url.lower().startswith("http://")
