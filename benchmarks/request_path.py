"""The local service's own CPU per request, without sockets or a client.

Each request is handed straight to the app as ASGI (the service's middlewares, routing,
dependencies, the store call and the JSON), over examples/inbox.json, and the process's
CPU (the worker threads' included) is taken around each request; each kind's lower
quartile is printed. A mix of what the app
and the command line send most: a v1 feed page, the integrations, a v2 list page, a
count, and a mark-as with an Idempotency-Key. Apart, and not in the mean: a page of
1,000 messages of `GET /v1/messages`, what `inboxdesk message` scans page by page.

    .venv/bin/python -m benchmarks.request_path [ROUNDS]
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import fixture, percentile
from inboxdesk.server.app import create_app
from inboxdesk.server.fixtures import load_fixture, read_fixture
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store

ROOT = Path(__file__).resolve().parents[1]
KEY = "staging-key-0123456789abcdef"
ADA_MESSAGE = "65f000000000000000000001"

Request = tuple[str, str, bytes]
# A scan's page (core/inbox/lookup.py), over MANY messages of a subscriber of their own.
MANY = 1000
SCAN = ("GET", f"/v1/messages?subscriberId=ada&page=0&limit={MANY}", b"")


def requests() -> list[Request]:
    mark = json.dumps({"messageId": [ADA_MESSAGE], "markAs": "read"}).encode()
    return [
        ("GET", "/v1/subscribers/jane/notifications/feed?page=0&limit=10", b""),
        ("GET", "/v1/integrations", b""),
        ("GET", "/v2/subscribers/jane/notifications?limit=10&offset=0", b""),
        ("GET", "/v2/subscribers/jane/notifications/count?filters=%5B%7B%7D%5D", b""),
        ("POST", "/v1/subscribers/jane/messages/mark-as", mark),
        ("GET", "/v1/environments/me", b""),
    ]


async def call(app: Any, method: str, target: str, body: bytes, serial: int) -> int:
    path, _, query = target.partition("?")
    headers = [(b"host", b"127.0.0.1"), (b"authorization", f"ApiKey {KEY}".encode())]
    if body:
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"idempotency-key", f"bench-{serial}".encode()),
        ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    status = 0
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(scope, receive, send)
    return status


def crowded(document: dict[str, Any]) -> dict[str, Any]:
    """The fixture with MANY messages of one more subscriber, `ada` (the benchmarks'
    realistic in-app messages, `benchmarks.common.fixture`): the requests of the mix,
    which name jane or the environment's settings, answer as they did without."""
    staging = document["environments"][0]
    (ada,) = fixture({"ada": MANY})["environments"]
    staging["subscribers"] += ada["subscribers"]
    staging["messages"] += ada["messages"]
    return document


async def measure(app: Any, rounds: int, mix: list[Request]) -> dict[str, float]:
    """Each request's CPU, its lower quartile over `rounds` (the machine may be shared:
    a request another process disturbed counts for more, not for less)."""
    samples: dict[str, list[float]] = {}
    serial = 0
    for warm in (True, False):
        for _ in range(3 if warm else rounds):
            for method, target, body in mix:
                serial += 1
                started = time.process_time()
                status = await call(app, method, target, body, serial)
                spent = time.process_time() - started
                if status >= 300:
                    raise SystemExit(f"{target} answered {status}")
                if not warm:
                    samples.setdefault(f"{method} {target}", []).append(spent)
    return {name: percentile(taken, 25) for name, taken in samples.items()}


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        store = Store(db)
        load_fixture(store, crowded(read_fixture(ROOT / "examples" / "inbox.json")))
        app = create_app(ServerSettings(db_path=db), store)

        per = asyncio.run(measure(app, rounds, requests()))
        scan = asyncio.run(measure(app, max(3, rounds // 10), [SCAN]))
        store.worker.stop()
    for name, spent in per.items():
        print(f"{spent * 1000:6.3f} ms  {name.partition('?')[0]}")
    print(f"{sum(per.values()) / len(per) * 1000:6.3f} ms  mean per request")
    for name, spent in scan.items():
        print(f"{spent * 1000:6.3f} ms  {name} (a scan's page)")


if __name__ == "__main__":
    main()
