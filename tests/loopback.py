"""A production-shaped server on loopback: a plain function from request to response,
served over real HTTP, for what the local service cannot be (another deployment's
answers, generated bodies, failures). The client reaches it as it reaches any service.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

Handler = Callable[[httpx.Request], httpx.Response]


class Loopback:
    """One server for many handlers: `serving(handler)` swaps the function answering."""

    def __init__(self) -> None:
        self.handler: Handler = lambda request: httpx.Response(404)
        owner = self

        class Answer(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: without TCP_NODELAY the body waited
            # for the client's delayed ACK, 40 ms on every answer.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: object) -> None:
                pass  # quiet: the tests say what matters

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                request = httpx.Request(
                    self.command,
                    f"http://{self.headers.get('host', 'loopback')}{self.path}",
                    headers=list(self.headers.items()),
                    content=body,
                )
                response = owner.handler(request)
                content = response.read()
                self.send_response(response.status_code)
                for name, value in response.headers.items():
                    if name.lower() not in {"content-length", "transfer-encoding", "connection"}:
                        self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # Polled often, so that close() returns at once (the default waits up to 0.5 s).
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    @contextmanager
    def serving(self, handler: Handler) -> Iterator[str]:
        """Answer with `handler` inside the block; gives the server's base URL."""
        before, self.handler = self.handler, handler
        try:
            yield self.url
        finally:
            self.handler = before

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def loopback(handler: Handler) -> Iterator[str]:
    """A server of its own answering with `handler`, for one block; gives its base URL."""
    server = Loopback()
    try:
        with server.serving(handler) as url:
            yield url
    finally:
        server.close()
