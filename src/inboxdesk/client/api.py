"""The async API client: one connection pool, typed methods, retries, honest errors."""

from __future__ import annotations

import asyncio
import functools
import json
import socket
import ssl
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from inboxdesk import __version__
from inboxdesk.client.errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionFailed,
    InboxdeskError,
    NameNotResolved,
    NotFoundError,
    ProtocolError,
    RateLimitedError,
    ServerError,
    TimedOut,
    ValidationError,
    phrase,
)
from inboxdesk.client.retry import RETRY_STATUSES, RetryPolicy, retry_after
from inboxdesk.models import (
    COUNT_CAP,
    MAX_MARK_IDS,
    Channel,
    Count,
    CursorPage,
    Data,
    Environment,
    ErrorBody,
    FeedItem,
    Integration,
    MarkAllRequest,
    MarkAs,
    MarkAsRequest,
    Message,
    NotificationCount,
    NotificationCounts,
    Page,
    Subscriber,
)
from inboxdesk.models.secrets import mask_secret
from inboxdesk.text import safe

USER_AGENT = f"inboxdesk/{__version__} httpx/{httpx.__version__}"
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class MarkResult:
    """What a mark-as did: the updated messages and the requested ids it left alone."""

    # Every message the service returned: another subscriber's come back unchanged.
    messages: list[Message]
    requested: list[str]
    not_updated: list[str] = field(default_factory=list)

    @property
    def updated(self) -> list[Message]:
        """The returned messages that are the subscriber's, so were changed."""
        left = set(self.not_updated)
        return [m for m in self.messages if m.id not in left]


@dataclass(frozen=True)
class ClientOptions:
    """Transport settings; every one has a sensible default."""

    timeout: float = 10.0
    verify: bool | str = True
    cert: str | tuple[str, str] | None = None
    proxy: str | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)


