"""What a process of ours pays before its first request: the CPU of fresh processes.

Each child is a new Python process, measured by its own CPU time (user + system, as
the kernel counts it for a waited-for child), so another program's load on a shared
machine weighs less than on a wall-clock figure. The children:

- `import inboxdesk.server.app`: what the service (`serve`, `demo`) imports;
- `import inboxdesk.cli`: what every command imports before it parses its line;
- `inboxdesk serve --help`: a whole command that stops at its first output;
- `inboxdesk messages ada`: one command against a running service, from
  the command line to its last line of output.

Usage: .venv/bin/python -m benchmarks.process_start [--runs N] [SRC ...]
With SRC folders (a `src` of another checkout of inboxdesk), each child runs once per
SRC in turn, for an A/B of two versions on the same machine at the same moment.
"""

from __future__ import annotations

import argparse
import compileall
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import inboxdesk
from benchmarks.common import median, service
from benchmarks.startup import app_environment

CHILDREN: dict[str, list[str]] = {
    "import inboxdesk.server.app": ["-c", "import inboxdesk.server.app"],
    "import inboxdesk.cli": ["-c", "import inboxdesk.cli"],
    "inboxdesk serve --help": ["-m", "inboxdesk", "serve", "--help"],
    "inboxdesk messages": ["-m", "inboxdesk", "messages", "ada"],
}


def cpu_of(args: list[str], env: dict[str, str]) -> float:
    """The CPU seconds of one child, from its start to its exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(sources: list[str], runs: int) -> dict[str, dict[str, float]]:
    """The median CPU of each child for each source, its runs alternated."""
    for src in sources:
        compileall.compile_dir(Path(src) / "inboxdesk", quiet=1)  # as installed
    seconds: dict[str, dict[str, list[float]]] = {
        name: {src: [] for src in sources} for name in CHILDREN
    }
    with service({"ada": 100}) as svc, tempfile.TemporaryDirectory() as home:
        base = app_environment(svc.url, home)
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        envs = {src: {**base, "PYTHONPATH": src} for src in sources}
        for name, args in CHILDREN.items():
            for src in sources:
                cpu_of(args, envs[src])  # warm the page cache
            for _ in range(runs):
                for src in sources:
                    seconds[name][src].append(cpu_of(args, envs[src]))
    return {name: {src: median(v) for src, v in by.items()} for name, by in seconds.items()}


def report(result: dict[str, dict[str, float]], sources: list[str]) -> str:
    head = "| child (CPU, median) | " + " | ".join(sources) + " |"
    lines = [head, "|---" * (len(sources) + 1) + "|"]
    for name, by in result.items():
        cells = " | ".join(f"{by[src] * 1000:.0f} ms" for src in sources)
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.process_start")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("sources", nargs="*", metavar="SRC")
    args = parser.parse_args()
    sources = args.sources or [str(Path(inboxdesk.__file__).parent.parent)]
    print(report(measure(sources, args.runs), sources))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
