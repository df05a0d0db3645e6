"""Activity across every subscriber at scale (decision 118): an environment of 100,000
notifications over 7 days on the local service.

Usage: .venv/bin/python -m benchmarks.across [--notifications N]

- The environment: this script's generator writes the notifications in the shape a
  fixture's `notifications` take (`inboxdesk serve --load`), over 2,000 subscribers and
  the last 7 days, three in twenty failing (Twilio codes, bounces, a missing phone
  number); `load_fixture` stores them, as `--load` does, and `inboxdesk serve --db`
  serves the database in a process of its own.
- The feed over HTTP: page 0 across everyone (the last 24 hours, no `subscriberIds`)
  and page 39 (the last that a default scan reads), median of RUNS requests each.
- The app, headless, as the delivery benchmark runs it, in Activity (`4`): `a` to the
  first frame that shows the across-everyone view's rows (a callback after the refresh
  that follows the first page's rows, as start-up's first frame is taken), median of
  RUNS, in wall-clock time and in the app process's CPU time (which other processes on
  a busy machine do not inflate); then `b`, the whole bounded scan (40 pages, 2,000
  notifications) grouped, to its first groups on screen and to the last page's. The
  budget is the app's first-frame budget of start-up: at most 2x a bare Textual app's
  first paint
  (benchmarks/startup.py's bare app, spawned in this run).
- Grouping 10,000 notifications' CPU and follow mode's memory are benchmarks/grouping.py's.

Figures are printed, never asserted in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from textual import events

from benchmarks.common import KEY, fixture, free_port

NOTIFICATIONS = 100_000
SUBSCRIBERS = 2_000
DAYS = 7
RUNS = 9
BARE_RUNS = 5


def _detail(detail: str, status: str = "Success", **extra: Any) -> dict[str, Any]:
    return {"status": status, "detail": detail, **extra}


def _doc(kind: str, status: str, details: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "status": status, "executionDetails": details, **extra}


def _job(n: int) -> dict[str, Any]:
    """The n-th notification's job beside its in-app one: three in twenty fail."""
    created = _detail("Message created", "Pending")
    pick = n % 20
    if pick == 0:
        code = (21610, 21211, 21614)[n // 20 % 3]
        raw = json.dumps({"status": 400, "code": code, "message": f"refused ({code})"})
        failed = _detail("Unexpected provider error", "Failed", providerId="twilio", raw=raw)
        return _doc("sms", "failed", [created, failed], providerId="twilio")
    if pick == 1:
        reason = f"550 5.1.1 <s{n % SUBSCRIBERS}@example.test> does not exist"
        raw = json.dumps({"event": "bounce", "reason": reason})
        bounced = _detail("Message bounced", "Failed", providerId="sendgrid", raw=raw)
        sent = [created, _detail("Message sent"), bounced]
        return _doc("email", "completed", sent, providerId="sendgrid")
    if pick == 2:
        return _doc("sms", "failed", [_detail("Subscriber missing phone number", "Failed")])
    return _doc("email", "completed", [created, _detail("Message sent")], providerId="sendgrid")


def _at(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def environment(count: int, now: datetime) -> dict[str, Any]:
    """The bench environment (Ada's inbox for the app to open on, and one notification
    in 97 hers) with `count` notifications spread evenly over the last DAYS days."""
    document = fixture({"ada": 20})
    env = document["environments"][0]
    env["subscribers"] += [{"subscriberId": f"s{n:04d}"} for n in range(SUBSCRIBERS)]
    env["workflows"].append({"name": "Login code"})
    step = timedelta(days=DAYS) / count
    env["notifications"] = [
        {
            "subscriberId": "ada" if n % 97 == 0 else f"s{n % SUBSCRIBERS:04d}",
            "workflow": "Login code" if n % 20 in (0, 2) else "Order shipped",
            "transactionId": f"t{n}",
            "createdAt": _at(now - step * n),
            "jobs": [_doc("in_app", "completed", [_detail("Message created", "Pending")]), _job(n)],
        }
        for n in range(count)
    ]
    return document


@contextmanager
def served(count: int) -> Iterator[tuple[str, float]]:
    """The environment stored as `--load` stores it, served by `inboxdesk serve` in its
    own process; yields its URL and the seconds the load took."""
    from inboxdesk.server.fixtures import load_fixture
    from inboxdesk.server.store import Store

    with tempfile.TemporaryDirectory(prefix="inboxdesk-bench-") as scratch:
        db = Path(scratch) / "across.db"
        document = environment(count, datetime.now(UTC))
        started = time.perf_counter()
        store = Store(db)
        load_fixture(store, document)
        store.close()
        loaded = time.perf_counter() - started
        del document
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "inboxdesk", "serve", "--db", str(db), "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{url}/openapi.json", timeout=1)
                break
            except httpx.TransportError:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = process.stderr.read().decode() if process.stderr else ""
                    raise RuntimeError(said) from None
                time.sleep(0.05)
        try:
            yield url, loaded
        finally:
            process.terminate()
            process.wait()


def feed_times(url: str) -> dict[str, float]:
    """Page 0 and page 39 across everyone over the last 24 hours, interleaved."""
    after = (datetime.now(UTC) - timedelta(hours=24)).isoformat()
    times: dict[int, list[float]] = {0: [], 39: []}
    with httpx.Client(base_url=url, headers={"Authorization": f"ApiKey {KEY}"}) as http:
        for n in range(RUNS * 2 + 2):
            page = (0, 39)[n % 2]
            started = time.perf_counter()
            answer = http.get(
                "/v1/notifications", params={"page": page, "limit": 50, "after": after}
            )
            if n >= 2:
                times[page].append(time.perf_counter() - started)
            assert answer.status_code == 200
    return {f"page{p}_ms": statistics.median(t) * 1000 for p, t in times.items()}


async def app_times(url: str) -> dict[str, float]:
    from inboxdesk.config import Settings
    from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable, GroupTable, ScanPage
    from inboxdesk.tui.app import make_app
    from inboxdesk.tui.inbox.screen import InboxScreen

    # Each page of a scan that shows rows (or groups) asks to be told after the next
    # refresh: the frame that shows them.
    painted: list[tuple[float, float, bool]] = []
    on_scan_page = ActivityScreen.on_scan_page

    def hooked(self: ActivityScreen, event: ScanPage) -> None:
        on_scan_page(self, event)
        shown = self.query_one(GroupTable if self.grouped else ActivityTable).row_count
        if shown:
            done = event.done
            self.call_after_refresh(
                lambda: painted.append((time.perf_counter(), time.process_time(), done))
            )

    ActivityScreen.on_scan_page = hooked  # type: ignore[method-assign]

    async def until(pilot: Any, condition: Any, what: str) -> None:
        deadline = time.monotonic() + 120
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(what)
            await asyncio.sleep(0.0005)

    app = make_app(Settings(base_url=url, api_key=KEY), subscriber_id="ada")
    app.animation_level = "none"
    first: list[float] = []
    cpu: list[float] = []
    grouped: dict[str, float] = {}
    async with app.run_test(size=(150, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InboxScreen), "the inbox")
        await pilot.pause(0.3)
        await pilot.press("4")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen), "Activity")
        screen = app.screen
        assert isinstance(screen, ActivityScreen)
        await until(pilot, lambda: screen.table.row_count > 0, "Ada's activity")
        for _ in range(RUNS):
            painted.clear()
            started, used = time.perf_counter(), time.process_time()
            app.post_message(events.Key("a", "a"))
            await until(pilot, lambda: bool(painted), "the first page across everyone")
            first.append(painted[0][0] - started)
            cpu.append(painted[0][1] - used)
            await screen.workers.wait_for_complete()
            app.post_message(events.Key("a", "a"))  # back to Ada
            await until(pilot, lambda: not screen.everyone and screen.table.row_count, "Ada")
            await screen.workers.wait_for_complete()
        app.post_message(events.Key("a", "a"))
        await until(pilot, lambda: bool(painted), "everyone again")
        await screen.workers.wait_for_complete()
        painted.clear()
        started = time.perf_counter()
        app.post_message(events.Key("b", "b"))
        await until(pilot, lambda: any(done for *_, done in painted), "the whole scan grouped")
        grouped = {
            "groups_first_ms": (painted[0][0] - started) * 1000,
            "groups_all_ms": (painted[-1][0] - started) * 1000,
            "groups": float(len(screen.groups)),
            "scanned": float(screen.grouping.scanned),
        }
    return grouped | {
        "first_ms": statistics.median(first) * 1000,
        "first_max_ms": max(first) * 1000,
        "first_cpu_ms": statistics.median(cpu) * 1000,
    }


