"""Run every benchmark in one go; print the figures, and write them as JSON and Markdown.

Usage: .venv/bin/python -m benchmarks.run [--json PATH] [--write]

`--json PATH` writes every figure as a list of {"name", "value", "unit", "target",
"met"}; `--write` regenerates the figures section of BENCHMARKS.md from the same run,
with a table of each target against its figure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import bulk, growth, jump, latency, load, startup
from benchmarks.common import Figure, machine

Section = tuple[str, str, Callable[[], Any], Callable[[Any], str], Callable[[Any], list[Figure]]]
SECTIONS: list[Section] = [
    ("1. Start-up", "startup", startup.measure, startup.report, startup.figures),
    ("2. Action latency and bulk marks", "latency", latency.measure, latency.report,
     latency.figures),
    ("3. Jump, page and scroll", "jump", jump.measure, jump.report, jump.figures),
    ("4. A 1,000-message selection", "bulk", bulk.measure, bulk.report, bulk.figures),
    ("5. The local service under load", "load", load.measure, load.report, load.figures),
    ("6. Growth of the service", "growth", growth.measure, growth.report, growth.figures),
]  # fmt: skip
MARKER = "<!-- figures -->"


def targets_table(figures: list[Figure]) -> str:
    lines = ["| figure | value | target | met |", "|---|---|---|---|"]
    for f in figures:
        met = {True: "yes", False: "**no**", None: "(tracked)"}[f.met]
        value = f"{f.value:,.0f}" if abs(f.value) >= 100 else f"{f.value:.2f}"
        lines.append(f"| `{f.name}` | {value} {f.unit} | {f.target or '—'} | {met} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run")
    parser.add_argument("--json", type=Path, help="write every figure to this file as JSON")
    parser.add_argument("--write", action="store_true", help="regenerate BENCHMARKS.md")
    parser.add_argument("--only", nargs="*", help="run only these sections (by module name)")
    args = parser.parse_args()
    started = time.perf_counter()
    figures: list[Figure] = []
    parts: list[str] = []
    for title, name, measure, report, to_figures in SECTIONS:
        if args.only and name not in args.only:
            continue
        began = time.perf_counter()
        result = measure()
        figures += to_figures(result)
        parts += [
            f"### {title}",
            "",
            f"`.venv/bin/python -m benchmarks.{name}` ({time.perf_counter() - began:.0f} s)",
            "",
            report(result),
            "",
        ]
        print("\n".join(parts[-6:]), flush=True)
    total = time.perf_counter() - started
    head = [
        f"Machine: {machine()}. All figures from one run of "
        f"`python -m benchmarks.run --json benchmarks/figures.json --write`, in {total:.0f} s.",
        "",
        "### Targets against figures",
        "",
        targets_table(figures),
        "",
    ]
    print("\n".join(head))
    if args.json:
        args.json.write_text(json.dumps([f.as_json() for f in figures], indent=2) + "\n")
        print(f"wrote {args.json}")
    if args.write:
        path = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"
        text = path.read_text()
        path.write_text(f"{text.split(MARKER)[0]}{MARKER}\n\n" + "\n".join(head + parts) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
