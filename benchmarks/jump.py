"""3. Jump, page and scroll: any position of a 1k, 10k or 100k inbox, at one request's cost.

Each inbox size runs in a child process of its own, so that its peak memory is its own.
The child times, from the key (or the scroll) to every row in view loaded:
- `G` from the top of a freshly opened inbox (a new app each time: no page is cached),
  once the app has settled (the search for the end that the first page starts, when the
  feed gives no total, is over), and `G` pressed as soon as the first rows show, when
  it waits for that search;
- a scroll-bar drag (the scroll offset set to a random position, as dragging does);
- page-down from the top to the end of the first 10,000 messages, counting the feed
  requests (one per 100 rows is the target) and the app's own time per page-down
  (all of it but the wait for the service's answers);
- for the 100k inbox, its peak RSS after scrolling through all of it page by page.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time

import httpx
from tests.waiting import until_async
from textual import events

from benchmarks.common import KEY, Figure, median, service
from inboxdesk.client import ClientOptions, InboxClient
from inboxdesk.config import Settings
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable

SIZES = {"k1": 1_000, "k10": 10_000, "k100": 100_000}
RUNS = 7  # G is a few ms once settled: a median of few runs is one frame's noise
PAGING_ROWS = 10_000


class Timing(httpx.AsyncBaseTransport):
    """Counts requests of whole pages (the v2 inbox's list, or an older service's v1
    feed) and the time spent waiting for them."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.pages = 0
        self.waiting = 0.0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started = time.perf_counter()
        response = await self.inner.handle_async_request(request)
        await response.aread()
        listing = request.url.path.endswith(("/feed", "/notifications"))
        if listing and request.url.params.get("limit") == "100":
            self.pages += 1
            self.waiting += time.perf_counter() - started
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def app_on(url: str, subscriber: str, transport: Timing) -> InboxdeskApp:
    client = InboxClient(url, KEY, ClientOptions(), transport)
    app = make_app(Settings(base_url=url, api_key=KEY), client=client, subscriber_id=subscriber)
    app.animation_level = "none"
    return app


def in_view_loaded(table: MessageTable) -> bool:
    top = round(table.scroll_y)
    stop = min(table.row_count, top + table.scrollable_content_region.height - 1)
    return all(table.source.row(i) is not None for i in range(top, stop))


async def opened(app: InboxdeskApp) -> tuple[InboxScreen, MessageTable]:
    await until_async(
        lambda: (
            isinstance(app.screen, InboxScreen)
            and app.screen.is_mounted
            and app.screen.table.row_count > 1
            and in_view_loaded(app.screen.table)
        )
    )
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return screen, screen.table


async def settled(screen: InboxScreen) -> None:
    """The start-up requests answered and the detail pane built: the user is reading."""
    await until_async(lambda: screen.counts is not None and bool(screen.query("#detail")))
    await asyncio.sleep(0.3)


async def jump_to_end(url: str, subscriber: str, size: int) -> float:
    app = app_on(url, subscriber, Timing())
    async with app.run_test(size=(150, 40)):
        screen, table = await opened(app)
        await settled(screen)
        started = time.perf_counter()
        app.post_message(events.Key("G", "G"))
        await until_async(lambda: table.cursor_row == size - 1 and in_view_loaded(table))
        return time.perf_counter() - started


async def jump_at_open(url: str, subscriber: str, size: int) -> float:
    """`G` pressed as soon as the first rows show: the search for the end (started by
    the first page, the feed giving no total) is still under way and `G` waits for it."""
    app = app_on(url, subscriber, Timing())
    async with app.run_test(size=(150, 40)):
        _, table = await opened(app)
        started = time.perf_counter()
        app.post_message(events.Key("G", "G"))
        await until_async(lambda: table.cursor_row == size - 1 and in_view_loaded(table))
        return time.perf_counter() - started


async def drags(url: str, subscriber: str, size: int) -> list[float]:
    app = app_on(url, subscriber, Timing())
    times = []
    spots = random.Random(size).sample(range(size - 40), 10)
    async with app.run_test(size=(150, 40)):
        screen, table = await opened(app)
        await settled(screen)
        for spot in spots:
            started = time.perf_counter()
            table.scroll_to(y=spot, animate=False, immediate=True)
            await until_async(lambda: in_view_loaded(table))
            times.append(time.perf_counter() - started)
    return times


async def paging(url: str, subscriber: str, rows: int) -> dict[str, float]:
    transport = Timing()
    app = app_on(url, subscriber, transport)
    async with app.run_test(size=(150, 40)):
        screen, table = await opened(app)
        await settled(screen)
        first_pages = transport.pages
        waited_before = transport.waiting
        presses = []
        started = time.perf_counter()
        while table.cursor_row < rows - 1:
            began = time.perf_counter()
            app.post_message(events.Key("pagedown", None))
            before = table.cursor_row
            await until_async(lambda b=before: table.cursor_row > b and in_view_loaded(table))  # type: ignore[misc]
            presses.append(time.perf_counter() - began)
        total = time.perf_counter() - started
        pages = transport.pages - first_pages
        # Pages 1 to the one under the view's last row (the view shows rows past `rows`).
        shown = min(table.row_count, round(table.scroll_y) + table.size.height - 1)
        app_time = total - (transport.waiting - waited_before)
        return {
            "pages_needed": (shown - 1) // 100,
            "requests": pages,
            "presses": len(presses),
            # The app's own time per page-down: all of it but the wait for the service.
            "app_ms_per_page": app_time / max(1, len(presses)) * 1000,
            "press_p50_ms": median(presses) * 1000,
        }