def bare_first_paint() -> float:
    """A bare Textual app's start to first paint, median of BARE_RUNS (ms)."""
    from benchmarks.startup import BARE, run_child

    run_child(BARE)  # warm-up
    return statistics.median(run_child(BARE)[0] for _ in range(BARE_RUNS)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.across")
    parser.add_argument("--notifications", type=int, default=NOTIFICATIONS)
    count = parser.parse_args().notifications
    print(f"building {count:,} notifications over {DAYS} days, {SUBSCRIBERS:,} subscribers…")
    with served(count) as (url, loaded):
        print(f"stored as --load stores them in {loaded:.0f} s")
        feed = feed_times(url)
        print(
            f"feed across everyone, last 24 h, over HTTP: page 0 {feed['page0_ms']:.1f} ms, "
            f"page 39 {feed['page39_ms']:.1f} ms (median of {RUNS})"
        )
        app = asyncio.run(app_times(url))
    budget = 2 * bare_first_paint()
    met = "met" if app["first_ms"] <= budget else "MISSED"
    print(
        f"app: `a` to the first frame of the across-everyone view's rows: "
        f"{app['first_ms']:.0f} ms median of {RUNS} (max {app['first_max_ms']:.0f} ms; "
        f"{app['first_cpu_ms']:.0f} ms of the app's CPU); "
        f"the first-frame budget (2x a bare Textual app's first paint) {budget:.0f} ms: {met}"
    )
    print(
        f"app: `b`, the whole bounded scan grouped ({app['scanned']:,.0f} notifications in "
        f"{-(-app['scanned'] // 50):.0f} pages, {app['groups']:.0f} groups): first groups on "
        f"screen {app['groups_first_ms']:.0f} ms, the last page's {app['groups_all_ms']:.0f} ms"
    )
    print("grouping 10,000 notifications' CPU and follow mode's memory: benchmarks.grouping")
    print(f"load average while measured: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
