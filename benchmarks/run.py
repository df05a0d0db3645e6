"""Run every benchmark and print the figures; `--write` also refreshes BENCHMARKS.md.

Usage: .venv/bin/python -m benchmarks.run [--write]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import bulk, growth, latency, load, scale, startup
from benchmarks.common import machine

SECTIONS: list[tuple[str, str, Callable[[], Any], Callable[[Any], str]]] = [
    ("1. Start-up", "python -m benchmarks.startup", startup.measure, startup.report),
    ("2. Action latency", "python -m benchmarks.latency", latency.measure, latency.report),
    ("3. Scale of one inbox", "python -m benchmarks.scale", scale.measure, scale.report),
    ("4. Bulk", "python -m benchmarks.bulk", bulk.measure, bulk.report),
    ("5. The local service under load", "python -m benchmarks.load", load.measure, load.report),
    ("6. Growth", "python -m benchmarks.growth", growth.measure, growth.report),
]
MARKER = "<!-- figures -->"


def main() -> int:
    started = time.perf_counter()
    parts = [f"Machine: {machine()}.", ""]
    for title, command, measure, report in SECTIONS:
        began = time.perf_counter()
        text = report(measure())
        parts += [
            f"### {title}",
            "",
            f"`.venv/bin/{command}` ({time.perf_counter() - began:.0f} s)",
            "",
            text,
            "",
        ]
        print("\n".join(parts[-6:]), flush=True)
    total = time.perf_counter() - started
    parts.append(f"All figures in {total:.0f} s.")
    print(parts[-1])
    if "--write" in sys.argv:
        path = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"
        text = path.read_text()
        head = text.split(MARKER)[0]
        path.write_text(f"{head}{MARKER}\n\n" + "\n".join(parts) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
