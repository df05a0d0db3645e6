"""What a demo's start costs: the CPU of building the demo's data, of loading it into a
fresh store and of building the service's app, and the wall time of `inboxdesk serve
--demo` from launch to its service answering.

Each CPU figure is the median over RUNS fresh processes (the first call, as a user's
start pays it) and, for the app, a second call in the same process too (as a test run
that builds several pays it).

Usage: .venv/bin/python -m benchmarks.seeding [RUNS]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.common import cpu_seconds, free_port, median

CHILD = """
import json, sys, time
from datetime import UTC, datetime
from pathlib import Path

from inboxdesk.server.app import create_app
from inboxdesk.server.demo import demo_fixture
from inboxdesk.server.fixtures import load_fixture
from inboxdesk.server.settings import ServerSettings
from inboxdesk.server.store import Store

folder = Path(sys.argv[1])
now = datetime(2026, 11, 20, 12, tzinfo=UTC)
cpu = time.process_time
figures = {}
started = cpu()
demo = demo_fixture(now)
figures["demo_fixture"] = cpu() - started
store = Store(folder / "demo.db")
started = cpu()
load_fixture(store, demo, checked=False)
figures["load_fixture"] = cpu() - started
settings = ServerSettings(db_path=folder / "demo.db", context_preferences=True)
started = cpu()
create_app(settings, store)
figures["create_app"] = cpu() - started
# What the collector left to do after the first two is paid in the third: together.
figures["the three together"] = sum(figures.values())
started = cpu()
create_app(settings, store)
figures["create_app, again"] = cpu() - started
print(json.dumps(figures))
"""


def in_process(runs: int) -> dict[str, float]:
    """Each figure's median CPU-s over `runs` fresh processes."""
    seen: dict[str, list[float]] = {}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="inboxdesk-bench-") as scratch:
            out = subprocess.run(
                [sys.executable, "-c", CHILD, scratch], capture_output=True, text=True, check=True
            ).stdout
        for name, value in json.loads(out).items():
            seen.setdefault(name, []).append(value)
    return {name: median(values) for name, values in seen.items()}


def serve_demo() -> tuple[float, float]:
    """Seconds and CPU-seconds from launching `inboxdesk serve --demo` to its service's
    first answer."""
    with tempfile.TemporaryDirectory(prefix="inboxdesk-bench-") as scratch:
        port = free_port()
        url = f"http://127.0.0.1:{port}/v1/integrations"
        command = [sys.executable, "-m", "inboxdesk", "serve", "--demo"]
        command += ["--db", str(Path(scratch) / "demo.db"), "--port", str(port)]
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while True:
                try:
                    httpx.get(url, timeout=1)  # any answer, a 401 included
                    wall = time.perf_counter() - started
                    return wall, cpu_seconds(process.pid)
                except httpx.TransportError:
                    if process.poll() is not None:
                        raise RuntimeError(
                            process.stderr.read().decode() if process.stderr else ""
                        ) from None
                    time.sleep(0.01)
        finally:
            process.terminate()
            process.wait()


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print("| step | median |\n|---|---|")
    for name, value in in_process(runs).items():
        print(f"| {name} | {value:.3f} CPU-s |")
    served = [serve_demo() for _ in range(runs)]
    wall, cpu = median([w for w, _ in served]), median([c for _, c in served])
    print(f"| `serve --demo`, launch to first answer | {wall:.2f} s, {cpu:.2f} CPU-s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
