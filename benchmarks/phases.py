"""Where start-up's imports go: the clock and the resident memory after each group of
imports, in the order the app needs them, each group in a fresh process.

Usage: .venv/bin/python -m benchmarks.phases [RUNS]
"""

from __future__ import annotations

import subprocess
import sys

from benchmarks.common import median

CHILD = """
import time
started = time.perf_counter()


def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024


def step():
    print(time.perf_counter() - started, rss())


step()
from inboxdesk.gc_paused import collector_paused

with collector_paused():
    from textual.app import App
    from textual.widgets import DataTable, Footer, Header
    step()
    import pydantic, pydantic_settings
    from inboxdesk.models.base import ApiModel
    step()
    import httpx
    step()
    from inboxdesk.config import Settings
    from inboxdesk.tui.app import InboxdeskApp
    from inboxdesk.tui.inbox.screen import InboxScreen
    step()
"""

STEPS = [
    "textual and the bare app's widgets",
    "pydantic and pydantic-settings",
    "httpx (it imports its own command-line client: click, pygments)",
    "inboxdesk's modules for the first frame",
]


def measure(runs: int = 5) -> list[tuple[str, float, float]]:
    """(step, ms it added, MiB it added), medians over `runs` fresh processes."""
    seen: list[list[tuple[float, float]]] = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        seen.append([(float(t), float(m)) for t, m in (line.split() for line in out if line)])
    rows = []
    for n, name in enumerate(STEPS, start=1):
        ms = median([(run[n][0] - run[n - 1][0]) * 1000 for run in seen])
        mib = median([run[n][1] - run[n - 1][1] for run in seen])
        rows.append((name, ms, mib))
    return rows


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print("| step | time | memory |\n|---|---|---|")
    for name, ms, mib in measure(runs):
        print(f"| {name} | +{ms:.0f} ms | +{mib:.1f} MiB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
