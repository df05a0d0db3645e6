"""Shared pieces of the benchmarks: fixtures, a service in its own process, statistics."""

from __future__ import annotations

import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

KEY = "bench-key-0123456789abcdef"


@dataclass(frozen=True)
class Figure:
    """One measured figure against its target, as `--json` writes it."""

    name: str
    value: float
    unit: str
    target: str
    met: bool | None  # None: a figure kept for tracking, with no target

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": round(self.value, 3),
            "unit": self.unit,
            "target": self.target,
            "met": self.met,
        }


NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)


def fixture(inboxes: dict[str, int]) -> dict[str, Any]:
    """One environment; each subscriber gets that many realistic in-app messages."""
    messages = []
    serial = 0
    for subscriber, count in inboxes.items():
        for n in range(count):
            serial += 1
            at = NOW - timedelta(minutes=serial)
            messages.append(
                {
                    "_id": f"{0x6B000000 + serial:08x}{serial:016x}",
                    "subscriberId": subscriber,
                    "workflow": "Order shipped",
                    "createdAt": at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                    "title": f"Order #{n} shipped",
                    "content": [
                        {"type": "text", "content": f"Your order #{n} is on its way."},
                        {"type": "button", "content": "Track", "url": "https://x.test"},
                    ],
                    "payload": {"order": n, "carrier": "DHL"},
                    "read": n % 3 == 0,
                    "seen": n % 2 == 0,
                    "cta": {"type": "redirect", "data": {"url": f"https://x.test/{n}"}},
                }
            )
    return {
        "environments": [
            {
                "name": "Bench",
                "apiKey": KEY,
                "integrations": [
                    {
                        "_id": f"65e0000000000000000{n:05d}",
                        "name": f"Email {n}",
                        "identifier": f"email-{n}",
                        "providerId": "sendgrid",
                        "channel": "email",
                        "primary": n == 0,
                    }
                    for n in range(4)
                ],
                "workflows": [
                    {
                        "name": "Order shipped",
                        "steps": [{"name": "In-app"}],
                        "triggers": [
                            {
                                "type": "event",
                                "identifier": "order-shipped",
                                "variables": [{"name": "order"}],
                            }
                        ],
                    }
                ],
                "subscribers": [{"subscriberId": s, "firstName": s.title()} for s in inboxes],
                "messages": messages,
            }
        ]
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Service:
    url: str
    process: subprocess.Popen[bytes]
    db: Path


@contextmanager
def service(inboxes: dict[str, int], extra: Sequence[str] = ()) -> Iterator[Service]:
    """`inboxdesk serve` in its own process, loaded with `fixture(inboxes)`."""
    with serve_fixture(fixture(inboxes), extra) as running:
        yield running


@contextmanager
def serve_fixture(
    document: dict[str, Any], extra: Sequence[str] = (), start_within: float = 60
) -> Iterator[Service]:
    """`inboxdesk serve` in its own process, loaded with the fixture `document`; a large
    one is given more than a minute to load."""
    with tempfile.TemporaryDirectory(prefix="inboxdesk-bench-") as scratch:
        path = Path(scratch) / "fixture.json"
        path.write_text(json.dumps(document))
        db = Path(scratch) / "bench.db"
        port = free_port()
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "inboxdesk",
                "serve",
                "--db",
                str(db),
                "--port",
                str(port),
                "--load",
                str(path),
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + start_within
        while True:
            try:
                httpx.get(f"{url}/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        process.stderr.read().decode() if process.stderr else ""
                    ) from None
                time.sleep(0.05)
        try:
            yield Service(url, process, db)
        finally:
            process.terminate()
            process.wait()


def message_ids(url: str, subscriber: str, count: int) -> list[str]:
    ids: list[str] = []
    page = 0
    with http(url) as client:
        while len(ids) < count:
            body = client.get(
                f"/v1/subscribers/{subscriber}/notifications/feed",
                params={"page": page, "limit": 100},
            ).json()
            ids += [m["_id"] for m in body["data"]]
            if not body["hasMore"]:
                break
            page += 1
    return ids[:count]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), "
        f"{memory:.0f} GiB, Python {platform.python_version()}"
    )


def http(url: str) -> httpx.Client:
    """A plain httpx client with the socket options the app's client uses."""
    from inboxdesk.client.transport import NO_DELAY

    return httpx.Client(
        base_url=url,
        headers={"Authorization": f"ApiKey {KEY}"},
        timeout=30,
        transport=httpx.HTTPTransport(socket_options=NO_DELAY),
    )


def async_http(url: str) -> httpx.AsyncClient:
    from inboxdesk.client.transport import NO_DELAY

    return httpx.AsyncClient(
        base_url=url,
        headers={"Authorization": f"ApiKey {KEY}"},
        timeout=30,
        transport=httpx.AsyncHTTPTransport(socket_options=NO_DELAY),
    )


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
