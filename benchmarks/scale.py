"""3. Scale of one inbox: 10,000 messages against 100, in a process of its own.

The child measures time to the first page for each inbox, time to page to the end of
the big one, its own peak RSS with all of it loaded, and keystroke latency there.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

from textual import events

from benchmarks.common import KEY, median, percentile, service
from inboxdesk.config import Settings
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.screens.inbox import InboxScreen
from inboxdesk.tui.widgets.message_table import MessageTable

BIG = 10_000
SMALL = 100


async def first_page(url: str, subscriber: str) -> float:
    started = time.perf_counter()
    app = make_app(Settings(base_url=url, api_key=KEY), subscriber_id=subscriber)
    app.animation_level = "none"
    async with app.run_test(size=(150, 40)):
        await rows_at_least(app, 1)
        return time.perf_counter() - started


async def rows_at_least(app: InboxdeskApp, count: int) -> MessageTable:
    while True:
        screen = app.screen
        if isinstance(screen, InboxScreen) and screen.is_mounted:
            table = screen.query_one(MessageTable)
            if table.row_count >= count:
                return table
        await asyncio.sleep(0.001)


async def to_the_end(url: str) -> dict[str, float]:
    app = make_app(Settings(base_url=url, api_key=KEY), subscriber_id="big")
    app.animation_level = "none"
    async with app.run_test(size=(150, 40)):
        table = await rows_at_least(app, 1)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        started = time.perf_counter()
        while table.row_count < BIG:
            before = table.row_count
            app.post_message(events.Key("G", "G"))
            while table.row_count == before:
                await asyncio.sleep(0.001)
        paged = time.perf_counter() - started
        await asyncio.sleep(0.5)
        keys = []
        for n in range(60):
            key = "k" if n % 2 == 0 else "j"
            row = table.cursor_row
            began = time.perf_counter()
            app.post_message(events.Key(key, key))
            while table.cursor_row == row:
                await asyncio.sleep(0.0002)
            keys.append(time.perf_counter() - began)
            await asyncio.sleep(0.03)
        return {
            "page_to_end_s": paged,
            "rows": table.row_count,
            "key_p50_ms": median(keys) * 1000,
            "key_p95_ms": percentile(keys, 95) * 1000,
            "peak_mib": peak_mib(),
        }


def peak_mib() -> float:
    """This process's own peak RSS (VmHWM; ru_maxrss would count the forked parent)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def child(url: str) -> dict[str, float]:
    await first_page(url, "small")  # warm-up: imports and first validators are not paging
    small = [await first_page(url, "small") for _ in range(3)]
    big = [await first_page(url, "big") for _ in range(3)]
    result = await to_the_end(url)
    result["first_small_ms"] = median(small) * 1000
    result["first_big_ms"] = median(big) * 1000
    return result


def measure() -> dict[str, float]:
    with service({"big": BIG, "small": SMALL}) as svc:
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.scale", svc.url],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def report(r: dict[str, float]) -> str:
    ratio = r["first_big_ms"] / r["first_small_ms"]
    return (
        "| figure | value | target |\n|---|---|---|\n"
        f"| first page, 100-message inbox | {r['first_small_ms']:.0f} ms | |\n"
        f"| first page, 10,000-message inbox | {r['first_big_ms']:.0f} ms "
        f"({ratio:.2f} times the small one) | within 1.2 times |\n"
        f"| page to the end ({int(r['rows'])} rows) | {r['page_to_end_s']:.1f} s | |\n"
        f"| peak memory with all loaded (process RSS) | {r['peak_mib']:.0f} MiB | under 150 MiB |\n"
        f"| keystroke (j/k) at the end, p50 / p95 | {r['key_p50_ms']:.1f} / "
        f"{r['key_p95_ms']:.1f} ms | |"
    )


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(json.dumps(asyncio.run(child(sys.argv[1]))))
    else:
        print(report(measure()))
