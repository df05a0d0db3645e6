"""A hostile HTTP server on loopback: answers that flood, drip, nest or never end.

A real socket, so the client's own reading (streaming, chunked bodies, its deadline) is
what is tested; each request gets whatever `answer` makes of it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Reply:
    """One answer: a whole body, or chunks (sent chunked, `drip` seconds apart)."""

    status: int = 200
    body: bytes | Iterable[bytes] = b"{}"
    headers: dict[str, str] = field(default_factory=dict)
    drip: float = 0.0


@dataclass(frozen=True)
class Seen:
    method: str
    path: str  # the raw path, as sent
    query: str


Answer = Callable[[Seen], Reply]


def json_reply(value: Any, status: int = 200) -> Reply:
    return Reply(status, json.dumps(value).encode(), {"Content-Type": "application/json"})


def repeated(chunk: bytes, times: int) -> Iterator[bytes]:
    """`chunk` `times` times: far more than any limit a test sets, yet finite, so that a
    client without the limit reads it all and fails its test rather than hang it."""
    for _ in range(times):
        yield chunk


class HostileServer:
    """`with HostileServer(answer) as server:` serves on `server.url` until the block ends."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.seen: list[Seen] = []
        # Answers whose whole body was written: one the client stopped reading is not.
        self.finished = 0
        self.stopping = threading.Event()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._http.daemon_threads = True
        # Polled often: shutting down waits for the next poll (half a second by default).
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def paths(self, prefix: str = "") -> list[str]:
        return [s.path for s in self.seen if s.path.startswith(prefix)]

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._http.shutdown()
        self._http.server_close()


