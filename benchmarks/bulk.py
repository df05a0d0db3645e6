"""4. Bulk: mark 1,000 selected messages read in the app.

Counts the requests the app sends, times key press to the last row updated, and
times the service's own store for the same 1,000 ids (per id).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path

import httpx
from tests.waiting import until_async
from textual import events

from benchmarks.common import KEY, Figure, http, median, service
from benchmarks.jump import in_view_loaded, opened
from inboxdesk.client import ClientOptions, InboxClient
from inboxdesk.config import Settings
from inboxdesk.models import MarkAs
from inboxdesk.server.store import Store
from inboxdesk.tui.app import make_app
from inboxdesk.tui.screens.confirm import ConfirmScreen

COUNT = 1000


class Counting(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.posts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.posts += 1
        return await self.inner.handle_async_request(request)


async def in_app(url: str) -> tuple[int, float]:
    transport = Counting()
    client = InboxClient(url, KEY, ClientOptions(), transport)
    app = make_app(Settings(base_url=url, api_key=KEY), client=client, subscriber_id="ada")
    app.animation_level = "none"
    async with app.run_test(size=(150, 40)):
        screen, table = await opened(app)
        for top in range(0, COUNT, 100):  # the list loads the pages it shows
            table.scroll_to(y=top, animate=False, immediate=True)
            await until_async(lambda: in_view_loaded(table))
        app.post_message(events.Key("asterisk", "*"))
        while len(screen.selected) < COUNT:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.3)
        transport.posts = 0
        # More than 20 messages: the app asks first (the customer's webhooks); the
        # clock starts at the answer, as in latency.py.
        app.post_message(events.Key("r", "r"))
        await until_async(lambda: isinstance(app.screen, ConfirmScreen))
        started = time.perf_counter()
        app.post_message(events.Key("y", "y"))
        while not all(r.read for r in screen.feed.rows()):
            await asyncio.sleep(0.001)
        return transport.posts, time.perf_counter() - started


def store_time(db: Path, ids: list[str]) -> float:
    """The store's own time for one mark-as of all the ids, on a copy of the database."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "copy.db"
        shutil.copy(db, copy)
        for suffix in ("-wal", "-shm"):
            if Path(f"{db}{suffix}").exists():
                shutil.copy(f"{db}{suffix}", f"{copy}{suffix}")
        store = Store(copy)
        caller = store.authenticate(KEY)
        assert caller is not None
        times = []
        for n in range(5):
            started = time.perf_counter()
            store.mark_as(caller, "ada", ids, MarkAs.READ if n % 2 else MarkAs.UNREAD)
            times.append(time.perf_counter() - started)
        store.close()
        return median(times)


def measure() -> dict[str, float]:
    with service({"ada": COUNT}) as svc:
        posts, seconds = asyncio.run(in_app(svc.url))
        with http(svc.url) as client:
            ids = [
                m["_id"] for m in client.get("/v1/messages", params={"limit": COUNT}).json()["data"]
            ]
        own = store_time(svc.db, ids)
    return {
        "requests": posts,
        "end_to_end_s": seconds,
        "store_per_id_us": own / COUNT * 1e6,
        "store_s": own,
    }


def figures(r: dict[str, float]) -> list[Figure]:
    return [
        Figure("bulk.1000_requests", r["requests"], "requests", "1", r["requests"] == 1),
        Figure("bulk.1000_end_to_end", r["end_to_end_s"] * 1000, "ms", "", None),
    ]


def report(r: dict[str, float]) -> str:
    return (
        "| figure | value |\n|---|---|\n"
        f"| requests sent for 1,000 selected | {int(r['requests'])} |\n"
        f"| key press to every row updated | {r['end_to_end_s'] * 1000:.0f} ms |\n"
        f"| the store's own time (one transaction, 1,000 ids) | {r['store_s'] * 1000:.1f} ms, "
        f"{r['store_per_id_us']:.0f} µs per id |"
    )


if __name__ == "__main__":
    print(report(measure()))
