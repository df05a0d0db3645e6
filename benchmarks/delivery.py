"""Delivery: a subscriber with 10,000 notifications, and a timeline of 20 jobs x 10 details.

Usage: .venv/bin/python -m benchmarks.delivery

- The activity feed's first and last full page (50 each) over HTTP from the service in
  its own process, interleaved, median of RUNS requests each: the last may cost at
  most 1.5x the first; and the same two pages read from the store (CPU time).
- The app, headless, against the same service: `4` to Activity's first rows, and Enter
  on a notification of 20 jobs x 10 details to its timeline on screen (the
  first frame drawn: a callback after the mount's refresh), median of RUNS opens, in
  wall-clock time and in the app process's CPU time (which other processes on a busy
  machine do not inflate); the target is 50 ms. Figures are printed, never asserted in tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from typing import Any

import httpx
from textual import events

from benchmarks.common import KEY, serve_fixture

SUBSCRIBER = "ada"
NOTIFICATIONS = 10_000
RUNS = 15
BIG_JOBS, BIG_DETAILS = 20, 10


def _at(n: int) -> str:
    seconds = 1_700_000_000 + n * 60
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(seconds))


def _job(kind: str, details: int) -> dict[str, Any]:
    items = [
        {"status": "Pending", "detail": "Message created"},
        {"status": "Success", "detail": "Message sent", "raw": json.dumps({"id": "x" * 20})},
    ]
    return {
        "type": kind,
        "status": "completed",
        "executionDetails": (items * details)[:details],
    }


def fixture() -> dict[str, Any]:
    channels = ["in_app", "email", "sms"]
    notifications = [
        {
            "subscriberId": SUBSCRIBER,
            "workflow": "Order shipped",
            "transactionId": f"t{n}",
            "createdAt": _at(n),
            "jobs": [_job(c, 2) for c in channels],
        }
        for n in range(NOTIFICATIONS)
    ]
    # The newest: the big one the timeline opens.
    notifications.append(
        {
            "subscriberId": SUBSCRIBER,
            "workflow": "Order shipped",
            "transactionId": "big",
            "createdAt": _at(NOTIFICATIONS + 1),
            "jobs": [_job(channels[n % 3], BIG_DETAILS) for n in range(BIG_JOBS)],
        }
    )
    return {
        "environments": [
            {
                "name": "Bench",
                "apiKey": KEY,
                "workflows": [{"name": "Order shipped"}],
                "subscribers": [{"subscriberId": SUBSCRIBER, "firstName": "Ada"}],
                "messages": [
                    {
                        "subscriberId": SUBSCRIBER,
                        "workflow": "Order shipped",
                        "transactionId": "big",
                        "title": "The big one",
                    }
                ],
                "notifications": notifications,
            }
        ]
    }


def page_times(url: str, pages: tuple[int, int]) -> tuple[list[float], list[float]]:
    """Each page's request times, the two pages interleaved so that a busy moment of
    the machine weighs on both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    with httpx.Client(base_url=url, headers={"Authorization": f"ApiKey {KEY}"}) as http:
        for n in range(RUNS * 2 + 2):
            query = {"subscriberIds": SUBSCRIBER, "limit": 50, "page": pages[n % 2]}
            started = time.perf_counter()
            answer = http.get("/v1/notifications", params=query)
            if n >= 2:  # the first of each warms up
                times[n % 2].append(time.perf_counter() - started)
            assert answer.status_code == 200 and len(answer.json()["data"]) == 50
    return times


def store_times(db: str, pages: tuple[int, int]) -> tuple[list[float], list[float]]:
    """The same pages read from the store itself: the query and the documents, no HTTP."""
    from inboxdesk.server.store import ActivityQuery, Caller, Store

    store = Store(db)
    row = store.read().execute("SELECT environment_id FROM notifications LIMIT 1").fetchone()
    caller = Caller(row[0], "")
    times: tuple[list[float], list[float]] = ([], [])
    for n in range(RUNS * 4 + 2):
        query = ActivityQuery(page=pages[n % 2], limit=50, subscriber_ids=[SUBSCRIBER])
        started = time.process_time()
        found = store.list_activity(caller, query)
        if n >= 2:
            times[n % 2].append(time.process_time() - started)
        assert found is not None and len(found) == 50
    return times


