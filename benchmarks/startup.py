"""1. Start-up: process start to the first inbox page painted, against a bare Textual app.

The parent passes the wall-clock time just before it spawns the child; the child
prints the seconds from then to its first paint (the bare app's first frame; the app's
first frame with rows), and its peak RSS. Teardown is left out: the user is already
reading by then. Bare and app runs alternate.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import inboxdesk
from benchmarks.common import KEY, Figure, median, service

# VmHWM is this process's own peak: ru_maxrss would count the forked parent's pages too.
PEAK = """
def peak_kib():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
"""

BARE = (
    PEAK
    + """
import sys, time
from textual.app import App
from textual.widgets import DataTable, Footer, Header

class Bare(App):
    def compose(self):
        yield Header()
        yield DataTable()
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.painted)

    def painted(self):
        global PAINTED
        PAINTED = time.time() - float(sys.argv[1])
        self.exit()

Bare().run(headless=True, size=(150, 40))
print(PAINTED, peak_kib())
"""
)

APP = (
    PEAK
    + """
import sys, time
STARTED = float(sys.argv[1])
from inboxdesk.entry import main
from inboxdesk.gc_paused import collector_paused
from inboxdesk.private_apis import skip_httpx_command_line

skip_httpx_command_line()  # the console script's main does it first (entry.py)

# The app starts as a user starts it: the console script's main, with the command line
# `inboxdesk --subscriber ada` and the service and key in the environment (run_child).
# Two hooks: the clock stops right after the first frame that shows rows (showing the
# first page queues it, as the bare app's on_mount does, to run after the next
# refresh), and the app runs headless at the bare app's size. The hooks' classes are
# imported first, as `inboxdesk tui` imports them (cli/app_commands.py, app_class).
with collector_paused():
    from inboxdesk.tui.app import InboxdeskApp
    from inboxdesk.tui.inbox.screen import InboxScreen

show_page = InboxScreen.show_page

def shown(self, event):
    show_page(self, event)
    if self.table.row_count:
        self.call_after_refresh(painted, self.app)

InboxScreen.show_page = shown

def painted(app):
    global PAINTED
    if "PAINTED" not in globals():
        PAINTED = time.time() - STARTED
        app.exit()

run = InboxdeskApp.run
InboxdeskApp.run = lambda self, **_: run(self, headless=True, size=(150, 40))
sys.argv = ["inboxdesk", "--subscriber", "ada"]
main()
print(PAINTED, peak_kib())
"""
)


def app_environment(base_url: str, home: str) -> dict[str, str]:
    """The app child's environment: the service and key, and an empty home, so that no
    config file, history or variable of the machine's user takes part."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("INBOXDESK_", "NOVU_"))}
    return {
        **keep,
        "HOME": home,
        "XDG_CONFIG_HOME": f"{home}/.config",
        "XDG_DATA_HOME": f"{home}/.local/share",
        "XDG_STATE_HOME": f"{home}/.local/state",
        "INBOXDESK_BASE_URL": base_url,
        "NOVU_SECRET_KEY": KEY,
    }


def run_child(code: str, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Seconds from spawn to first paint, and the child's peak RSS in MiB."""
    done = subprocess.run(
        [sys.executable, "-c", code, repr(time.time())],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=env,
    )
    seconds, rss = done.stdout.strip().splitlines()[-1].split()
    return float(seconds), int(rss) / 1024


def measure(runs: int = 15) -> dict[str, float]:
    bare: list[tuple[float, float]] = []
    app: list[tuple[float, float]] = []
    # An installed app starts from bytecode, as Textual does here: pip compiles what it
    # installs. An editable checkout under PYTHONDONTWRITEBYTECODE would compile
    # inboxdesk's sources again in every run (about 40 ms), which no user pays.
    compileall.compile_dir(Path(inboxdesk.__file__).parent, quiet=1)
    with service({"ada": 100}) as svc, tempfile.TemporaryDirectory() as home:
        env = app_environment(svc.url, home)
        run_child(APP, env)  # warm the page cache and the service
        # Alternated, so that a noisy moment of a shared machine weighs on both alike.
        for _ in range(runs):
            bare.append(run_child(BARE))
            app.append(run_child(APP, env))
    result = {
        "bare_s": median([t for t, _ in bare]),
        "app_s": median([t for t, _ in app]),
        "bare_mib": median([m for _, m in bare]),
        "app_mib": median([m for _, m in app]),
    }
    result["time_ratio"] = result["app_s"] / result["bare_s"]
    result["memory_ratio"] = result["app_mib"] / result["bare_mib"]
    return result


def figures(r: dict[str, float]) -> list[Figure]:
    return [
        Figure("startup.bare_first_paint", r["bare_s"] * 1000, "ms", "", None),
        Figure("startup.app_first_page", r["app_s"] * 1000, "ms", "", None),
        Figure("startup.time_ratio", r["time_ratio"], "ratio", "≤ 2", r["time_ratio"] <= 2),
        Figure(
            "startup.memory_ratio", r["memory_ratio"], "ratio", "≤ 1.5", r["memory_ratio"] <= 1.5
        ),
    ]


def report(r: dict[str, float]) -> str:
    return (
        "| | bare Textual app | inboxdesk, first inbox page | ratio |\n"
        "|---|---|---|---|\n"
        f"| start to first paint | {r['bare_s'] * 1000:.0f} ms | {r['app_s'] * 1000:.0f} ms | "
        f"{r['time_ratio']:.2f} (target ≤ 2) |\n"
        f"| peak memory (RSS) | {r['bare_mib']:.1f} MiB | {r['app_mib']:.1f} MiB | "
        f"{r['memory_ratio']:.2f} (target ≤ 1.5) |"
    )


if __name__ == "__main__":
    print(report(measure()))
