"""Waiting for a condition, never for a fixed time: the one set of helpers that tests,
the screenshot script and the benchmarks share."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from textual.app import App, ScreenStackError
from textual.css.query import NoMatches
from textual.pilot import Pilot

from inboxdesk.private_apis import draw_frame

T = TypeVar("T")


async def until(
    pilot: Pilot[None],
    condition: Callable[[], object],
    timeout: float = 8.0,
    what: str = "condition",
) -> None:
    """Let the app work until `condition` holds (workers, HTTP and messages included).

    Checked after every flush of the app's messages and layout (Pilot's `pause`), and
    every few milliseconds between them. A flush posts a message to every widget of the
    screen and lays it out: one every 5 ms was most of the app tests' time while they
    waited on the service. Between flushes the app runs on its own (its timers refresh
    the screen), so a condition is seen within a few milliseconds of holding.
    A condition that queries a widget not mounted yet (a screen still composing) does
    not hold yet, nor does any while the top screen is still composing (pushed, its
    widgets not all mounted). The state it waited for is drawn (`draw_frame`): in a
    test run a headless app draws only then (tests/conftest.py).
    """
    deadline = time.monotonic() + timeout
    await pilot.pause()
    flushed = time.monotonic()
    while not _holds(condition, pilot.app):
        now = time.monotonic()
        if now > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        if now - flushed >= FLUSH_EVERY:
            await pilot.pause()
            flushed = time.monotonic()
        else:
            await asyncio.sleep(0.005)
    draw_frame(pilot.app)


# How often `until` flushes the app while it waits (seconds).
FLUSH_EVERY = 0.05


def _holds(condition: Callable[[], object], app: App[object]) -> bool:
    try:
        return bool(condition()) and _composed(app)
    except NoMatches:
        return False


def _composed(app: App[object]) -> bool:
    try:
        return app.screen.is_mounted
    except ScreenStackError:  # no screen: nothing is composing
        return True


async def until_async(
    condition: Callable[[], object], timeout: float = 60.0, step: float = 0.0005
) -> None:
    """The same without Pilot, for an app run by other means (benchmarks time it)."""
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise AssertionError(f"timed out waiting for {condition}")
        await asyncio.sleep(step)


def wait_for(
    what: str, probe: Callable[[], T | None], timeout: float = 30.0, step: float = 0.05
) -> T:
    """Poll `probe` from a thread or another process's side until it returns something."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)