async def scroll_through(url: str, subscriber: str, size: int) -> float:
    app = app_on(url, subscriber, Timing())
    async with app.run_test(size=(150, 40)):
        _, table = await opened(app)
        for top in range(0, size, 100):
            table.scroll_to(y=top, animate=False, immediate=True)
            await until_async(lambda: in_view_loaded(table))
    return peak_mib()


def peak_mib() -> float:
    """This process's own peak RSS (VmHWM; ru_maxrss would count the forked parent)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def child(url: str, subscriber: str) -> dict[str, float]:
    size = SIZES[subscriber]
    ends = [await jump_to_end(url, subscriber, size) for _ in range(RUNS)]
    at_open = [await jump_at_open(url, subscriber, size) for _ in range(RUNS)]
    drag = await drags(url, subscriber, size)
    result = {
        "g_ms": median(ends) * 1000,
        "g_open_ms": median(at_open) * 1000,
        "drag_ms": median(drag) * 1000,
    }
    result.update(await paging(url, subscriber, min(size, PAGING_ROWS)))
    if size == max(SIZES.values()):
        result["scroll_peak_mib"] = await scroll_through(url, subscriber, size)
    return result


def measure() -> dict[str, dict[str, float]]:
    results = {}
    with service(SIZES) as svc:
        for subscriber in SIZES:
            done = subprocess.run(
                [sys.executable, "-m", "benchmarks.jump", svc.url, subscriber],
                capture_output=True,
                text=True,
                timeout=1800,
            )
            if done.returncode:
                raise RuntimeError(f"benchmarks.jump {subscriber} failed:\n{done.stderr}")
            results[subscriber] = json.loads(done.stdout.strip().splitlines()[-1])
    return results


def figures(r: dict[str, dict[str, float]]) -> list[Figure]:
    out = []
    for key, size in SIZES.items():
        x = r[key]
        out += [
            Figure(f"jump.G.{size}", x["g_ms"], "ms", "≤ 300", x["g_ms"] <= 300),
            Figure(f"jump.G_at_open.{size}", x["g_open_ms"], "ms", "≤ 300", x["g_open_ms"] <= 300),
            Figure(f"jump.drag.{size}", x["drag_ms"], "ms", "≤ 300", x["drag_ms"] <= 300),
            Figure(
                f"jump.page_down.{size}",
                x["press_p50_ms"],
                "ms",
                "≤ 300",
                x["press_p50_ms"] <= 300,
            ),
        ]
    for name, figure in (("G", "g_ms"), ("G_at_open", "g_open_ms")):
        g = [r[k][figure] for k in SIZES]
        spread = max(g) / min(g)
        out.append(
            Figure(f"jump.{name}.spread_1k_to_100k", spread, "ratio", "≤ 1.2", spread <= 1.2)
        )
    ten = r["k10"]
    out += [
        Figure(
            "paging.requests_per_page_10k",
            ten["requests"] / ten["pages_needed"],
            "requests",
            "1",
            ten["requests"] <= ten["pages_needed"],
        ),
        Figure(
            "paging.app_time_per_page_10k",
            ten["app_ms_per_page"],
            "ms",
            "< 10",
            ten["app_ms_per_page"] < 10,
        ),
        Figure(
            "memory.scroll_100k_peak",
            r["k100"]["scroll_peak_mib"],
            "MiB",
            "< 200",
            r["k100"]["scroll_peak_mib"] < 200,
        ),
    ]
    return out


def report(r: dict[str, dict[str, float]]) -> str:
    lines = [
        "| inbox | G to the end | G at once on open | scroll-bar drag | page-down (p50) | "
        "page requests, paging through ≤ 10k | app time per page-down |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, size in SIZES.items():
        x = r[key]
        lines.append(
            f"| {size:,} | {x['g_ms']:.0f} ms | {x['g_open_ms']:.0f} ms | {x['drag_ms']:.0f} ms | "
            f"{x['press_p50_ms']:.0f} ms | {int(x['requests'])} for {int(x['pages_needed'])} "
            f"pages | {x['app_ms_per_page']:.1f} ms |"
        )
    lines.append(
        f"\nPeak memory after scrolling through all 100,000 messages: "
        f"{r['k100']['scroll_peak_mib']:.0f} MiB (process RSS)."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 2:
        print(json.dumps(asyncio.run(child(sys.argv[1], sys.argv[2]))))
    else:
        print(report(measure()))
