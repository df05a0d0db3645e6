"""Notifications carried to their final states per second by the local service's worker.

A workflow of an in-app step and an email step, no delay; N triggers sent over HTTP to a
service on a thread of this process (its worker on its own thread), timed from the first
trigger to the moment every job of every notification is final. Run alone:
`python -m benchmarks.triggers [N]`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import httpx

from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store

FINAL = frozenset({"completed", "failed", "canceled", "skipped", "merged"})


def _fixture() -> dict[str, object]:
    step = {"active": True, "template": {"type": "in_app", "content": "Hello"}}
    email = {"active": True, "template": {"type": "email", "subject": "Hi"}}
    return {
        "_organizationId": "66b000000000000000000000",
        "environments": [
            {
                "_id": "66b000000000000000000001",
                "name": "Development",
                "apiKey": "bench-key-0123456789abcdef",
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


def measure(count: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        store = Store(path)
        load_fixture(store, _fixture())
        with ServiceThread(ServerSettings(db_path=path), store) as service:
            headers = {"Authorization": "ApiKey bench-key-0123456789abcdef"}
            with httpx.Client(base_url=service.url, headers=headers) as http:
                started = time.perf_counter()
                for n in range(count):
                    answer = http.post(
                        "/v1/events/trigger", json={"name": "welcome", "to": f"s{n % 20}"}
                    )
                    answer.raise_for_status()
                db = store.read()
                while True:
                    done = db.execute(
                        "SELECT COUNT(*) FROM jobs WHERE json_extract(doc, '$.status') IN"
                        " ('completed', 'failed', 'canceled', 'skipped', 'merged')"
                    ).fetchone()[0]
                    if done >= 2 * count:
                        break
                    time.sleep(0.005)
                elapsed = time.perf_counter() - started
        store.close()
    return count / elapsed


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rates = [measure(count) for _ in range(3)]
    print(f"notifications to final states: {sorted(rates)[1]:.0f}/s (median of 3, {count} each)")


if __name__ == "__main__":
    main()
