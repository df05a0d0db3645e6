"""`inboxdesk demo` cleans up on SIGHUP and SIGTERM: under a real terminal (a pty) that
nobody reads any more, a process of its own; SIGTERM, which takes the same handler
(cli/app_commands.py END_SIGNALS), to the command in this process, its app headless.

The demo there serves the example fixture (`--load`): the demo's own data takes seconds
to seed, and its temporary database, service and app end alike."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests import waiting
from tests.conftest import EXAMPLE, STAGING_KEY, Service, jane_message

if TYPE_CHECKING:
    from inboxdesk.tui.app import InboxdeskApp


def wait_for(condition: Callable[[], object], what: str, timeout: float = 90.0) -> None:
    waiting.wait_for(what, condition, timeout)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "unread"),
    # Both signals take one handler (cli/app_commands.py END_SIGNALS): SIGHUP as a
    # terminal gone sends it, to an app whose terminal is not read, here; SIGTERM to an
    # app that ends as asked, in this process (the test below).
    [(signal.SIGHUP, True)],
    ids=["SIGHUP-terminal-unread"],
)
def test_demo_removes_its_database_on_a_signal(
    sig: signal.Signals, unread: bool, tmp_path: Path
) -> None:
    """It ends promptly, even when its terminal is no longer read (closed, or a tmux
    server gone): writes to it then block, and the app must not wait for them."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {
        **os.environ,
        "TMPDIR": str(scratch),  # where the demo's temporary directory goes
        "TERM": "xterm-256color",
        "INBOXDESK_CONFIG": str(tmp_path / "config.toml"),
        "INBOXDESK_LOG_DIR": str(tmp_path / "logs"),
    }
    master, slave = pty.openpty()
    # A 120x40 terminal: a pty starts at 0x0, where nothing can be drawn.
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    demo = subprocess.Popen(
        [sys.executable, "-m", "inboxdesk", "demo", "--load", str(EXAMPLE)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    screen = bytearray()

    reading = threading.Event()
    reading.set()

    def drain() -> None:  # a pty that nobody reads blocks the app's writes
        while reading.is_set():
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        # Whether, not what: an empty list is an answer, and would not be waited for.
        wait_for(lambda: any(scratch.glob("inboxdesk-demo-*/demo.db")), "the demo database")
        # The status line counts the messages once the service has answered.
        wait_for(lambda: re.search(rb"\d+ messages", screen), "the app's first screen")
        if unread:
            reading.clear()  # nobody reads the terminal any more: it fills, writes block
            for _ in range(40):
                os.write(master, b"jjjjkkkk")  # keys, so that the app keeps drawing
        demo.send_signal(sig)
        code = demo.wait(timeout=30)  # a bound on a hang, not a speed target
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
        os.close(master)
        reader.join(timeout=5)
    logs = tmp_path / "logs"
    saved = [f.read_text() for f in logs.rglob("*") if f.is_file()] if logs.exists() else []
    assert code == 128 + sig, saved  # a crash's saved traceback, to say what went wrong
    assert list(scratch.iterdir()) == [], "the temporary database is gone"
    assert not (tmp_path / "logs").exists(), "no crash"


def test_sigterm_ends_the_demo_s_app_and_its_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGTERM while the app runs: the app is asked to end from its own loop, as `q`
    ends it, the command exits 128 + SIGTERM, and the temporary database is gone."""
    from inboxdesk.cli import app_commands, main

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # the demo's scratch folder
    monkeypatch.setenv("INBOXDESK_CONFIG", str(tmp_path / "config.toml"))
    run_app = app_commands.run_app
    command = threading.main_thread().ident or 0
    failed: list[BaseException] = []
    before = signal.getsignal(signal.SIGTERM)

    def headless(app: InboxdeskApp, headless: bool = False) -> int:
        """The command's own run_app, its app headless; SIGTERM once its inbox has
        counted its messages (as the process above waits for)."""
        from inboxdesk.tui.inbox.status import StatusLine

        def inbox_shown() -> bool:
            try:
                status = app.screen.query_one(StatusLine).status
                return app.is_running and status.answered and not status.fetching
            except Exception:  # no inbox yet
                return False

        def terminate() -> None:
            try:
                waiting.wait_for("the app's inbox", inbox_shown, 60)
                assert list(scratch.glob("inboxdesk-demo-*/demo.db")), "the demo database"
                # Untaken, SIGTERM would end the test run itself.
                handler = signal.getsignal(signal.SIGTERM)
                assert handler not in (signal.SIG_DFL, before), "SIGTERM is not taken"
            except BaseException as exc:
                failed.append(exc)
                app.call_from_thread(app.exit)
                return
            signal.pthread_kill(command, signal.SIGTERM)

        threading.Thread(target=terminate, daemon=True).start()
        return run_app(app, headless=True)

    monkeypatch.setattr(app_commands, "run_app", headless)
    code = main(["demo", "--load", str(EXAMPLE)])
    if failed:
        raise failed[0]
    assert code == 128 + signal.SIGTERM, capsys.readouterr().err
    assert list(scratch.iterdir()) == [], "the temporary database is gone"
    assert not Path(os.environ["INBOXDESK_LOG_DIR"]).exists(), "no crash"


def test_demo_takes_its_look_from_the_environment_and_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from inboxdesk.cli.app_commands import app_settings

    config = tmp_path / "config.toml"
    config.write_text('[app]\ntheme = "nord"\nauto_refresh = 5\n[app.keymap]\n"app.quit" = "x"\n')
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    monkeypatch.setenv("INBOXDESK_BASE_URL", "not used by the demo")
    monkeypatch.setenv("INBOXDESK_THEME", "dracula")
    settings = app_settings()
    assert settings.theme == "dracula" and settings.auto_refresh == 5
    assert settings.keymap == {"app.quit": "x"}
    monkeypatch.delenv("INBOXDESK_THEME")
    assert app_settings().theme == "nord"


def test_the_demo_is_read_only_when_asked_by_option_or_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from inboxdesk.cli import app_commands, main
    from inboxdesk.cli.demo_service import DemoService

    asked: list[bool] = []
    monkeypatch.setattr(
        app_commands, "run_demo", lambda db, subscriber, load, read_only: asked.append(read_only)
    )
    assert main(["demo", "--read-only"]) == 0 and asked == [True], capsys.readouterr().err
    demo = DemoService("http://127.0.0.1:9", STAGING_KEY, tmp_path / "d.db", tmp_path, ())
    monkeypatch.setenv("INBOXDESK_READ_ONLY", "true")
    assert app_commands.demo_settings(app_commands.app_settings(), demo).read_only
    monkeypatch.delenv("INBOXDESK_READ_ONLY")
    assert not app_commands.demo_settings(app_commands.app_settings(), demo).read_only


async def test_the_demo_runs_and_journals_under_its_own_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, service: Service
) -> None:
    """Not the user's default profile: the header names `demo`, the journal files its
    writes under it."""
    from inboxdesk.cli.app_commands import app_settings, demo_settings
    from inboxdesk.cli.demo_service import DemoService
    from inboxdesk.server.fixtures import LoadedEnvironment
    from inboxdesk.tui.app import make_app
    from inboxdesk.writes import WriteStore
    from tests.tui.conftest import SIZE, until
    from tests.tui.test_inbox import opened, stored

    config = tmp_path / "config.toml"
    config.write_text(
        'default_profile = "work"\n[profiles.work]\nbase_url = "https://api.novu.co"\n'
        f'api_key = "{"w" * 32}"\nsubscriber = "someone"\n'
    )
    monkeypatch.setenv("INBOXDESK_CONFIG", str(config))
    caller = service.store.authenticate(STAGING_KEY)
    assert caller is not None
    own = service.store.own_environment(caller)
    staging = LoadedEnvironment(own["name"], own["_id"], STAGING_KEY, generated_key=False)
    demo = DemoService(
        service.url, STAGING_KEY, tmp_path / "unused.db", tmp_path, ((staging, "dev"),)
    )
    settings = demo_settings(app_settings(), demo)
    writes = WriteStore(tmp_path / "writes.db")
    app = make_app(settings, subscriber_id="jane", writes=writes)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await until(pilot, lambda: "· demo ·" in app.title, what="the header")
        await pilot.press("r")
        await until(pilot, lambda: stored(service, jane_message(11)) == (True, True))
        await until(pilot, lambda: bool(writes.entries()), what="journalled")
        assert {e.where.profile for e in writes.entries()} == {"demo"}
