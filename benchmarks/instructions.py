"""Start-up in instructions: the bare Textual app and inboxdesk to their first paint
(the same children as benchmarks/startup.py), counted by valgrind's callgrind.

Wall-clock medians on a shared machine move by tens of milliseconds from one run to
the next; an instruction count repeats to 0.1%, so a change of one or two
milliseconds shows. Each child runs about fifty times slower under callgrind.

Usage: .venv/bin/python -m benchmarks.instructions [SRC ...]
With SRC folders (a `src` of another checkout of inboxdesk), each is counted in turn,
for an A/B of two versions against the same service.
"""

from __future__ import annotations

import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import inboxdesk
from benchmarks.common import service
from benchmarks.startup import APP, BARE, app_environment


def count(code: str, env: dict[str, str] | None = None, src: str | None = None) -> int:
    """Instructions the child runs from its start to its first paint (and its exit)."""
    env = dict(os.environ if env is None else env)
    if src is not None:
        env["PYTHONPATH"] = src
    with tempfile.TemporaryDirectory() as out:
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out"]
        done = subprocess.run(
            [*valgrind, sys.executable, "-c", code, repr(time.time())],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        raise RuntimeError(done.stderr[-2000:])
    return int(found.group(1))


def main() -> int:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 1
    sources = sys.argv[1:] or [str(Path(inboxdesk.__file__).parent.parent)]
    for src in sources:
        compileall.compile_dir(Path(src) / "inboxdesk", quiet=1)  # as installed
    bare = count(BARE)
    print(f"bare Textual app: {bare / 1e6:,.0f} M instructions")
    with service({"ada": 100}) as svc, tempfile.TemporaryDirectory() as home:
        for src in sources:
            app = count(APP, app_environment(svc.url, home), src=src)
            ratio = app / bare
            print(f"inboxdesk ({src}): {app / 1e6:,.0f} M instructions, ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
