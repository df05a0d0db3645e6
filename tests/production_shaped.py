"""A production-shaped server on loopback: the local service behind a proxy that answers
as production does where the local service does not.

- `GET /v1/environments` and `/me` gain every environment's secret `apiKeys`, as
  production's per-organization flag and older deployments give them to any API key
  (`every_key`); without it, the local service's own answer passes: the key's own
  environment's keys, `[]` for the others, as production sends by default.
- A set-primary that succeeds answers 201, as production's code still does.

The rest passes through unchanged.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from tests.client.faults import LOOPBACK_TLS

# Key material that must never leave the client: each appears in every answer above.
# Their ends are not hex: a leak check looks for each end too, and an environment's random
# hex identifier once held "b1a0".
SECRET_KEYS = ("sk_live_9f8e7d6c5b4a39281706f5e4d3c2wxyz", "0f1e2d3c4b5a69788796a5b4c3d2qrsu")
SECRET_HASH = "hash-of-a-secret-key-5b4a39281706"


def _with_keys(environment: dict[str, Any]) -> dict[str, Any]:
    keys = [{"key": key, "_userId": "65c000000000000000000001"} for key in SECRET_KEYS]
    keys[0]["hash"] = SECRET_HASH
    return {**environment, "apiKeys": keys}


@contextmanager
def production_shaped(upstream: str, every_key: bool = True) -> Iterator[str]:
    """A loopback URL that answers as production would, in front of `upstream`."""
    forward = httpx.Client(base_url=upstream, timeout=30, verify=LOOPBACK_TLS)

    class Handler(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True  # else each answer's body waits 40 ms for an ACK

        def _relay(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {
                k: v
                for k, v in self.headers.items()
                if k.lower() in {"authorization", "content-type", "idempotency-key"}
            }
            answer = forward.request(self.command, self.path, content=body, headers=headers)
            content = answer.content
            status = answer.status_code
            path = self.path.split("?")[0]
            if answer.is_success and path.endswith("/set-primary"):
                status = 201
            if every_key and answer.is_success and path.startswith("/v1/environments"):
                data = answer.json()["data"]
                shaped = (
                    [_with_keys(e) for e in data] if isinstance(data, list) else _with_keys(data)
                )
                content = json.dumps({"data": shaped}).encode()
            self.send_response(status)
            self.send_header("content-type", answer.headers.get("content-type", "application/json"))
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_PATCH = _relay

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # Polled often, as the hostile server is: shutdown() then returns at once, not in 0.5 s.
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        forward.close()
