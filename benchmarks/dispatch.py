"""Messages dispatched per second to a screen of 40 widgets, Textual's own way against
the app's (private_apis: `find_handlers_once_per_class`, `count_parameters_from_code`).

Usage: .venv/bin/python -m benchmarks.dispatch [RUNS]

Each run is a process of its own, the two ways alternating: a headless app (100x30) of
40 widgets (Static, Label, Button, Input, containers, a footer), settled, is sent ROUNDS
rounds of one callback to every widget (what a Pilot pause sends, and a `call_later`),
each round awaited; every callback is a closure made for it, as Textual's own are. The
figure is the median over RUNS runs (5 unless given) of the messages each widget handled
(the callback and the idle after it) per CPU second of the app.
"""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks.common import median

ROUNDS = 300

CHILD = """
import asyncio, json, sys, time
from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Static

if sys.argv[1] == "app":
    from inboxdesk.private_apis import count_parameters_from_code, find_handlers_once_per_class
    find_handlers_once_per_class()
    count_parameters_from_code()

class Forty(App):
    BINDINGS = [(key, "bell", key) for key in "abcdefgh"]

    def compose(self):
        with Vertical():
            for row in range(7):
                with Horizontal():
                    yield Label(f"label {row}")
                    yield Static(f"static {row}")
                    yield Button(f"button {row}")
                    yield Input(value=f"input {row}")
        yield Footer()

async def main(rounds):
    app = Forty()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        widgets = list(app.screen.walk_children(with_self=True))
        start = time.process_time()
        for _ in range(rounds):
            done = asyncio.Event()
            left = len(widgets)
            for widget in widgets:
                def handled():
                    nonlocal left
                    left -= 1
                    if not left:
                        done.set()
                widget.call_later(handled)
            await done.wait()
        seconds = time.process_time() - start
    print(json.dumps({"widgets": len(widgets), "messages": 2 * len(widgets) * rounds,
                      "seconds": seconds}))

asyncio.run(main(int(sys.argv[2])))
"""


def once(way: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, way, str(ROUNDS)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def measure(runs: int = 5) -> dict[str, list[dict[str, float]]]:
    results: dict[str, list[dict[str, float]]] = {"textual": [], "app": []}
    for _ in range(runs):
        for way in results:
            results[way].append(once(way))
    return results


def report(results: dict[str, list[dict[str, float]]]) -> str:
    lines = []
    for way, runs in results.items():
        rates = [run["messages"] / run["seconds"] for run in runs]
        lines.append(
            f"{way:8} {int(runs[0]['widgets'])} widgets: {median(rates):,.0f} messages/s "
            f"(runs: {', '.join(f'{rate:,.0f}' for rate in rates)})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
