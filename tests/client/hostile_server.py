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
