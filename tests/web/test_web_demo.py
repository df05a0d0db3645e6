"""`inboxdesk demo --web` in a real headless Chromium (Debian's package, driven by
Playwright): the page shows the inbox, `r` marks the first unread message read, and the
local service agrees. The commands run in this process (tests/web/in_process.py); the
apps of the browser sessions are processes of their own, as for a user.

The screenshot goes to tmp, or to $INBOXDESK_WEB_SCREENSHOT (screenshots/make.py sets it
for the README's screenshots/web-inbox.png). With no browser the test is skipped, and
fails when $CI is set: CI must run it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from inboxdesk.server.demo import demo_fixture
from inboxdesk.server.fixtures import read_fixture
from tests import waiting
from tests.client.faults import loopback_client
from tests.conftest import EXAMPLE, STAGING_KEY, Service
from tests.web.in_process import WebPage, apps, descendants, on_the_web

if TYPE_CHECKING:
    import aiohttp
    from playwright.sync_api import Page

KEY = "web-demo-key-0123456789abcdef"
SCREENSHOT = "INBOXDESK_WEB_SCREENSHOT"  # where screenshots/make.py wants the page
DEAD = "http://127.0.0.1:9"  # nothing listens on the discard port
CHROMIUM = os.environ.get("INBOXDESK_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium's own calls home are refused by a
# closed network; with them it needs nothing but loopback. The last four: no GPU
# process, no spare renderer, no process per site (the link's page and the app's still
# get one each): three processes fewer, 0.6 of Chromium's 4.5 CPU-s. The cookie's
# SameSite rule is the network stack's, whatever the processes.
# Chromium reads the last --disable-features alone, so this one repeats Playwright's own
# list (its driver's chromiumSwitches; checked below), which it would otherwise
# replace. The omnibox's two popups are pages of their own that a headless browser
# preloads in a renderer of their own: 1.2 CPU-s that nothing here looks at.
DISABLED_FEATURES = [
    "site-per-process",
    "IsolateOrigins",
    "SpareRendererForSitePerProcess",
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
    # Playwright's:
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--in-process-gpu",
    "--renderer-process-limit=1",
    "--disable-site-isolation-trials",
    f"--disable-features={','.join(DISABLED_FEATURES)}",
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

# Whether the page's terminal font draws `glyph`, or only the box of a missing one: the
# glyph drawn on a canvas in the terminal's font differs from a surely missing one's.
DRAWS = """(glyph) => {
  const font = "16px " + window.inboxdeskTerminal.options.fontFamily;
  const draw = (text) => {
    const canvas = document.createElement("canvas");
    canvas.width = 40;
    canvas.height = 40;
    const context = canvas.getContext("2d");
    context.font = font;
    context.fillText(text, 8, 28);
    return canvas.toDataURL();
  };
  return draw(glyph) !== draw("\\u{10FFFD}");
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
    return waiting.wait_for(what, probe, timeout, step=0.1)


@pytest.fixture
def fixture_file(tmp_path: Path) -> Path:
    """The data with a key the test knows (the demo's own is random and unprinted): the
    demo's for the README's screenshot; otherwise the example's inbox, which the page,
    its keys and a mark test alike, and which the demo seeds in a tenth of the time (the
    demo's own data is served and checked in tests/web/test_web_demo_profile.py and
    tests/cli/test_readme.py)."""
    fixture = demo_fixture() if os.environ.get(SCREENSHOT) else read_fixture(EXAMPLE)
    fixture["environments"][0]["apiKey"] = KEY
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(fixture), encoding="utf-8")
    return path


