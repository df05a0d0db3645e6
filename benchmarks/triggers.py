"""Notifications carried to their final states per second by the local service's worker.

A workflow of an in-app step and an email step, no delay. The service runs in a process
of its own (`inboxdesk serve`, its worker on a thread of it), as the other benchmarks
run it; this process is the caller, sending N triggers over HTTP with a few requests in
flight at once, as a real backend sends them. The clock runs from the first trigger to
the moment every job of every notification is final (read from the service's database).

The caller is a plain HTTP/1.1 client, one keep-alive connection per request in flight,
each answer checked (201, `processed`). A real backend calls from machines of its own;
here it shares the service's two cores, and httpx's async client spent about 6 ms of
CPU a request (its pool's scan of every connection, a failed `import sniffio` each
time): more than the service spent, so it measured the caller. `httpx` as the third
argument uses it instead, for comparison.
Run alone: `python -m benchmarks.triggers [N] [IN_FLIGHT] [httpx]`.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks.common import KEY, async_http, cpu_seconds, machine, serve_fixture

FINAL = ("completed", "failed", "canceled", "skipped", "merged")
IN_FLIGHT = 8


def _fixture() -> dict[str, object]:
    step = {"active": True, "template": {"type": "in_app", "content": "Hello"}}
    email = {"active": True, "template": {"type": "email", "subject": "Hi"}}
    return {
        "_organizationId": "66b000000000000000000000",
        "environments": [
            {
                "_id": "66b000000000000000000001",
                "name": "Development",
                "apiKey": KEY,
                "integrations": [
                    {
                        "_id": "66b000000000000000000101",
                        "providerId": "novu",
                        "channel": "in_app",
                        "active": True,
                        "primary": False,
                        "name": "Inbox",
                        "identifier": "inbox",
                        "credentials": {},
                    },
                    {
                        "_id": "66b000000000000000000102",
                        "providerId": "sendgrid",
                        "channel": "email",
                        "active": True,
                        "primary": True,
                        "name": "SendGrid",
                        "identifier": "sendgrid",
                        "credentials": {},
                    },
                ],
                "workflows": [
                    {
                        "_id": "66b000000000000000000201",
                        "name": "Welcome",
                        "steps": [step, email],
                        "triggers": [{"type": "event", "identifier": "welcome", "variables": []}],
                    }
                ],
                "subscribers": [
                    {"subscriberId": f"s{n}", "email": f"s{n}@example.test"} for n in range(20)
                ],
                "messages": [],
            }
        ],
    }


def _request(host: str, body: dict[str, object]) -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"POST /v1/events/trigger HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: ApiKey {KEY}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One response's status and body (the service always sends Content-Length)."""
    status = int((await reader.readline()).split()[1])
    length = None
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None:
        raise RuntimeError(f"an answer ({status}) without Content-Length")
    return status, await reader.readexactly(length)


async def _send(url: str, count: int, in_flight: int) -> float:
    """Send `count` triggers, `in_flight` at a time, each on a keep-alive connection of
    its own; when the first one left."""
    parts = urlsplit(url)
    started = 0.0
    queue = iter(range(count))

    async def sender() -> None:
        nonlocal started
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for n in queue:
                if not started:
                    started = time.perf_counter()
                writer.write(_request(parts.netloc, {"name": "welcome", "to": f"s{n % 20}"}))
                status, body = await _answer(reader)
                if status != 201 or json.loads(body)["data"]["status"] != "processed":
                    raise RuntimeError(f"trigger answered {status}: {body[:200]!r}")
        finally:
            writer.close()

    await asyncio.gather(*(sender() for _ in range(in_flight)))
    return started


async def _send_httpx(url: str, count: int, in_flight: int) -> float:
    """The same with httpx's async client, as the app's client sends."""
    started = 0.0
    async with async_http(url) as http:
        queue = iter(range(count))

        async def sender() -> None:
            nonlocal started
            for n in queue:
                if not started:
                    started = time.perf_counter()
                answer = await http.post(
                    "/v1/events/trigger", json={"name": "welcome", "to": f"s{n % 20}"}
                )
                answer.raise_for_status()

        await asyncio.gather(*(sender() for _ in range(in_flight)))
    return started


def _final_jobs(db: sqlite3.Connection) -> int:
    marks = ", ".join("?" * len(FINAL))
    row = db.execute(
        f"SELECT COUNT(*) FROM jobs WHERE json_extract(doc, '$.status') IN ({marks})", FINAL
    ).fetchone()
    return int(row[0])


Sender = Callable[[str, int, int], Coroutine[Any, Any, float]]


def measure(
    count: int, in_flight: int = IN_FLIGHT, send: Sender = _send
) -> tuple[float, float, float]:
    """Notifications a second, from the first trigger to the last final job; the same
    count over the service process's CPU time in that span (what it would do with a
    core of its own, whatever else the machine runs); and the caller's CPU seconds,
    which the service's two cores also paid."""
    with serve_fixture(_fixture()) as service:
        cpu = cpu_seconds(service.process.pid)
        caller = time.process_time()
        started = asyncio.run(send(service.url, count, in_flight))
        caller = time.process_time() - caller
        db = sqlite3.connect(f"file:{Path(service.db)}?mode=ro", uri=True, timeout=30)
        try:
            # Counting rows is cheap; reading every job's status is not, so it waits
            # until every job exists (a pass stores its jobs final, or waiting).
            while db.execute("SELECT COUNT(*) FROM jobs").fetchone()[0] < 2 * count:
                time.sleep(0.005)
            while _final_jobs(db) < 2 * count:
                time.sleep(0.005)
            elapsed = time.perf_counter() - started
        finally:
            db.close()
        cpu = cpu_seconds(service.process.pid) - cpu
    return count / elapsed, count / cpu, caller


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    in_flight = int(sys.argv[2]) if len(sys.argv) > 2 else IN_FLIGHT
    caller = sys.argv[3] if len(sys.argv) > 3 else "plain"
    send = _send_httpx if caller == "httpx" else _send
    runs = [measure(count, in_flight, send) for _ in range(3)]
    rates, per_cpu = [r for r, _, _ in runs], [c for _, c, _ in runs]
    print(machine(), f"load average {os.getloadavg()[0]:.1f}")
    print(
        f"notifications to final states: {sorted(rates)[1]:.0f}/s (median of 3 runs of "
        f"{count}, {in_flight} triggers in flight, {caller} caller; runs: "
        + ", ".join(f"{r:.0f}" for r in rates)
        + ")"
    )
    print(
        f"per second of the service's CPU: {sorted(per_cpu)[1]:.0f} (runs: "
        + ", ".join(f"{c:.0f}" for c in per_cpu)
        + ")"
    )
    print("the caller's CPU a run: " + ", ".join(f"{c:.2f} s" for _, _, c in runs))


if __name__ == "__main__":
    main()
