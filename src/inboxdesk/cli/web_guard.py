"""Who may use the page that `--web` serves: whoever holds this run's token, asking by a
name of this machine, from the page itself.

Each browser session runs the app with the API key, and the page shows all it shows and
takes keys. Binding loopback keeps other machines out, not other local users nor other
pages in the user's own browser: browsers let any page open a websocket anywhere, and a
page on a name that a DNS record later points at 127.0.0.1 counts as its own origin.
So every request must:

- name an allowed host, with the bound port, in `Host` (a rebound name is refused
  before textual-serve builds any URL from it), and no other in its request line (an
  absolute-form `GET http://other.example/` is refused);
- carry the run's token: in the URL the command printed, which the first load trades
  for an HttpOnly, SameSite=Strict cookie and a redirect to the same page without it,
  or in that cookie. The redirect is the page's own (a refresh), not a 3xx: after a 3xx
  from a link on another site, a browser withholds the Strict cookie;
- when it names an `Origin` (a websocket always does, from a browser), name the page's
  own: the same host and port over http. The websocket must name one.

Imported only when serving: the app's start-up never loads it.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from aiohttp import hdrs, web

TOKEN_PARAMETER = "token"
WEBSOCKET_PATH = "/ws"
# A host in `Host` or `Origin`: a bracketed IPv6 address or a plain name or IPv4
# address, then an optional port; anything else (user info, a path) is refused.
_HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?")
_ORIGIN = re.compile(r"(https?)://(.+)")
_DEFAULT_PORTS = {"http": 80, "https": 443}
LOOPBACK_NAMES = ("localhost", "127.0.0.1")
REFUSED = (
    "inboxdesk: refused: open the address that `inboxdesk ... --web` printed, with its "
    "token, by the name it shows.\n"
)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def canonical_host(name: str) -> str:
    """`name` as compared: lower case, an IP address in its short form, no brackets."""
    name = name.strip("[]").lower()
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name


def host_and_port(value: str, scheme: str = "http") -> tuple[str, int] | None:
    """The host and port a `Host` value names (the scheme's port when none is given),
    or None when it is not one."""
    match = _HOST_PORT.fullmatch(value)
    if match is None:
        return None
    host, port = match[1], match[2]
    if host.startswith("[") and not _is_ipv6(host[1:-1]):
        return None
    number = int(port) if port else _DEFAULT_PORTS[scheme]
    return (canonical_host(host), number) if 0 < number < 65536 else None


def _is_ipv6(text: str) -> bool:
    try:
        return isinstance(ipaddress.ip_address(text), ipaddress.IPv6Address)
    except ValueError:
        return False


def allowed_hosts(bound: str, *named: str) -> frozenset[str]:
    """The names the page answers to: the bound address, the loopback names, `::1` when
    bound on IPv6 loopback or every IPv6 address, and each of `named` (the `--host`
    given, the name the printed URL uses)."""
    hosts = {canonical_host(name) for name in (bound, *LOOPBACK_NAMES, *named) if name}
    if canonical_host(bound) in ("::1", "::"):
        hosts.add("::1")
    return frozenset(hosts)


@dataclass(frozen=True)
class Guard:
    """The run's token and the names and port the page answers to."""

    token: str
    port: int
    hosts: frozenset[str]

    @property
    def cookie(self) -> str:
        # Browsers share cookies between ports: one per port keeps two runs apart.
        return f"inboxdesk-web-{self.port}"

    def holds_token(self, offered: str | None) -> bool:
        if offered is None:
            return False
        return hmac.compare_digest(offered.encode(), self.token.encode())

    def host_allowed(self, value: str | None) -> tuple[str, int] | None:
        """The host and port `value` (a `Host` header) names, when the page answers to
        it; None otherwise."""
        named = host_and_port(value) if value else None
        if named is None or named[0] not in self.hosts or named[1] != self.port:
            return None
        return named

    @staticmethod
    def origin_matches(origin: str, own: tuple[str, int]) -> bool:
        """Whether `origin` (an `Origin` header) is the page's own: http, this host and
        port. The page is only served over plain http."""
        match = _ORIGIN.fullmatch(origin)
        if match is None or match[1] != "http":
            return False
        return host_and_port(match[2], match[1]) == own

    def refuses(self, request: web.Request) -> bool:
        own = self.host_allowed(request.headers.get(hdrs.HOST))
        if own is None:
            return True
        # An absolute-form request line (`GET http://other.example/ HTTP/1.1`) names its
        # own host, from which the page would build its websocket's address: refused.
        if not request.raw_path.startswith("/") or self.host_allowed(request.host) != own:
            return True
        origin = request.headers.get(hdrs.ORIGIN)
        websocket = request.path == WEBSOCKET_PATH or "websocket" in (
            request.headers.get(hdrs.UPGRADE, "").lower()
        )
        if (origin is None and websocket) or (
            origin is not None and not self.origin_matches(origin, own)
        ):
            return True
        return not (
            self.holds_token(request.cookies.get(self.cookie))
            or self.holds_token(request.query.get(TOKEN_PARAMETER))
        )

    def trade_token(self, request: web.Request) -> web.StreamResponse | None:
        """For a load of the page that carries the token in its URL: the cookie, and a
        redirect to the same address without the token."""
        if request.method != hdrs.METH_GET or request.path != "/":
            return None
        if TOKEN_PARAMETER not in request.query:
            return None
        kept = [(k, v) for k, v in request.query.items() if k != TOKEN_PARAMETER]
        location = html.escape(str(request.rel_url.with_query(kept)))
        page = f'<!DOCTYPE html><meta http-equiv="refresh" content="0; url={location}">\n'
        response = web.Response(
            text=page, content_type="text/html", headers={hdrs.CACHE_CONTROL: "no-store"}
        )
        response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
        return response

    def install(self, app: web.Application) -> None:
        """Refuse, on every route of `app`, what `refuses` refuses (403 with a plain
        sentence: none of the page), before any handler runs."""

        @web.middleware
        async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
            if self.refuses(request):
                return web.Response(status=403, text=REFUSED, headers=_QUIET)
            traded = self.trade_token(request)
            return traded if traded is not None else await handler(request)

        async def quiet(request: web.Request, response: web.StreamResponse) -> None:
            for name, value in _QUIET.items():
                response.headers.setdefault(name, value)

        app.middlewares.append(guard)
        app.on_response_prepare.append(quiet)


# On every answer: no Referer leaves the page (its first address held the token), no
# other site frames it, and no text is read as another type.
_QUIET = {
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}


def guard_for(bound: str, port: int, named: Iterable[str]) -> Guard:
    """A new token, and the names the page bound at `bound`:`port` answers to."""
    return Guard(new_token(), port, allowed_hosts(bound, *named))