def _handler(server: HostileServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go in two writes: without it the body waits for a delayed ACK.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            target = urlsplit(self.path)
            seen = Seen(self.command, target.path, target.query)
            server.seen.append(seen)
            reply = server.answer(seen)
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            try:
                if isinstance(reply.body, bytes):
                    if "Content-Length" not in reply.headers:
                        self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                    server.finished += 1
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in reply.body:
                    if server.stopping.wait(reply.drip):
                        return
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
                server.finished += 1
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client stopped reading: as it should

        do_GET = do_POST = _serve

    return Handler


# -- servers that never end a listing ------------------------------------------------------


def inbox_item(n: int) -> dict[str, Any]:
    return {"id": f"n{n:05d}", "body": f"message {n}", "isRead": False, "isSeen": False}


def feed_item(n: int) -> dict[str, Any]:
    return {
        "_id": f"m{n:05d}",
        "_environmentId": "env",
        "_organizationId": "org",
        "_notificationId": "notification",
        "_subscriberId": "internal",
        "createdAt": "2026-11-20T10:00:00.000Z",
        "transactionId": f"tx{n}",
        "channel": "in_app",
        "read": False,
        "seen": False,
        "cta": {},
        "status": "sent",
        "content": f"message {n}",
    }


def subscriber_item(n: int) -> dict[str, Any]:
    return {
        "subscriberId": f"s{n:05d}",
        "_organizationId": "org",
        "_environmentId": "env",
        "deleted": False,
        "createdAt": "2026-11-20T10:00:00.000Z",
        "updatedAt": "2026-11-20T10:00:00.000Z",
    }


def looping(kind: str, v2_inbox: bool = True) -> Answer:
    """A service whose listings say "more" forever: `same` answers one page again and
    again (its cursor repeats), `shuffled` the same ids in turn reversed (a page with
    no new id), `cursor` new cursors over the same subscribers."""
    calls = {"count": 0}

    def page(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        calls["count"] += 1
        return items[::-1] if kind == "shuffled" and calls["count"] % 2 == 0 else items

    def answer(seen: Seen) -> Reply:
        if seen.path.endswith("/notifications") and seen.path.startswith("/v2/"):
            if not v2_inbox:
                return json_reply({"statusCode": 404, "message": "Cannot GET"}, 404)
            return json_reply({"data": page([inbox_item(1), inbox_item(2)]), "hasMore": True})
        if not v2_inbox and seen.path.startswith("/v2/subscribers/"):
            # The subscriber is there: the 404 above is the older service's missing route.
            return json_reply({"data": subscriber_item(1)})
        if seen.path.endswith("/notifications/feed"):
            items = page([feed_item(1), feed_item(2)])
            return json_reply({"data": items, "page": 0, "pageSize": 2, "hasMore": True})
        if seen.path == "/v1/messages":
            items = page([feed_item(1), feed_item(2)])
            return json_reply({"data": items, "page": 0, "pageSize": 2, "hasMore": True})
        if seen.path == "/v2/subscribers":
            cursor = f"c{calls['count']}" if kind == "cursor" else "again"
            return json_reply({"data": page([subscriber_item(1)]), "next": cursor})
        return json_reply({"statusCode": 404, "message": "Not here"}, 404)

    return answer


def held_after_first(path_end: str, release: threading.Event) -> Answer:
    """An inbox of two pages whose second waits for `release`: what arrives first shows."""

    def answer(seen: Seen) -> Reply:
        if not seen.path.endswith(path_end):
            return json_reply({"statusCode": 404, "message": "Not here"}, 404)
        if "after=" not in seen.query:
            return json_reply({"data": [inbox_item(1), inbox_item(2)], "hasMore": True})
        release.wait(30)
        return json_reply({"data": [inbox_item(3)], "hasMore": False})

    return answer


def routed(routes: dict[tuple[str, str], Reply]) -> Answer:
    """Fixed answers by method and path; anything else a 404."""

    def answer(seen: Seen) -> Reply:
        return routes.get(
            (seen.method, seen.path), json_reply({"statusCode": 404, "message": "Not here"}, 404)
        )

    return answer


def environment(env_id: str, name: str) -> dict[str, Any]:
    return {"_id": env_id, "name": name, "_organizationId": "org", "identifier": name.lower()}


def integration(item_id: str, env_id: str, primary: bool) -> dict[str, Any]:
    return {
        "_id": item_id,
        "_environmentId": env_id,
        "_organizationId": "org",
        "name": f"Mail {item_id}",
        "identifier": item_id,
        "providerId": "sendgrid",
        "channel": "email",
        "active": True,
        "deleted": False,
        "primary": primary,
        "credentials": {},
    }


def switched_elsewhere(answered_id: str, answered_env: str) -> Answer:
    """An organization of two email integrations whose set-primary answers naming
    another integration or environment than the one asked for."""
    listed = [integration("i-a", "e1", False), integration("i-b", "e1", True)]
    return routed(
        {
            ("GET", "/v1/integrations"): json_reply({"data": listed}),
            ("GET", "/v1/environments"): json_reply({"data": [environment("e1", "Dev")]}),
            ("GET", "/v1/environments/me"): json_reply({"data": environment("e1", "Dev")}),
            ("POST", "/v1/integrations/i-a/set-primary"): json_reply(
                {"data": integration(answered_id, answered_env, True)}
            ),
        }
    )


# What a service may answer to any request: each must make a command exit 1.
API_FAULTS: dict[str, Reply] = {
    "rejected key": json_reply({"statusCode": 401, "message": "Unauthorized"}, 401),
    "redirect": Reply(302, b"", {"Location": "https://elsewhere.example/v1/environments"}),
    "server error": json_reply({"statusCode": 500, "message": "boom"}, 500),
    "not found": json_reply({"statusCode": 404, "message": "Cannot GET"}, 404),
}


def counting(unread: Any, unseen: Any) -> Answer:
    """A v2 count endpoint that answers these two counts as they are."""
    body = {"data": [{"count": unread, "filter": {}}, {"count": unseen, "filter": {}}]}
    return routed({("GET", "/v2/subscribers/jane/notifications/count"): json_reply(body)})


# -- the activity feed, as a hostile service pages it (the fourth hostile pass) ----------


def activity_item(n: int, **extra: Any) -> dict[str, Any]:
    """One notification of the feed, with no jobs unless given."""
    return {
        "_id": f"66b00000000000000000{n:04d}",
        "transactionId": f"t{n}",
        "createdAt": "2026-11-20T10:00:00.000Z",
        "channels": ["email"],
        "jobs": [],
        **extra,
    }


def _page_of(seen: Seen) -> int:
    for part in seen.query.split("&"):
        name, _, value = part.partition("=")
        if name == "page":
            return int(value)
    return 0


def activity_feed(kind: str) -> Answer:
    """`flood`: 20,000 notifications on a page, whatever was asked. `doubled`: a page
    naming one twice, and one whose jobs are not a list. `moving`: three pages, the
    second repeating the last of the first (the feed moved between two reads).
    `cycle`: pages 0, 1, 2 then 0, 1, 2 again, each saying "more", for ever."""
    failed = [{"status": "failed", "type": "email", "executionDetails": []}]
    pages = [[activity_item(p * 50 + n, jobs=failed) for n in range(50)] for p in range(3)]
    moved = [pages[0], [pages[0][-1], *pages[1][:49]], pages[2][:10]]
    flood = [activity_item(n) for n in range(20_000)]
    doubled = [
        activity_item(1),
        activity_item(2),
        activity_item(1),
        {**activity_item(3), "jobs": "not a list"},
        activity_item(4),
    ]

    def answer(seen: Seen) -> Reply:
        page = _page_of(seen)
        data, more = {
            "flood": (flood, False),
            "doubled": (doubled, False),
            "moving": (moved[min(page, 2)], page < 2),
            "cycle": (pages[page % 3], True),
        }[kind]
        return json_reply({"data": data, "page": page, "pageSize": 50, "hasMore": more})

    return answer
