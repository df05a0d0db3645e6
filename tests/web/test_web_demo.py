"""`inboxdesk demo --web` in a real headless Chromium: load, render, mark read, verify.

The page draws the terminal on a canvas, so the test reads the screen the way the
page does: every byte the app sends over the page's websocket is fed to a terminal
emulator (pyte) of the size the page asked for. A screenshot is taken as well;
`INBOXDESK_WEB_SCREENSHOT=PATH` keeps it (the screenshot script sets it).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pyte
import pytest

from tests.conftest import EXAMPLE, STAGING_KEY

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # The network here is closed: without these Chromium keeps dialling Google's hosts.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 60.0  # seconds for a condition: a shared 2-core machine starts an app slowly
UNREAD = "●"
DEMO = [sys.executable, "-m", "inboxdesk", "demo", "--web"]


def chromium() -> str:
    """Debian's chromium; without it the test is skipped, except in CI where it fails."""
    path = os.environ.get("INBOXDESK_CHROMIUM") or shutil.which("chromium")
    if path is None:
        reason = "no chromium on this machine (apt-get install chromium; .ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def until(
    condition: Callable[[], object], what: str, pump: Callable[[], None], screen: Screen
) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            shown = "\n".join(screen.screen.display)
            raise AssertionError(f"timed out waiting for {what}; the page shows:\n{shown}")
        pump()


@dataclass
class Demo:
    process: subprocess.Popen[str]
    url: str
    service: str
    scratch: Path
    lines: list[str] = field(default_factory=list)


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    """`inboxdesk demo --web` on the example fixture, on a free loopback port."""
    port = free_port()
    env = {**os.environ, "TMPDIR": str(tmp_path), "INBOXDESK_CONFIG": str(tmp_path / "none")}
    process = subprocess.Popen(
        [*DEMO, "--port", str(port), "--load", str(EXAMPLE), "--subscriber", "jane"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        start_new_session=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    url = service = ""
    for line in process.stdout:
        lines.append(line)
        if line.startswith("local service: "):
            service = line.split()[2]
        if "in a browser: open " in line:
            url = line.split("open ")[1].split()[0]
            break
    try:
        assert url == f"http://127.0.0.1:{port}" and service, "".join(lines)
        yield Demo(process, url, service, tmp_path, lines)
    finally:
        process.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise


class Screen:
    """The terminal the page shows, rebuilt from what its websocket received."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    def resize(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.screen.resize(size["height"], size["width"])

    def feed(self, payload: str | bytes) -> None:
        self.stream.feed(payload if isinstance(payload, bytes) else payload.encode())

    def row_with(self, text: str) -> str | None:
        """The list's row holding `text` (left of the detail pane's border)."""
        return next(
            (row for line in self.screen.display if text in (row := line.split("│")[0])), None
        )


def jane_feed(demo: Demo) -> list[dict[str, Any]]:
    """Jane's inbox as the service has it, through its API."""
    headers = {"Authorization": f"ApiKey {STAGING_KEY}"}
    with httpx.Client(base_url=demo.service, headers=headers) as api:
        answer = api.get("/v1/subscribers/jane/notifications/feed", params={"limit": 100})
    answer.raise_for_status()
    data: list[dict[str, Any]] = answer.json()["data"]
    return data


def test_demo_in_a_browser_marks_the_first_unread_message_read(demo: Demo) -> None:
    from playwright.sync_api import WebSocket, sync_playwright

    executable = chromium()
    rows = jane_feed(demo)
    first_unread = next(n for n, item in enumerate(rows) if not item["read"])
    target = rows[first_unread]
    title = target["content"][:20] if not target.get("title") else target["title"][:20]

    screen = Screen()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})

            def socket_opened(ws: WebSocket) -> None:
                ws.on("framesent", screen.resize)
                ws.on("framereceived", screen.feed)

            page.on("websocket", socket_opened)
            page.goto(demo.url)

            def pump() -> None:
                page.wait_for_timeout(100)

            until(lambda: screen.row_with(title), "the inbox in the page", pump, screen)
            row = screen.row_with(title) or ""
            assert UNREAD in row, row

            page.focus(".xterm-helper-textarea")  # keys, without a click on a row
            for _ in range(first_unread):
                page.keyboard.press("j")
            page.keyboard.press("r")
            until(
                lambda: UNREAD not in (screen.row_with(title) or UNREAD),
                "the row's unread marker to go",
                pump,
                screen,
            )
            shot = page.screenshot()
            assert shot.startswith(b"\x89PNG")
            keep = os.environ.get("INBOXDESK_WEB_SCREENSHOT")
            Path(keep or demo.scratch / "web-inbox.png").write_bytes(shot)
        finally:
            browser.close()

    changed = {item["_id"]: item["read"] for item in jane_feed(demo)}
    assert changed[target["_id"]] is True, "the service has the message read"
    others = {item["_id"]: item["read"] for item in rows if item["_id"] != target["_id"]}
    assert all(changed[k] == v for k, v in others.items()), "only that message changed"


def test_ctrl_c_stops_everything_and_removes_the_demo_database(demo: Demo) -> None:
    scratch = list(demo.scratch.glob("inboxdesk-demo-*"))
    assert scratch and (scratch[0] / "demo.db").exists()
    demo.process.send_signal(signal.SIGINT)
    assert demo.process.wait(timeout=30) == 0
    assert not list(demo.scratch.glob("inboxdesk-demo-*")), "the demo database is gone"
    with pytest.raises(httpx.ConnectError):
        httpx.get(demo.service, timeout=2)
