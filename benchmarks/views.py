"""The first switch to each view, and help opened: the app's own CPU from the key to the
view shown with its data, every worker done.

Usage: .venv/bin/python -m benchmarks.views [RUNS]

The demo is served by `inboxdesk serve` in its own process, so that this process's CPU
time (`time.process_time()`) is the app's alone. Each run boots a new app (150x40,
headless) on Ada's inbox, waits for it to settle, then presses one view's key and waits
until that view is the screen and the app has settled again; the figure is the median
over RUNS runs (5 unless given) of the CPU seconds between the key and then.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from tests.waiting import until_async

from benchmarks.common import KEY, NOW, median, serve_fixture
from inboxdesk.client import InboxClient
from inboxdesk.config import Settings
from inboxdesk.server.demo import demo_fixture
from inboxdesk.tui.app import InboxdeskApp, make_app
from inboxdesk.writes import WriteStore

# (key, the view's screen id; help's, its class's name)
VIEWS = (("4", "activity"), ("5", "preferences"), ("2", "integrations"), ("3", "history"),
         ("6", "subscriber"), ("question_mark", "help"))  # fmt: skip
SIZE = (150, 40)


def document() -> dict[str, Any]:
    """The demo, its first environment reachable with the benchmarks' key."""
    demo = demo_fixture(NOW)
    first, *others = demo["environments"]
    return {**demo, "environments": [{**first, "apiKey": KEY}, *others]}


def settled(app: InboxdeskApp) -> bool:
    return all(worker.is_finished for worker in app.workers)


def showing(app: InboxdeskApp, name: str) -> bool:
    screen = app.screen
    return screen.id == name or type(screen).__name__.lower() == f"{name}screen"


async def first_switch(url: str, key: str, screen_id: str) -> float:
    """The app's CPU seconds from `key` on a settled inbox to the view settled."""
    config = Settings(base_url=url, api_key=KEY)
    app = make_app(
        config,
        client=InboxClient(url, KEY),
        subscriber_id="ada.lovelace",
        clock=lambda: NOW,
        writes=WriteStore(None),
    )
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await until_async(lambda: app.screen.id == "inbox" and settled(app))
        await pilot.pause()
        began = time.process_time()
        await pilot.press(key)
        await until_async(lambda: showing(app, screen_id) and settled(app))
        await pilot.pause()
        return time.process_time() - began


async def measure_all(url: str, runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for _, name in VIEWS}
    for _ in range(runs):  # the views alternate, so that a noisy moment spreads over all
        for key, name in VIEWS:
            times[name].append(await first_switch(url, key, name))
    return {name: median(values) * 1000 for name, values in times.items()}


def measure(runs: int = 5) -> dict[str, float]:
    with serve_fixture(document()) as running:
        return asyncio.run(measure_all(running.url, runs))


def report(result: dict[str, float]) -> str:
    return "\n".join(f"{name:<13} {ms:6.1f} ms CPU (median)" for name, ms in result.items())


if __name__ == "__main__":
    result = measure(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    print(report(result))
    print(json.dumps(result))
