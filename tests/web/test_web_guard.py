"""Only the page `--web` printed may use it: a real `inboxdesk tui --web` (run in this
process, tests/web/in_process.py), asked over real HTTP and a real websocket client as a
foreign page, another local user or a rebound name would ask. Each refusal is a 403 with
no byte of the page or the screen, starts no app and writes nothing (the local service's
messages stay unread).

Each test serves its own page (a start in this process costs a tenth of a CPU-second);
`demo --web` serves through the same server and guard (cli/web.py serve_web).

aiohttp (and the guard, built on it) is imported by the tests that use it: each worker
of the run collects this module, and only one serves its pages.
"""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from inboxdesk.server.fixtures import read_fixture
from tests.conftest import EXAMPLE, STAGING_KEY, Service
from tests.web.in_process import TIMEOUT, WebPage, apps, on_the_web

KEY = STAGING_KEY
# The subscriber whose messages the page must not change.
SUBSCRIBER = read_fixture(EXAMPLE)["environments"][0]["subscribers"][0]["subscriberId"]


@dataclass
class WebDemo:
    page: WebPage
    service: Service
    unread: int

    @property
    def base(self) -> str:
        return self.page.base

    @property
    def port(self) -> int:
        return self.page.port

    @property
    def token(self) -> str:
        return self.page.token

    @property
    def cookie(self) -> str:
        return self.page.cookie

    def unread_now(self) -> int:
        inbox = f"/v2/subscribers/{SUBSCRIBER}/notifications"
        with self.service.http(KEY) as http:
            items = http.get(inbox, params={"limit": 100}).json()
        return sum(not item["isRead"] for item in items["data"])


Check = Callable[[WebDemo], Coroutine[Any, Any, None] | None]


