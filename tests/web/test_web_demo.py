"""`inboxdesk demo --web` in a real headless Chromium (Debian's package, driven by
Playwright): the page shows the inbox, `r` marks the first unread message read, and the
local service agrees.

The screenshot goes to tmp, or to $INBOXDESK_WEB_SCREENSHOT (screenshots/make.py sets it
for the README's screenshots/web-inbox.png). With no browser the test is skipped, and
fails when $CI is set: CI must run it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from inboxdesk.server.demo import demo_fixture

KEY = "web-demo-key-0123456789abcdef"
CHROMIUM = os.environ.get("INBOXDESK_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium's own calls home are refused by a
# closed network; with them it needs nothing but loopback.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT = 60.0
# xterm.js draws on a canvas; this catches the page's Terminal as it is assigned, so
# the test can read the screen's text from its buffer.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    window.inboxdeskTerminal = value;
  },
});
"""
SCREEN = """() => {
  const t = window.inboxdeskTerminal;
  if (!t) return [];
  const lines = [];
  for (let y = 0; y < t.rows; y++) lines.push(t.buffer.active.getLine(y).translateToString(true));
  return lines;
}"""

T = TypeVar("T")


def browser_missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no browser: {CHROMIUM} is missing (apt-get install chromium; see .ci/run)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no browser driver: playwright is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture
def browser_ready() -> None:
    reason = browser_missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test, but {reason}")
    pytest.skip(reason)


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = TIMEOUT) -> T:
    """Poll `probe` until it returns something (a condition, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


class Demo:
    """`inboxdesk demo --web` as a user starts it, its output read as it comes."""

    def __init__(self, fixture: Path, subscriber: str) -> None:
        command = [sys.executable, "-m", "inboxdesk", "demo", "--web", "--port", "0"]
        command += ["--load", str(fixture), "--subscriber", subscriber]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "INBOXDESK_CONFIG": str(fixture.parent / "none.toml")},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def line_with(self, words: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.process.poll() is None, f"demo exited: {''.join(self.output)}"
                continue
            self.output.append(line)
            if words in line:
                return line
        raise AssertionError(f"no {words!r} in {''.join(self.output)}")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise

    def rest_of_output(self) -> str:
        while not self.lines.empty():
            self.output.append(self.lines.get())
        return "".join(self.output)


@pytest.fixture
def fixture_file(tmp_path: Path) -> Path:
    """The demo data with a key the test knows (the demo's own is random and unprinted)."""
    fixture = demo_fixture()
    fixture["environments"][0]["apiKey"] = KEY
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(fixture), encoding="utf-8")
    return path


@pytest.fixture
def demo(fixture_file: Path, browser_ready: None) -> Iterator[Demo]:
    subscriber = json.loads(fixture_file.read_text())["environments"][0]["subscribers"][0]
    running = Demo(fixture_file, subscriber["subscriberId"])
    try:
        yield running
    finally:
        running.stop()


def test_demo_in_a_browser(demo: Demo, fixture_file: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    service_line = demo.line_with("local service on")
    service_url = service_line.split()[4]
    database = Path(service_line.split("(database ")[1].rstrip(")\n"))
    page_url = demo.line_with("in a browser:").split()[4]
    fixture = json.loads(fixture_file.read_text())
    subscriber = fixture["environments"][0]["subscribers"][0]["subscriberId"]
    http = httpx.Client(
        base_url=service_url, headers={"Authorization": f"ApiKey {KEY}"}, timeout=30
    )
    feed = http.get(f"/v1/subscribers/{subscriber}/notifications/feed", params={"limit": 30})
    items: list[dict[str, Any]] = feed.json()["data"]
    index = next(i for i, item in enumerate(items) if not item["read"])
    target = items[index]
    shot = Path(os.environ.get("INBOXDESK_WEB_SCREENSHOT") or tmp_path / "web-inbox.png")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.add_init_script(CATCH_TERMINAL)
            page.goto(page_url)

            def screen() -> list[str]:
                lines: list[str] = page.evaluate(SCREEN)
                return lines

            def list_top() -> int | None:
                """The screen line of the list's first row, once rows are drawn."""
                lines = screen()
                header = next(
                    (y for y, line in enumerate(lines) if "When" in line and "Title" in line),
                    None,
                )
                if header is None or not lines[header + 1].strip():
                    return None
                return header + 1

            # The inbox has rendered: the header with the subscriber's counts, and rows.
            top = wait_for("the inbox", list_top)
            wait_for("the counts", lambda: any("unread" in line for line in screen()))
            page.focus(".xterm-helper-textarea")  # keys go to the terminal, no click
            for _ in range(index):  # the first row is highlighted when the inbox opens
                page.keyboard.press("j")
            # The detail pane shows the highlighted message: the right one is highlighted.
            wait_for("its detail", lambda: any(target["_id"] in line for line in screen()))
            row = top + index

            def marker() -> str:
                return screen()[row][:3]

            def unread() -> int | None:
                counts = re.search(r"(\d+) unread", "\n".join(screen()[:3]))
                return int(counts[1]) if counts else None

            before = unread()
            assert before, screen()
            assert "●" in marker(), screen()
            page.keyboard.press("r")
            wait_for("the read marker", lambda: "●" not in marker())
            wait_for("the header's count", lambda: unread() == before - 1)

            # The service has it too.
            def read_now() -> bool:
                answer = http.get(
                    f"/v1/subscribers/{subscriber}/notifications/feed", params={"limit": 30}
                )
                return (
                    next(i for i in answer.json()["data"] if i["_id"] == target["_id"])["read"]
                    is True
                )

            wait_for("the service's read flag", read_now, timeout=10)
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
            apps = descendants(demo.process.pid)
            assert apps, "the page runs the app in a child process"
            # The key reaches the apps through their environment: not in a command line
            # (`ps` shows those to every user), the URL or the page.
            for pid in apps:
                assert KEY.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
            assert KEY not in page_url
            assert KEY not in page.content()
        finally:
            browser.close()
            http.close()

    assert demo.stop() == 0
    # Stopping takes the browser sessions' apps and the temporary database with it.
    wait_for("the apps to end", lambda: not any(Path(f"/proc/{p}").exists() for p in apps))
    assert not database.exists()
    assert KEY not in demo.rest_of_output()
