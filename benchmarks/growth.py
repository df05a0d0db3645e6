"""6. Growth: the service's mark-as and feed-page times with 1k, 10k and 100k stored messages.

Messages are stored straight through the store (loading 100k through HTTP would time
the loader, not the service); the service then answers over loopback HTTP.
"""

from __future__ import annotations

import tempfile
import time
from datetime import timedelta
from pathlib import Path

from benchmarks.common import KEY, NOW, Figure, fixture, http, median
from inboxdesk.models import Message
from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.runner import ServiceThread
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store

SIZES = (1_000, 10_000, 100_000)
# The measured subscriber's inbox stays the same size; the rest belong to others.
INBOX = 1_000


def grow(store: Store, total: int) -> None:
    """Add other subscribers' messages until the environment holds `total`."""
    caller = store.authenticate(KEY)
    assert caller is not None
    template = Message.model_validate(
        store.list_messages(caller, 0, 1)[0][0] | {"subscriber": None, "template": None}
    )
    others = [
        r["id"]
        for r in store.read().execute("SELECT id FROM subscribers WHERE subscriber_id != 'ada'")
    ]
    have = store.read().execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    batch = []
    for n in range(have, total):
        at = (NOW - timedelta(seconds=n)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        batch.append(
            template.model_copy(
                update={
                    "id": f"{0x6C000000 + n:08x}{n:016x}",
                    "subscriber_internal_id": others[n % len(others)],
                    "created_at": at,
                    "subscriber": None,
                    "template": None,
                }
            )
        )
        if len(batch) == 5_000:
            store.insert_messages(batch)
            batch = []
    if batch:
        store.insert_messages(batch)


def timings(url: str, ids: list[str]) -> dict[str, float]:
    mark, first, deep = [], [], []
    with http(url) as client:
        for n in range(40):
            started = time.perf_counter()
            client.post(
                "/v1/subscribers/ada/messages/mark-as",
                json={
                    "messageId": ids[n % 10 * 10 : (n % 10 + 1) * 10],
                    "markAs": ("read", "unread")[n % 2],
                },
            ).raise_for_status()
            mark.append(time.perf_counter() - started)
            started = time.perf_counter()
            client.get(
                "/v1/subscribers/ada/notifications/feed", params={"limit": 50}
            ).raise_for_status()
            first.append(time.perf_counter() - started)
            started = time.perf_counter()
            client.get(
                "/v1/subscribers/ada/notifications/feed", params={"limit": 50, "page": 19}
            ).raise_for_status()
            deep.append(time.perf_counter() - started)
    return {
        "mark_ms": median(mark) * 1000,
        "first_ms": median(first) * 1000,
        "deep_ms": median(deep) * 1000,
    }


def measure() -> dict[int, dict[str, float]]:
    results: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "growth.db"
        store = Store(db)
        base = fixture({"ada": INBOX, "bob": 1, "cy": 1})
        load_fixture(store, base)
        caller = store.authenticate(KEY)
        assert caller is not None
        ids = [m["_id"] for m in store.feed(caller, "ada", 0, 100)[0]]
        for size in SIZES:
            grow(store, size)
            with ServiceThread(ServerSettings(db_path=db), store) as service:
                results[size] = timings(service.url, ids)
    return results


def figures(results: dict[int, dict[str, float]]) -> list[Figure]:
    marks = [r["mark_ms"] for r in results.values()]
    spread = max(marks) / min(marks)
    return [
        *(
            Figure(f"growth.mark_as.{size}", r["mark_ms"], "ms", "", None)
            for size, r in results.items()
        ),
        Figure("growth.mark_as_spread", spread, "ratio", "≤ 1.2", spread <= 1.2),
    ]


def report(results: dict[int, dict[str, float]]) -> str:
    lines = [
        "| messages stored | mark-as (10 ids) | feed page 0 | feed page 19 |",
        "|---|---|---|---|",
    ]
    for size, r in results.items():
        lines.append(
            f"| {size:,} | {r['mark_ms']:.2f} ms | {r['first_ms']:.2f} ms | {r['deep_ms']:.2f} ms |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