class InboxClient:
    """Async client of the service's API; use as `async with InboxClient(...) as client`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        options: ClientOptions | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.options = options or ClientOptions()
        self.base_url = base_url.rstrip("/")
        self._key_hint = mask_secret(api_key)
        # Whether the service has the v2 endpoints; None until one answers.
        self._subscribers_v2: bool | None = None
        self._counts_v2: bool | None = None
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers={
                "Authorization": f"ApiKey {api_key}",
                "User-Agent": USER_AGENT,
                "Accept": "application/json",
            },
            timeout=self.options.timeout,
            transport=transport or default_transport(self.options, self.base_url),
        )

    def __repr__(self) -> str:
        return f"InboxClient(base_url={self.base_url!r}, api_key={self._key_hint!r})"

    async def __aenter__(self) -> InboxClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # -- the operations ----------------------------------------------------------------

    async def set_primary(self, integration_id: str) -> Integration:
        body = await self._request(
            "POST", f"/v1/integrations/{_segment(integration_id)}/set-primary"
        )
        return _parse(Integration, _unwrap(body))

    async def mark_as(
        self,
        subscriber_id: str,
        message_ids: str | Sequence[str],
        mark_as: MarkAs | str,
        idempotency_key: str | None = None,
    ) -> MarkResult:
        """Mark one or many messages; more than 1,000 ids go in several requests.

        With `idempotency_key`, a call repeated later (e.g. after an outage) is applied
        once: each request of it sends that key (with `.N` for the Nth chunk after the first).
        """
        requested = [message_ids] if isinstance(message_ids, str) else list(message_ids)
        if not requested:
            return MarkResult([], [])
        state = MarkAs(mark_as)
        messages: list[Message] = []
        path = f"/v1/subscribers/{_segment(subscriber_id)}/messages/mark-as"
        for start in range(0, len(requested), MAX_MARK_IDS):
            chunk = requested[start : start + MAX_MARK_IDS]
            # Serialised, not validated, here: the service says what is wrong with an id.
            payload = MarkAsRequest.model_construct(
                message_id=chunk[0] if isinstance(message_ids, str) else chunk, mark_as=state
            ).to_wire()
            key = idempotency_key
            if key is not None and start:
                key = f"{key}.{start // MAX_MARK_IDS}"
            response = await self._send("POST", path, json_body=payload, idempotency_key=key)
            messages += _items_of(Message, response)
        owner = await self._internal_id(subscriber_id, messages)
        # The service answers every requested id it knows, another subscriber's unchanged.
        updated = {m.id for m in messages if owner is None or m.subscriber_internal_id == owner}
        missing = [i for i in dict.fromkeys(requested) if i not in updated]
        return MarkResult(messages, requested, missing)

    async def _internal_id(self, subscriber_id: str, messages: Sequence[Message]) -> str | None:
        """The subscriber's `_id`: from a returned message that embeds it, else looked up.

        None when it cannot be known; the marks are applied by then, so a failed lookup
        must not turn them into an error.
        """
        if not messages:
            return None
        for message in messages:
            embedded = message.subscriber
            if embedded is not None and embedded.subscriber_id == subscriber_id and embedded.id:
                return embedded.id
        try:
            return (await self.get_subscriber(subscriber_id)).id
        except InboxdeskError:
            return None

    async def mark_all(self, subscriber_id: str, mark_as: MarkAs | str) -> int:
        body = await self._request(
            "POST",
            f"/v1/subscribers/{_segment(subscriber_id)}/messages/mark-all",
            json_body=MarkAllRequest(mark_as=MarkAs(mark_as)).to_wire(),
        )
        return _whole(_unwrap(body), "mark-all")

    # -- listings ----------------------------------------------------------------------

    async def list_integrations(self, active_only: bool = False) -> list[Integration]:
        path = "/v1/integrations/active" if active_only else "/v1/integrations"
        return _items_of(Integration, await self._send("GET", path))

    async def list_environments(self) -> list[Environment]:
        """The organization's environments (`GET /v1/environments`), never their keys."""
        return _items_of(Environment, await self._send("GET", "/v1/environments"))

    async def own_environment(self) -> Environment | None:
        """The key's own environment (`GET /v1/environments/me`); None where not served."""
        try:
            body = await self._request("GET", "/v1/environments/me")
        except NotFoundError:
            return None
        return _parse(Environment, _unwrap(body))

    async def search_subscribers(
        self,
        *,
        email: str | None = None,
        name: str | None = None,
        phone: str | None = None,
        subscriber_id: str | None = None,
        limit: int = 10,
        after: str | None = None,
    ) -> CursorPage[Subscriber]:
        """Subscribers matching every filter given, `limit` at a time (`after`: next page).

        Uses `GET /v2/subscribers`; a service without it (404) is searched through the
        v1 listing, filtered here, with the v1 page number as the cursor.
        """
        search = {"email": email, "name": name, "phone": phone, "subscriberId": subscriber_id}
        wanted = {k: v for k, v in search.items() if v}
        if self._subscribers_v2 is not False:
            params: dict[str, Any] = {**wanted, "limit": limit}
            if after:
                params["after"] = after
            try:
                response = await self._send("GET", "/v2/subscribers", params=params)
            except NotFoundError:
                self._subscribers_v2 = False
            else:
                self._subscribers_v2 = True
                return _cursor_page_of(Subscriber, response)
        page = int(after) if after and after.isdigit() else 0
        result = await self.list_subscribers(page, limit)
        found = [s for s in result.data if _matches(s, wanted)]
        following = str(page + 1) if result.has_more and result.data else None
        return _cursor_page_type(Subscriber)(data=found, next=following, previous=None)  # type: ignore[return-value]

    async def list_subscribers(self, page: int = 0, limit: int = 10) -> Page[Subscriber]:
        """One page of `GET /v1/subscribers`, which only older deployments serve."""
        params = {"page": page, "limit": limit}
        return _page_of(Subscriber, await self._send("GET", "/v1/subscribers", params=params))

    async def get_subscriber(self, subscriber_id: str) -> Subscriber:
        """`GET /v2/subscribers/{id}`, or v1 on a service that has no v2 (404 on both: unknown)."""
        segment = _segment(subscriber_id)
        if self._subscribers_v2 is not False:
            try:
                body = await self._request("GET", f"/v2/subscribers/{segment}")
            except NotFoundError as missing:
                try:
                    body = await self._request("GET", f"/v1/subscribers/{segment}")
                except NotFoundError:
                    # Unknown on both: v1's answer names the subscriber when v2 is the
                    # one missing ("Cannot GET ..." is the framework's unknown route).
                    if _no_route(missing):
                        self._subscribers_v2 = False
                        raise
                    raise missing from None
                self._subscribers_v2 = False
            return _parse(Subscriber, _unwrap(body))
        body = await self._request("GET", f"/v1/subscribers/{segment}")
        return _parse(Subscriber, _unwrap(body))

    async def feed(
        self,
        subscriber_id: str,
        page: int = 0,
        limit: int = 10,
        read: bool | None = None,
        seen: bool | None = None,
    ) -> Page[FeedItem]:
        params: dict[str, Any] = {"page": page, "limit": limit}
        if read is not None:
            params["read"] = str(read).lower()
        if seen is not None:
            params["seen"] = str(seen).lower()
        response = await self._send(
            "GET", f"/v1/subscribers/{_segment(subscriber_id)}/notifications/feed", params=params
        )
        return _page_of(FeedItem, response)

    async def iter_feed(
        self,
        subscriber_id: str,
        limit: int = 100,
        read: bool | None = None,
        seen: bool | None = None,
    ) -> AsyncIterator[FeedItem]:
        """Every item of the feed, following pages to the end."""
        page = 0
        while True:
            result = await self.feed(subscriber_id, page, limit, read, seen)
            for message in result.data:
                yield message
            if not result.has_more or not result.data:
                return
            page += 1

    async def unseen_count(
        self, subscriber_id: str, seen: bool = False, limit: int = COUNT_CAP
    ) -> int:
        """`GET /v1/.../notifications/unseen`: counts at most `limit` (100 at most)."""
        body = await self._request(
            "GET",
            f"/v1/subscribers/{_segment(subscriber_id)}/notifications/unseen",
            params={"seen": str(seen).lower(), "limit": limit},
        )
        data = _unwrap(body)
        if not isinstance(data, dict):
            raise ProtocolError(f"unseen count answered {data!r} where {{count}} was expected.")
        return _whole(data.get("count"), "the unseen count")

    async def notification_counts(self, subscriber_id: str) -> NotificationCounts:
        """Unread and unseen in-app notifications, each marked capped past production's cap.

        Uses `GET /v2/subscribers/{id}/notifications/count`; a service without it (404)
        answers through v1: the unseen count, and the unread feed's first page.
        """
        segment = _segment(subscriber_id)
        if self._counts_v2 is not False:
            filters = [{"read": False}, {"seen": False}]
            try:
                response = await self._send(
                    "GET",
                    f"/v2/subscribers/{segment}/notifications/count",
                    params={"filters": json.dumps(filters, separators=(",", ":"))},
                )
            except NotFoundError:
                self._counts_v2 = False
            else:
                self._counts_v2 = True
                counts = _items_of(NotificationCount, response)
                if len(counts) != len(filters):
                    raise ProtocolError(
                        f"The count endpoint answered {len(counts)} counts for 2 filters."
                    )
                return NotificationCounts(Count.of(counts[0].count), Count.of(counts[1].count))
        unseen, unread = await asyncio.gather(
            self.unseen_count(subscriber_id),
            self.feed(subscriber_id, 0, COUNT_CAP, read=False),
        )
        # The feed's totalCount stops at the page size; hasMore says there are more.
        total = unread.total_count if unread.total_count is not None else len(unread.data)
        return NotificationCounts(
            Count(min(total, COUNT_CAP), unread.has_more or total >= COUNT_CAP),
            Count.of(unseen),
        )

    async def list_messages(
        self,
        page: int = 0,
        limit: int = 10,
        channel: Channel | str | None = None,
        subscriber_id: str | None = None,
        transaction_ids: Sequence[str] = (),
    ) -> Page[Message]:
        params: list[tuple[str, str | int]] = [("page", page), ("limit", limit)]
        if channel is not None:
            params.append(("channel", str(channel)))
        if subscriber_id is not None:
            params.append(("subscriberId", subscriber_id))
        params += [("transactionId", t) for t in transaction_ids]
        return _page_of(Message, await self._send("GET", "/v1/messages", params=params))

    # -- the transport -----------------------------------------------------------------

    async def _request(
        self,
        method: str,
        path: str,
        params: Any = None,
        json_body: Any = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Send with retries; the parsed JSON body of a 2xx, or the matching ApiError."""
        return _json(await self._send(method, path, params, json_body, idempotency_key))

    async def _send(
        self,
        method: str,
        path: str,
        params: Any = None,
        json_body: Any = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        """Send with retries; the 2xx response, or the matching ApiError raised."""
        headers = {}
        if method == "POST":
            # One key for every try of this call: a retried write is applied once.
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        policy = self.options.retry
        started = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            wait: float | None = None
            try:
                response = await self._http.request(
                    method, path, params=params, json=json_body, headers=headers
                )
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                failure = self._transport_failure(exc)
                # A name that does not resolve is a typo or no network: waiting won't help.
                if attempt >= policy.attempts or isinstance(failure, NameNotResolved):
                    raise failure from None
                wait = policy.backoff(attempt)
                if time.monotonic() - started + wait > policy.deadline:
                    raise failure from None
                await asyncio.sleep(wait)
                continue
            if response.is_success:
                return response
            if response.status_code in RETRY_STATUSES and attempt < policy.attempts:
                asked = retry_after(response.headers.get("Retry-After"))
                wait = asked if asked is not None else policy.backoff(attempt)
                if time.monotonic() - started + wait <= policy.deadline:
                    await asyncio.sleep(wait)
                    continue
            raise _api_error(response)

    def _transport_failure(self, exc: httpx.HTTPError) -> ConnectionFailed | TimedOut:
        if isinstance(exc, httpx.TimeoutException):
            return TimedOut(
                f"{self.base_url} did not answer within {self.options.timeout:g} s.",
                "Check the network, or raise the timeout (--timeout, INBOXDESK_TIMEOUT).",
            )
        reason = str(exc) or type(exc).__name__
        host = httpx.URL(self.base_url).host
        if _name_not_resolved(exc):
            return NameNotResolved(
                f"Cannot find the host {host}: the name does not resolve.",
                "Check the base URL or region for typos, then the network's DNS "
                "(a VPN or proxy may be needed: --proxy).",
            )
        if host in LOOPBACK:
            hint = "Is the local service running? Start one: inboxdesk serve --demo."
        else:
            hint = "Check the network (a proxy may be needed: --proxy) and the base URL."
        return ConnectionFailed(f"Cannot reach {self.base_url}: {reason}.", hint)


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


# Without it a small POST waits for a delayed ACK between headers and body: 40 ms.
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
        # Nothing goes over TLS (a local service): the CA bundle is not loaded (26 ms
        # and a MiB at start-up). A context that trusts no one refuses any TLS peer, so
        # nothing is ever sent unverified.
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


def _segment(value: str) -> str:
    """A path segment, percent-encoded so that an id can never change the path."""
    return quote(value, safe="")


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ProtocolError(
            f"The service answered {response.status_code} to {response.request.method} "
            f"{response.request.url.path} with a body that is not JSON.",
            "The request may have been applied: refresh before trying again.",
        ) from None


def _unwrap(body: Any) -> Any:
    """The payload of `{"data": ...}`, or the body itself when it came bare."""
    if isinstance(body, dict) and set(body) == {"data"}:
        return body["data"]
    return body


def _parse(model: type[M], data: Any) -> M:
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        raise ProtocolError(
            f"The service sent a {model.__name__} this client cannot read: {_first_problem(exc)}.",
            "Is the base URL right? A newer service may need a newer inboxdesk.",
        ) from None


def _items_of(model: type[M], response: httpx.Response) -> list[M]:
    """A list of `model` objects, `{"data": [...]}` or bare, validated from the bytes.

    pydantic reads the JSON straight into models: a third of the time of parsing it into
    dicts first and validating those (2 ms rather than 6 for 100 full messages).
    """
    if _first_byte(response) != b"[":
        return _from_json(_wrapped_list(model), response, model.__name__).data  # type: ignore[no-any-return]
    return _from_json(_list_of(model), response, model.__name__)  # type: ignore[no-any-return]


def _page_of(model: type[M], response: httpx.Response) -> Page[M]:
    """A page of `model` objects validated from the bytes; a bare list is one whole page."""
    if _first_byte(response) == b"[":
        items = _items_of(model, response)
        whole = {"data": items, "page": 0, "pageSize": len(items), "hasMore": False}
        return _page_type(model).model_validate(whole)  # type: ignore[return-value]
    return _from_json(_page_type(model), response, "page")  # type: ignore[no-any-return]


def _cursor_page_of(model: type[M], response: httpx.Response) -> CursorPage[M]:
    return _from_json(_cursor_page_type(model), response, "page")  # type: ignore[no-any-return]


def _first_byte(response: httpx.Response) -> bytes:
    return response.content.lstrip()[:1]


# pydantic keeps a parametrized generic (Page[FeedItem]) only weakly: once collected
# it is built again, 2 to 8 ms a time. These hold each one for the process's life.
@functools.cache
def _list_of(model: type[BaseModel]) -> TypeAdapter[Any]:
    return TypeAdapter(list[model])  # type: ignore[valid-type]


@functools.cache
def _wrapped_list(model: type[BaseModel]) -> type[BaseModel]:
    return Data[list[model]]  # type: ignore[valid-type]


@functools.cache
def _page_type(model: type[BaseModel]) -> type[BaseModel]:
    return Page[model]  # type: ignore[valid-type]


@functools.cache
def _cursor_page_type(model: type[BaseModel]) -> type[BaseModel]:
    return CursorPage[model]  # type: ignore[valid-type]


def _from_json(kind: Any, response: httpx.Response, what: str) -> Any:
    """`kind` validated from the response's JSON; any problem is a ProtocolError.

    JSON that pydantic's parser refuses but Python's reads (a byte-order mark, UTF-16)
    is validated as Python's parsed it; a body that is not JSON says so.
    """
    adapter = isinstance(kind, TypeAdapter)
    try:
        try:
            return (
                kind.validate_json(response.content)
                if adapter
                else kind.model_validate_json(response.content)
            )
        except PydanticValidationError as exc:
            if exc.errors()[0]["type"] != "json_invalid":
                raise
        body = _json(response)
        return kind.validate_python(body) if adapter else kind.model_validate(body)
    except PydanticValidationError as exc:
        raise ProtocolError(
            f"The service sent a {what} this client cannot read: {_first_problem(exc)}.",
            "Is the base URL right? A newer service may need a newer inboxdesk.",
        ) from None


def _no_route(error: NotFoundError) -> bool:
    """True for the framework's 404 of a path it has no route for, not a missing resource."""
    return error.message.startswith("Cannot ")


def _whole(value: Any, what: str) -> int:
    """A count from the wire: the document types counts as numbers, so 2.0 reads as 2."""
    whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not whole:
        raise ProtocolError(f"{what} answered {value!r} where a whole number was expected.")
    return int(value)


def _matches(subscriber: Subscriber, wanted: dict[str, str]) -> bool:
    """The v1 fallback's search: each filter a case-insensitive part of its field."""
    fields = {
        "email": subscriber.email or "",
        "phone": subscriber.phone or "",
        "subscriberId": subscriber.subscriber_id,
        "name": " ".join(p for p in (subscriber.first_name, subscriber.last_name) if p),
    }
    return all(v.casefold() in fields[k].casefold() for k, v in wanted.items())


def _first_problem(exc: PydanticValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return safe(f"{where}: {first['msg']}", newlines=False)


def _api_error(response: httpx.Response) -> ApiError:
    """The ApiError subclass for an error response, with a message and what to do next."""
    status = response.status_code
    path = response.request.url.path
    body: ErrorBody | None = None
    try:
        body = ErrorBody.model_validate(response.json())
    except (ValueError, PydanticValidationError):
        body = None
    raw = body.message if body else None
    # Error text is wire text too: made safe here once for every view that shows it.
    listed = raw if isinstance(raw, list) else [raw]
    messages = [safe(m, newlines=False) for m in listed if m is not None and m != ""]
    message = "; ".join(messages) or f"{status} {phrase(status)}"
    if status in (401, 403):
        return AuthenticationError(
            status,
            f"The service rejected the API key: {message}.",
            hint="Check the key (inboxdesk config show) or set NOVU_SECRET_KEY, "
            "and that it belongs to this service and region.",
            body=body,
            path=path,
        )
    if status == 404:
        return NotFoundError(
            status,
            _sentence(message),
            hint="Check the id, and that the key belongs to the environment that holds it.",
            body=body,
            path=path,
        )
    if status == 422 or (status == 400 and isinstance(raw, list)):
        fields = _fields(body, messages)
        if not fields:
            return ValidationError(
                status, _sentence(message), {}, hint="Fix the request.", body=body, path=path
            )
        detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        return ValidationError(
            status,
            f"The service refused the request: {detail}.",
            fields,
            hint="Fix the values named and try again.",
            body=body,
            path=path,
        )
    if status == 429:
        wait = retry_after(response.headers.get("Retry-After")) or 1.0
        return RateLimitedError(
            status,
            f"Rate limited by the service ({message}).",
            wait,
            hint=f"Wait {wait:g} s and try again.",
            body=body,
            path=path,
        )
    if status == 409:
        return ConflictError(
            status,
            _sentence(message),
            hint="Another try of this request is still running; "
            "refresh in a moment to see its effect.",
            body=body,
            path=path,
        )
    if status >= 500:
        error_id = safe(body.error_id, newlines=False) if body and body.error_id else None
        # Production's support asks for the errorId: it names the failure in their logs.
        reference = f" (errorId {error_id})" if error_id else ""
        return ServerError(
            status,
            f"The service failed: {message}{reference}.",
            hint="Try again shortly; if it persists, check the service's status, "
            "or contact its support" + (" with the errorId." if error_id else "."),
            body=body,
            path=path,
        )
    return BadRequestError(status, _sentence(message), body=body, path=path)


def _sentence(text: str) -> str:
    """The text ending in one full stop (production's own messages sometimes end in one)."""
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _fields(body: ErrorBody | None, messages: Sequence[str]) -> dict[str, list[str]]:
    if body is not None and body.errors:
        return {
            safe(k, newlines=False): [safe(m, newlines=False) for m in v.messages]
            for k, v in body.errors.items()
        }
    fields: dict[str, list[str]] = {}
    for text in messages:  # older services: "markAs must be one of ..."
        name = text.split(" ", 1)[0]
        fields.setdefault(name, []).append(text)
    return fields
