"""A production-shaped server on loopback: the local service behind a proxy that answers
as production does where the local service does not.

- `GET /v1/environments` and `/me` gain every environment's secret `apiKeys`, as
  production's per-organization flag and older deployments give them to any API key
  (`every_key`); without it, the local service's own answer passes: the key's own
  environment's keys, `[]` for the others, as production sends by default.
- A set-primary that succeeds answers 201, as production's code still does.
- With `scoped`, a key sees and switches only its own environment's integrations, as
  production since May 2026, whatever the service behind does: the lists keep the key's
  environment's, and set-primary on another environment's answers 403. With
  `forbid_across` alone, only the switch is refused (a deployment between the two
  changes). `organization_keys` (every key of the organization) makes the integrations'
  lists whole, as older deployments list them to any key.
- With `no_me`, `/v1/environments/me` answers 404, as where it is not served.
- `rewrite(method, path and query, body)` changes any successful JSON answer: a hostile
  service's (tests/hostile.py has them), the local service's answer underneath.
- `canned` answers a request (`"GET /path?query"`, or `"GET /path"` for any query)
  with a stored status and body: one production sends that the local service never
  makes (a throttled notification, a preference channel stored as `null`).
- With `retention_hours`, the activity feed answers production's 402 to an `after`
  older than that (the plan's retention), whatever the service behind keeps; `seen`
  gets each request's path and query, in order.

The rest passes through unchanged.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.client.faults import loopback_client

# Key material that must never leave the client: each appears in every answer above.
# Their ends are not hex: a leak check looks for each end too, and an environment's random
# hex identifier once held "b1a0".
SECRET_KEYS = ("sk_live_9f8e7d6c5b4a39281706f5e4d3c2wxyz", "0f1e2d3c4b5a69788796a5b4c3d2qrsu")
SECRET_HASH = "hash-of-a-secret-key-5b4a39281706"


FORBIDDEN = {
    "statusCode": 403,
    "timestamp": "2026-08-01T00:00:00.000Z",
    "message": (
        "API key authentication is scoped to a single environment and cannot set as "
        "primary an integration that belongs to a different environment. Use an API key "
        "from the integration's environment, or authenticate with a session token."
    ),
    "error": "Forbidden",
}


RETENTION = {
    "statusCode": 402,
    "message": "Requested date range exceeds your plan's retention period. "
    "Please upgrade your plan to access older data.",
    "error": "Payment Required",
}


def _with_keys(environment: dict[str, Any]) -> dict[str, Any]:
    keys = [{"key": key, "_userId": "65c000000000000000000001"} for key in SECRET_KEYS]
    keys[0]["hash"] = SECRET_HASH
    return {**environment, "apiKeys": keys}


@contextmanager
def production_shaped(
    upstream: str,
    every_key: bool = True,
    scoped: bool = False,
    no_me: bool = False,
    forbid_across: bool = False,
    organization_keys: tuple[str, ...] = (),
    rewrite: Callable[[str, str, Any], Any] | None = None,
    canned: dict[str, tuple[int, Any]] | None = None,
    retention_hours: float | None = None,
    seen: list[str] | None = None,
) -> Iterator[str]:
    """A loopback URL that answers as production would, in front of `upstream`."""
    forward = loopback_client(base_url=upstream, timeout=30)

    class Handler(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True  # else each answer's body waits 40 ms for an ACK

        def _relay(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {
                k.lower(): v
                for k, v in self.headers.items()
                if k.lower() in {"authorization", "content-type", "idempotency-key"}
            }
            path = self.path.split("?")[0]
            for asked in (f"{self.command} {self.path}", f"{self.command} {path}"):
                if canned and asked in canned:
                    self._answer(*canned[asked])
                    return
            if seen is not None:
                seen.append(self.path)
            if retention_hours is not None and path == "/v1/notifications":
                after = parse_qs(urlsplit(self.path).query).get("after", [""])[0]
                oldest = datetime.now(UTC) - timedelta(hours=retention_hours)
                if after and datetime.fromisoformat(after.replace("Z", "+00:00")) < oldest:
                    self._answer(402, RETENTION)
                    return
            if no_me and path == "/v1/environments/me":
                self._answer(404, {"statusCode": 404, "message": "Cannot GET " + path})
                return
            scoping = scoped or forbid_across
            own = self._own(headers) if scoping and path.startswith("/v1/integrations") else None
            if own is not None and self.command == "POST" and path.endswith("/set-primary"):
                wanted = path.split("/")[3].lower()
                items = self._whole(headers)
                found = next((i for i in items if str(i.get("_id")).lower() == wanted), None)
                if found is not None and found.get("_environmentId") != own:
                    self._answer(403, {**FORBIDDEN, "path": self.path})
                    return
            answer = forward.request(self.command, self.path, content=body, headers=headers)
            content = answer.content
            status = answer.status_code
            listing = path.startswith("/v1/integrations") and self.command == "GET"
            if organization_keys and listing and answer.is_success:
                content = json.dumps({"data": self._whole(headers, path)}).encode()
            if scoped and own is not None and listing and answer.is_success:
                data = json.loads(content)["data"]
                if isinstance(data, list):
                    mine = [i for i in data if i.get("_environmentId") == own]
                    content = json.dumps({"data": mine}).encode()
            if answer.is_success and path.endswith("/set-primary"):
                status = 201
            if every_key and answer.is_success and path.startswith("/v1/environments"):
                data = answer.json()["data"]
                shaped = (
                    [_with_keys(e) for e in data] if isinstance(data, list) else _with_keys(data)
                )
                content = json.dumps({"data": shaped}).encode()
            if rewrite is not None and answer.is_success and content:
                content = json.dumps(rewrite(self.command, self.path, json.loads(content))).encode()
            self.send_response(status)
            self.send_header("content-type", answer.headers.get("content-type", "application/json"))
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _relay

        def _whole(self, headers: dict[str, str], route: str = "/v1/integrations") -> list[Any]:
            """The integrations listed with the caller's key and `organization_keys`."""
            found: dict[str, Any] = {}
            auth = [headers.get("authorization", "")]
            auth += [f"ApiKey {k}" for k in organization_keys]
            for value in auth:
                listed = forward.get(route, headers={**headers, "authorization": value})
                for item in listed.json().get("data", []) if listed.is_success else []:
                    found.setdefault(str(item.get("_id")), item)
            return list(found.values())

        def _own(self, headers: dict[str, str]) -> str | None:
            me = forward.get("/v1/environments/me", headers=headers)
            return str(me.json()["data"]["_id"]) if me.is_success else None

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            content = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

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
