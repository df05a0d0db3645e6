"""Notifications carried to their final states per second by the local service's worker.

A workflow of an in-app step and an email step, no delay. The service runs in a process
of its own (`inboxdesk serve`, its worker on a thread of it), as the other benchmarks
run it; this process is the caller, sending N triggers over HTTP with a few requests in
flight at once, as a real backend sends them. The clock runs from the first trigger to
the moment every job of every notification is final (read from the service's database).
Run alone: `python -m benchmarks.triggers [N] [IN_FLIGHT]`.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import time
from pathlib import Path

from benchmarks.common import KEY, async_http, machine, serve_fixture

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


async def _send(url: str, count: int, in_flight: int) -> float:
    """Send `count` triggers, `in_flight` at a time; when the first one left."""
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


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(count: int, in_flight: int = IN_FLIGHT) -> tuple[float, float]:
    """Notifications a second, from the first trigger to the last final job; and the
    same count over the service process's CPU time in that span (what it would do with
    a core of its own, whatever else the machine runs)."""
    with serve_fixture(_fixture()) as service:
        cpu = _cpu_seconds(service.process.pid)
        started = asyncio.run(_send(service.url, count, in_flight))
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
        cpu = _cpu_seconds(service.process.pid) - cpu
    return count / elapsed, count / cpu


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    in_flight = int(sys.argv[2]) if len(sys.argv) > 2 else IN_FLIGHT
    runs = [measure(count, in_flight) for _ in range(3)]
    rates, per_cpu = [r for r, _ in runs], [c for _, c in runs]
    print(machine(), f"load average {os.getloadavg()[0]:.1f}")
    print(
        f"notifications to final states: {sorted(rates)[1]:.0f}/s (median of 3 runs of "
        f"{count}, {in_flight} triggers in flight; runs: "
        + ", ".join(f"{r:.0f}" for r in rates)
        + ")"
    )
    print(
        f"per second of the service's CPU: {sorted(per_cpu)[1]:.0f} (runs: "
        + ", ".join(f"{c:.0f}" for c in per_cpu)
        + ")"
    )


if __name__ == "__main__":
    main()