@pytest.fixture
def page_of(
    service: Service,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Callable[[Check], None]:
    """Runs `check` against the page of `tui --web` on the test's service, then stops it:
    it must stop with 0 and print no key."""
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("NOVU_SECRET_KEY", KEY)

    def served(check: Check) -> None:
        def during(page: WebPage) -> None:
            demo = WebDemo(page, service, 0)
            demo.unread = demo.unread_now()
            assert demo.unread > 0, "the inbox has unread messages to protect"
            ran = check(demo)
            if ran is not None:
                asyncio.run(ran)

        args = ["tui", "--base-url", service.url, "--subscriber", SUBSCRIBER]
        code, out, err = on_the_web(capsys, args, during)
        assert code == 0, err
        assert KEY not in out + err

    return served


def test_the_printed_address_carries_a_strong_token(page_of: Callable[[Check], None]) -> None:
    def strong(web_demo: WebDemo) -> None:
        # token_urlsafe(32): 256 random bits in 43 characters.
        assert len(web_demo.token) >= 43
        assert KEY not in web_demo.token

    page_of(strong)


async def trades_the_token_for_a_cookie(web_demo: WebDemo) -> None:
    """The printed address sets the cookie and sends the browser on without the token."""
    import aiohttp

    from inboxdesk.cli.web_guard import REFUSED

    async with aiohttp.ClientSession() as http:
        # Other parameters of the page's address are kept; the token goes.
        first = f"{web_demo.base}/?token={web_demo.token}&fontsize=18"
        async with http.get(first, allow_redirects=False) as answer:
            # A redirect of the page's own (not a 3xx): a browser sends a SameSite=Strict
            # cookie after it even when a link on another site opened the address.
            assert answer.status == 200
            assert '<meta http-equiv="refresh" content="0; url=/?fontsize=18">' in (
                await answer.text()
            )
            assert answer.headers["Cache-Control"] == "no-store"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
            cookie = answer.cookies[web_demo.cookie]
            assert cookie.value == web_demo.token
            assert cookie["httponly"] is True
            assert cookie["samesite"] == "Strict"
            assert cookie["path"] == "/"
        held = {"Cookie": f"{web_demo.cookie}={cookie.value}"}
        async with http.get(f"{web_demo.base}/", headers=held) as page:
            assert page.status == 200
            text = await page.text()
            assert f'data-session-websocket-url="ws://127.0.0.1:{web_demo.port}/ws"' in text
            assert KEY not in text and web_demo.token not in text
            # A loopback page asks no third-party host for anything (a font, once).
            assert "googleapis" not in text and "https://" not in text
        async with http.get(f"{web_demo.base}/static/js/textual.js", headers=held) as script:
            assert script.status == 200
        async with http.get(f"{web_demo.base}/static/js/textual.js") as script:
            assert script.status == 403
            assert await script.text() == REFUSED
        # Asked as localhost, the page sends its websocket there.
        local = {**held, "Host": f"localhost:{web_demo.port}"}
        async with http.get(f"{web_demo.base}/", headers=local) as page:
            assert f"ws://localhost:{web_demo.port}/ws" in await page.text()


def test_the_first_load_trades_the_token_for_a_cookie(page_of: Callable[[Check], None]) -> None:
    page_of(trades_the_token_for_a_cookie)


def asking(demo: WebDemo, case: str) -> dict[str, str]:
    """The headers of a request as `case` sends it (the run's cookie unless said)."""
    own = f"http://127.0.0.1:{demo.port}"
    held = f"{demo.cookie}={demo.token}"
    return {
        "foreign origin": {"Cookie": held, "Origin": "http://evil.example"},
        "another port's origin": {"Cookie": held, "Origin": "http://127.0.0.1:1"},
        "https origin": {"Cookie": held, "Origin": f"https://127.0.0.1:{demo.port}"},
        "no token": {"Origin": own},
        "wrong token": {"Cookie": f"{demo.cookie}={'A' * len(demo.token)}", "Origin": own},
        "a token one character short": {"Cookie": f"{demo.cookie}={demo.token[:-1]}"},
        "another port's cookie": {"Cookie": f"inboxdesk-web-1={demo.token}", "Origin": own},
        "non-ASCII token": {"Cookie": f"{demo.cookie}=\u00e9t\u00e9", "Origin": own},
        # DNS rebinding: the attacker's name now resolves to 127.0.0.1, and its page is
        # its own origin; it holds the token in this case, which it could not.
        "rebinding host": {
            "Cookie": held,
            "Host": f"evil.example:{demo.port}",
            "Origin": f"http://evil.example:{demo.port}",
        },
        "host on another port": {"Cookie": held, "Host": "127.0.0.1:1"},
        "host with user info": {"Cookie": held, "Host": f"evil@127.0.0.1:{demo.port}"},
    }[case]


PAGE_CASES = [
    "foreign origin",
    "no token",
    "wrong token",
    "a token one character short",
    "another port's cookie",
    "non-ASCII token",
    "rebinding host",
    "host on another port",
    "host with user info",
]
SOCKET_CASES = [*PAGE_CASES, "another port's origin", "https origin"]


async def refuse_strangers(web_demo: WebDemo) -> None:
    import aiohttp

    from inboxdesk.cli.web_guard import REFUSED

    async with aiohttp.ClientSession() as http:
        for case in PAGE_CASES:
            for path in ("/", "/static/js/textual.js", "/download/x"):
                headers = asking(web_demo, case)
                async with http.get(f"{web_demo.base}{path}", headers=headers) as answer:
                    assert (answer.status, await answer.text()) == (403, REFUSED), case
        # A token in the address of a rebound name is refused before it is traded.
        rebound = f"{web_demo.base}/?token={web_demo.token}"
        headers = {"Host": f"evil.example:{web_demo.port}"}
        async with http.get(rebound, headers=headers, allow_redirects=False) as answer:
            assert answer.status == 403
            assert "Set-Cookie" not in answer.headers


def test_the_page_and_its_files_refuse_strangers(page_of: Callable[[Check], None]) -> None:
    page_of(refuse_strangers)


async def socket_refuses_strangers(web_demo: WebDemo) -> None:
    import aiohttp

    started = apps()
    async with aiohttp.ClientSession() as http:
        for case in [*SOCKET_CASES, "no origin"]:
            headers = (
                {"Cookie": f"{web_demo.cookie}={web_demo.token}"}
                if case == "no origin"
                else asking(web_demo, case)
            )
            url = f"{web_demo.base}/ws?width=120&height=40"
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                async with http.ws_connect(url, headers=headers) as socket:
                    # Had it opened, this is what a hostile page would do: mark read.
                    for _ in range(3):
                        await socket.send_json(["stdin", "r"])
                    pytest.fail(f"{case}: the websocket opened")
            assert refused.value.status == 403, case
    # No app was started for any of them, and nothing was written.
    assert apps() <= started
    assert web_demo.unread_now() == web_demo.unread


def test_the_websocket_refuses_strangers(page_of: Callable[[Check], None]) -> None:
    page_of(socket_refuses_strangers)


# The page's own websocket, the token traded for the cookie and asked from the page's
# origin, gets the app's screen: tests/web/test_web_demo.py proves it of `tui --web`,
# and that the app ends with its socket; this module's pages start no app.


def test_the_names_a_page_answers_to() -> None:
    from inboxdesk.cli.web_guard import allowed_hosts, guard_for, host_and_port

    assert allowed_hosts("127.0.0.1") == {"127.0.0.1", "localhost"}
    assert allowed_hosts("::1") == {"::1", "127.0.0.1", "localhost"}
    # --host adds its own name, compared in lower case; IPv6 in its short form.
    assert "box.lan" in allowed_hosts("0.0.0.0", "Box.LAN")
    assert "::1" in allowed_hosts("0:0:0:0:0:0:0:1")
    guard = guard_for("127.0.0.1", 8000, ["127.0.0.1"])
    assert guard.host_allowed("LOCALHOST:8000") == ("localhost", 8000)
    for refused in (
        "127.0.0.1",  # port 80
        "127.0.0.1:8001",
        "[::1]:8000",  # not bound there
        "127.0.0.1.evil.example:8000",
        "evil.example:8000@127.0.0.1",
        "[127.0.0.1]:8000",
        "127.0.0.1:8000/x",
        "",
    ):
        assert guard.host_allowed(refused) is None, refused
    assert host_and_port("[::1]") == ("::1", 80)
    assert host_and_port("example:99999") is None
    assert not guard.holds_token(None)
    assert not guard.holds_token("\u00e9")
    assert guard.holds_token(guard.token)
    assert guard_for("127.0.0.1", 8000, []).token != guard.token


def raw_request(port: int, payload: bytes) -> bytes:
    """The first line of the answer to `payload`, sent as is over a socket."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
        connection.sendall(payload)
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


MALFORMED = [
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\x00\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # TLS on the plain port
    b"BLAH\r\n\r\n",
]


def test_an_absolute_form_request_line_is_refused_even_with_the_token(
    page_of: Callable[[Check], None],
) -> None:
    """The page would build its websocket's address from the request line's host."""

    def refused(web_demo: WebDemo) -> None:
        port, held = web_demo.port, f"{web_demo.cookie}={web_demo.token}"
        for target in (f"http://evil.example:{port}/", f"http://127.0.0.1:{port}/"):
            payload = (
                f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {held}\r\n\r\n"
            )
            assert b" 403 " in raw_request(port, payload.encode()), target
        for payload in MALFORMED:
            assert b" 400 " in raw_request(port, payload)

    page_of(refused)


def test_a_malformed_request_is_not_logged_and_an_error_is_one_line() -> None:
    from aiohttp.http_exceptions import BadHttpMessage

    from inboxdesk.cli.web import quiet_strangers

    def record(error: BaseException) -> logging.LogRecord:
        return logging.LogRecord(
            "aiohttp.server",
            logging.ERROR,
            __file__,
            1,
            "Error handling request from %s",
            ("127.0.0.1",),
            (type(error), error, None),
        )

    assert not quiet_strangers(record(BadHttpMessage("Invalid method encountered")))
    other = record(RuntimeError("boom"))
    assert quiet_strangers(other) and other.exc_info is None
    handler = logging.StreamHandler(io.StringIO())
    handler.handle(other)
    said = handler.stream.getvalue()
    assert said == "Error handling request from 127.0.0.1: RuntimeError\n"