def elsewhere(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """A profile and a variable that point elsewhere: the demo's apps must ignore both,
    as the terminal demo does."""
    config = folder / "config.toml"
    config.write_text(
        'default_profile = "elsewhere"\n[profiles.elsewhere]\n'
        f'base_url = "{DEAD}"\nproxy = "{DEAD}"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    monkeypatch.setenv("INBOXDESK_BASE_URL", DEAD)


def isolated(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """No config file of the machine's user: the test sees only what it passes."""
    monkeypatch.setenv("INBOXDESK_CONFIG", str(folder / "none.toml"))


class Screen:
    """The page's terminal, read as lines of text."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def lines(self) -> list[str]:
        lines: list[str] = self.page.evaluate(SCREEN)
        return lines

    def list_top(self) -> int | None:
        """The screen line of the message list's first row, once rows are drawn."""
        lines = self.lines()
        header = next(
            (y for y, line in enumerate(lines) if "When" in line and "Title" in line), None
        )
        if header is None or not lines[header + 1].strip():
            return None
        return header + 1

    def unread(self) -> int | None:
        """The unread count in the header."""
        counts = re.search(r"(\d+) unread", "\n".join(self.lines()[:3]))
        return int(counts[1]) if counts else None


@contextmanager
def browser_on(url: str, by_link: bool = False) -> Iterator[Screen]:
    """Headless Chromium showing `url`, its keys going to the app; `by_link` opens it
    by a click on a link in a page of another site, as from a web chat or mail."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.add_init_script(CATCH_TERMINAL)
            if by_link:
                page.goto(f'data:text/html,<a id="open" href="{url}">the app</a>')
                page.click("#open")
            else:
                page.goto(url)
            # The first load trades the token for a cookie and loads the page anew.
            page.wait_for_url(lambda address: "token=" not in address)
            screen = Screen(page)
            wait_for("the inbox", screen.list_top)
            wait_for("the counts", screen.unread)
            # No click and no focus() from the test: the page puts the focus in the
            # terminal itself, and the app, told of it, shows its footer.
            wait_for("the footer", lambda: "? Help" in screen.lines()[-1])
            yield screen
        finally:
            browser.close()


async def read_screen(socket: aiohttp.ClientWebSocketResponse, words: str) -> str:
    """What the app draws until `words` show."""
    import aiohttp

    screen = ""
    async with asyncio.timeout(TIMEOUT):
        while words not in screen:
            message = await socket.receive()
            assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
            if message.type == aiohttp.WSMsgType.BINARY:
                screen += message.data.decode("utf-8", "replace")
    return screen


def assert_key_kept(key: str, screen: Screen, url: str) -> None:
    """The key reaches the apps through their environment: not in a command line (`ps`
    shows those to every user), the URL or the page."""
    assert apps(), "the page runs the app in a process of its own"
    for pid in descendants(os.getpid()):
        assert key.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
    assert key not in url
    assert key not in screen.page.content()
    # The first load traded the token for a cookie: the address bar no longer shows it.
    assert "token=" in url and "token=" not in screen.page.url


@pytest.mark.slow
def test_demo_in_a_browser(
    fixture_file: Path,
    browser_ready: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = json.loads(fixture_file.read_text())
    subscriber = fixture["environments"][0]["subscribers"][0]["subscriberId"]
    elsewhere(monkeypatch, tmp_path)
    shot = Path(os.environ.get(SCREENSHOT) or tmp_path / "web-inbox.png")
    seen: dict[str, Any] = {}

    def in_a_browser(page: WebPage) -> None:
        service_line = next(x for x in page.banner.splitlines() if "local service on" in x)
        service_url = service_line.split()[4]
        seen["database"] = Path(service_line.split("(database ")[1].rstrip(")"))
        # The app opens on the Inbox tab: the v2 list of what is neither archived nor
        # snoozed.
        inbox_path = f"/v2/subscribers/{subscriber}/notifications"
        shown = {"limit": 30, "archived": "false", "snoozed": "false"}
        http = loopback_client(
            base_url=service_url,
            headers={"Authorization": f"ApiKey {KEY}"},
            timeout=30,
        )
        items: list[dict[str, Any]] = http.get(inbox_path, params=shown).json()["data"]
        index = next(i for i, item in enumerate(items) if not item["isRead"])
        target = items[index]

        # Opened from a link on another site's page, as from a web chat or mail: the
        # SameSite=Strict cookie still reaches the page after its own redirect.
        with closing(http), browser_on(page.printed, by_link=True) as screen:
            # The header's icon is a glyph the page's font has (not an empty box).
            icon = screen.lines()[0].strip()[0]
            assert screen.page.evaluate(DRAWS, icon), f"{icon!r} is not in the page's font"
            assert not screen.page.evaluate(DRAWS, "\u2b58"), "the check tells a missing glyph"
            # Keys work before any click.
            for _ in range(index):  # the first row is highlighted when the inbox opens
                screen.page.keyboard.press("j")
            # The detail pane shows the highlighted message: the right one is highlighted.
            wait_for("its detail", lambda: any(target["id"] in line for line in screen.lines()))
            row = (screen.list_top() or 0) + index

            def marker() -> str:
                return screen.lines()[row][:3]

            before = screen.unread()
            assert before, screen.lines()
            assert "●" in marker(), screen.lines()
            screen.page.keyboard.press("r")
            wait_for("the read marker", lambda: "●" not in marker())
            wait_for("the header's count", lambda: screen.unread() == before - 1)

            # The service has it too.
            def read_now() -> bool:
                data = http.get(inbox_path, params=shown).json()["data"]
                return next(i for i in data if i["id"] == target["id"])["isRead"] is True

            wait_for("the service's read flag", read_now, timeout=10)
            screen.page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
            seen["apps"] = apps()
            assert_key_kept(KEY, screen, page.printed)

    args = ["demo", "--load", str(fixture_file), "--subscriber", subscriber]
    code, out, err = on_the_web(capsys, args, in_a_browser)
    assert code == 0, err
    # Stopping takes the browser sessions' apps and the temporary database with it.
    ended = seen["apps"]
    wait_for("the apps to end", lambda: not any(Path(f"/proc/{p}").exists() for p in ended))
    assert not seen["database"].exists()
    assert KEY not in out + err


def test_tui_on_the_web_serves_the_app_with_its_resolved_settings(
    service: Service,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tui --web` serves the app with the resolved settings: here a flag and the key
    from the environment, as a profile would give them. The page's own websocket gets
    the app's screen (what a browser draws of it, and that a page opened from another
    site's link gets there, test_demo_in_a_browser proves in Chromium)."""
    import aiohttp

    isolated(monkeypatch, tmp_path)
    monkeypatch.setenv("NOVU_SECRET_KEY", STAGING_KEY)
    # The app opens the subscriber the v2 search lists first (newest first).
    with service.http() as http:
        first = http.get("/v2/subscribers", params={"limit": 1}).json()["data"][0]
    screens: list[str] = []

    async def on_its_socket(page: WebPage) -> None:
        async with aiohttp.ClientSession() as client:
            async with client.get(page.printed, allow_redirects=False) as answer:
                cookie = answer.cookies[page.cookie].value
            headers = {"Cookie": f"{page.cookie}={cookie}"}
            url = f"{page.base}/ws?width=120&height=40"
            async with client.ws_connect(url, headers=headers, origin=page.base) as socket:
                # That subscriber, from the service the flag named.
                screens.append(await read_screen(socket, first["firstName"]))
                assert apps(), "the page runs the app in a process of its own"
                for pid in descendants(os.getpid()):
                    assert STAGING_KEY.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
        assert STAGING_KEY not in screens[0] and STAGING_KEY not in page.printed
        # Its app ends with its socket.
        wait_for("the app to end", lambda: not apps())

    args = ["tui", "--base-url", service.url]
    code, out, err = on_the_web(capsys, args, lambda page: asyncio.run(on_its_socket(page)))
    assert code == 0, err
    assert STAGING_KEY not in out + err


def test_off_loopback_is_warned_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --host other than loopback serves, with a warning (no browser needed). A
    wildcard bind prints this machine's name; the page answers to it, to the loopback
    names, and to no other."""
    sentinel = "web-sentinel-key-7f3a9c"
    isolated(monkeypatch, tmp_path)
    monkeypatch.setenv("NOVU_SECRET_KEY", sentinel)
    printed: list[str] = []

    def names(page: WebPage) -> None:
        printed.append(page.printed)
        match = re.fullmatch(r"http://([^/]+):(\d+)/\?token=([A-Za-z0-9_-]+)", page.printed)
        assert match, page.printed
        name, port, token = match[1], match[2], match[3]
        assert int(port) == page.port
        loopback = f"{page.base}/?token={token}"
        with loopback_client(timeout=30) as http:
            for host in (name, "localhost", "127.0.0.1", "0.0.0.0"):
                answer = http.get(loopback, headers={"Host": f"{host}:{port}"})
                assert answer.cookies.get(page.cookie) == token, host
            answer = http.get(loopback, headers={"Host": f"evil.example:{port}"})
            assert answer.status_code == 403

    code, out, err = on_the_web(capsys, ["tui", "--host", "0.0.0.0"], names)
    assert code == 0, err
    assert "is not loopback" in err
    # The key is in the apps' environment only: never in the output or the address.
    assert sentinel not in out + err and sentinel not in printed[0]


def test_the_browser_keeps_every_feature_playwright_turns_off() -> None:
    """`DISABLED_FEATURES` repeats Playwright's own list (Chromium reads the last
    --disable-features alone): an upgrade that adds to Playwright's list fails here.
    Edge's (`ms…`) and Windows' (`…Win`) do not apply to Chromium on Linux."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    source = bundle.read_text(encoding="utf-8")
    listed = re.search(r"disabledFeatures = \[(.*?)\]", source, re.DOTALL)
    assert listed is not None, "Playwright no longer lists disabledFeatures in its bundle"
    features = re.findall(r'^\s*"(\w+)",?', listed.group(1), re.MULTILINE)
    assert "MediaRouter" in features, features  # the list was read
    ours = {f for f in features if not f.startswith("ms") and not f.endswith("Win")}
    assert ours <= set(DISABLED_FEATURES), ours - set(DISABLED_FEATURES)
