"""2. Action latency and bulk marks: key press to the updated row, against bare httpx.

The app runs headless against the service in its own process. A key event is posted
to the app and the clock stops when the row's cell shows the new state (the next
repaint then draws it). Actions alternate read and unread so every press changes the
rows, with the same pause between actions for the app and for httpx, as a person's
key presses have: back-to-back requests would meet TCP delayed acknowledgements
instead.
"""

from __future__ import annotations

import asyncio
import time

from textual import events

from benchmarks.common import KEY, Figure, async_http, median, message_ids, percentile, service
from inboxdesk.config import Settings
from inboxdesk.tui.app import make_app
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.inbox.table import MessageTable
from inboxdesk.tui.screens.confirm import ConfirmScreen

# Seconds between two actions, for the app and for httpx alike.
GAP = 0.05
WEBHOOK_WARNING = 20  # a mark of more messages asks first


async def app_times(url: str, actions: int, selection: int) -> list[float]:
    app = make_app(Settings(base_url=url, api_key=KEY), subscriber_id="ada")
    app.animation_level = "none"
    times: list[float] = []
    async with app.run_test(size=(150, 40)) as pilot:
        while not (
            isinstance(app.screen, InboxScreen)
            and app.screen.is_mounted
            and app.screen.query_one(MessageTable).row_count >= min(selection, 50)
        ):
            await pilot.pause(0.01)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        table = screen.query_one(MessageTable)
        while any(table.source.row(i) is None for i in range(selection)):
            await pilot.pause(0.01)
        if selection > 1:
            # Exactly the first `selection` rows, the ids httpx marks: `*` would select
            # every loaded row, and the last page is loaded too (the search for the end).
            for _ in range(selection):
                await pilot.press("space")
            while len(screen.selected) < selection:
                await pilot.pause(0.01)
            assert len(screen.selected) == selection
            table.move_to(0)
        target = table.cursor_key
        assert target is not None
        index = table.source.index_of(target)
        assert index is not None
        row = table.source.row(index)
        assert row is not None
        # The first action changes the row whatever it holds (a read row is marked unread
        # first), so that every press changes what it shows.
        first_read = not row.read
        for n in range(actions):
            read = (n % 2 == 0) == first_read
            key = "r" if read else "u"
            shown = (" " if selection == 1 else "✔") + (" " if read else "●")
            if selection > WEBHOOK_WARNING:
                # More than 20 messages: the app asks first (the customer's webhooks);
                # the clock starts at the answer, not the question.
                app.post_message(events.Key(key, key))
                while not isinstance(app.screen, ConfirmScreen):
                    await asyncio.sleep(0.0005)
                key = "y"
            started = time.perf_counter()
            app.post_message(events.Key(key, key))
            while not table.row_text(index).startswith(shown):
                if time.perf_counter() - started > 30:
                    said = "; ".join(n.message for n in app._notifications)
                    raise TimeoutError(f"mark {n} ({key}) never showed; the app said: {said}")
                await asyncio.sleep(0.0002)
            times.append(time.perf_counter() - started)
            await asyncio.sleep(GAP)
    return times


async def http_times(url: str, actions: int, ids: list[str]) -> list[float]:
    times: list[float] = []
    body_ids: str | list[str] = ids[0] if len(ids) == 1 else ids
    async with async_http(url) as http:
        for n in range(actions):
            started = time.perf_counter()
            response = await http.post(
                "/v1/subscribers/ada/messages/mark-as",
                json={"messageId": body_ids, "markAs": "read" if n % 2 == 0 else "unread"},
            )
            response.json()
            times.append(time.perf_counter() - started)
            await asyncio.sleep(GAP)
    return times


def measure(actions: int = 200) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    with service({"ada": 200}) as svc:
        ids = message_ids(svc.url, "ada", 100)
        for label, selection in (("one message", 1), ("100 selected", 100)):
            app = asyncio.run(app_times(svc.url, actions, selection))
            bare = asyncio.run(http_times(svc.url, actions, ids[:selection]))
            results[label] = {
                "app_p50": median(app),
                "app_p95": percentile(app, 95),
                "http_p50": median(bare),
                "http_p95": percentile(bare, 95),
            }
            results[label]["added_p50"] = results[label]["app_p50"] - results[label]["http_p50"]
    return results


def figures(results: dict[str, dict[str, float]]) -> list[Figure]:
    one, bulk = results["one message"], results["100 selected"]
    one_added = one["added_p50"] * 1000
    added_p50 = bulk["added_p50"] * 1000
    added_p95 = (bulk["app_p95"] - bulk["http_p95"]) * 1000
    return [
        Figure("latency.one_added_p50", one_added, "ms", "< 10", one_added < 10),
        Figure("bulk.100_added_p50", added_p50, "ms", "< 5", added_p50 < 5),
        Figure("bulk.100_added_p95", added_p95, "ms", "< 20", added_p95 < 20),
    ]


def report(results: dict[str, dict[str, float]]) -> str:
    lines = [
        "| mark-as on | app p50 | app p95 | httpx p50 | httpx p95 | app adds at p50 | "
        "app adds at p95 |",
        "|---|---|---|---|---|---|---|",
    ]
    targets = {"one message": ("< 10 ms", ""), "100 selected": ("< 5 ms", "< 20 ms")}
    for label, r in results.items():
        p50, p95 = targets[label]
        lines.append(
            f"| {label} | {r['app_p50'] * 1000:.1f} ms | {r['app_p95'] * 1000:.1f} ms | "
            f"{r['http_p50'] * 1000:.1f} ms | {r['http_p95'] * 1000:.1f} ms | "
            f"{r['added_p50'] * 1000:.1f} ms (target {p50}) | "
            f"{(r['app_p95'] - r['http_p95']) * 1000:.1f} ms"
            + (f" (target {p95}) |" if p95 else " |")
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure()))