async def app_times(url: str) -> tuple[float, list[tuple[float, float]]]:
    from inboxdesk.config import Settings
    from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
    from inboxdesk.tui.activity.timeline import TimelineScreen
    from inboxdesk.tui.app import make_app
    from inboxdesk.tui.inbox.screen import InboxScreen

    # The clock stops once the timeline's first frame is drawn: each time it is shown it
    # asks to be told after the next refresh, as the start-up benchmark's first page does.
    painted: list[tuple[float, float]] = []
    resume = TimelineScreen.on_screen_resume

    def on_screen_resume(self: TimelineScreen) -> None:
        resume(self)
        self.call_after_refresh(lambda: painted.append((time.perf_counter(), time.process_time())))

    TimelineScreen.on_screen_resume = on_screen_resume  # type: ignore[method-assign]
    app = make_app(Settings(base_url=url, api_key=KEY), subscriber_id=SUBSCRIBER)
    app.animation_level = "none"
    opens: list[tuple[float, float]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, InboxScreen) and app.screen.is_mounted):
            await pilot.pause(0.01)
        await pilot.pause(0.3)
        started = time.perf_counter()
        await pilot.press("4")
        while not (
            isinstance(app.screen, ActivityScreen)
            and app.screen.query_one(ActivityTable).row_count >= 50
        ):
            await pilot.pause(0.001)
        first_page = time.perf_counter() - started
        for _ in range(RUNS):
            table = app.screen.query_one(ActivityTable)
            table.move_cursor(row=0)
            await pilot.pause()
            painted.clear()
            started, cpu = time.perf_counter(), time.process_time()
            app.post_message(events.Key("enter", "\r"))
            while not painted:
                if time.perf_counter() - started > 30:
                    raise TimeoutError("the timeline never showed")
                await asyncio.sleep(0.0002)
            opens.append((painted[0][0] - started, painted[0][1] - cpu))
            await app.screen.workers.wait_for_complete()
            await pilot.press("escape")
            while not isinstance(app.screen, ActivityScreen):
                await pilot.pause(0)
    return first_page, opens


def main() -> None:
    print(f"building a service with {NOTIFICATIONS:,} notifications for one subscriber…")
    with serve_fixture(fixture(), start_within=300) as running:
        url, db = running.url, str(running.db)
        last_page = NOTIFICATIONS // 50 - 1  # the last full page (one more holds one)
        first, last = (statistics.median(t) for t in page_times(url, (0, last_page)))
        print(
            f"activity feed over HTTP, first page of 50: {first * 1000:.1f} ms (median of {RUNS})"
        )
        print(
            f"activity feed over HTTP, last page ({last_page}) of 50: {last * 1000:.1f} ms "
            f"= {last / first:.2f}x the first (target at most 1.5x)"
        )
        first, last = (statistics.median(t) for t in store_times(db, (0, last_page)))
        print(
            f"the store alone (CPU), first page {first * 1000:.2f} ms, last "
            f"{last * 1000:.2f} ms = {last / first:.2f}x"
        )
        shown, opens = asyncio.run(app_times(url))
        print(f"app: 4 to Activity's first 50 rows: {shown * 1000:.0f} ms")
        wall = [w for w, _ in opens]
        cpu = [c for _, c in opens]
        print(
            f"app: Enter to a timeline of {BIG_JOBS} jobs x {BIG_DETAILS} details on screen: "
            f"median {statistics.median(wall) * 1000:.1f} ms wall, "
            f"{statistics.median(cpu) * 1000:.1f} ms of the app's CPU "
            f"(max {max(wall) * 1000:.1f} ms wall) over {RUNS} (target 50 ms)"
        )
        print(f"load average while measured: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
