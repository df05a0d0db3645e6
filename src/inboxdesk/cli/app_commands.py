"""`inboxdesk` / `inboxdesk tui` (the app on a profile) and `inboxdesk demo`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.crash import HUNG_UP, report, terminal_gone
from inboxdesk.config import CONFIG_ENV, ConfigError, Settings, resolve
from inboxdesk.gc_paused import collector_paused
from inboxdesk.private_apis import app_crash
from inboxdesk.text import safe

if TYPE_CHECKING:
    from textual.app import App

    from inboxdesk.cli.demo_service import DemoService
    from inboxdesk.tui.app import InboxdeskApp

# A terminal closed (SIGHUP) or a polite kill (SIGTERM) ends the app as `q` does, so
# that what the run started (the demo's service and temporary database) is cleaned up.
END_SIGNALS = (signal.SIGHUP, signal.SIGTERM)
# The demo's profile: in memory only, never written to the config file.
DEMO_PROFILE = "demo"
# How long an app asked to end may take before it is made to.
GRACE_SECONDS = 3.0


class EndOnSignals:
    """While active, SIGHUP and SIGTERM end the run cleanly: a running app exits (from
    its own event loop), and before one runs the run unwinds with SystemExit, so every
    `with` block closes what it opened."""

    def __init__(self) -> None:
        self.app: App[Any] | None = None
        self._previous: dict[int, Any] = {}
        self._asked = False
        self._timer: threading.Timer | None = None

    def __enter__(self) -> EndOnSignals:
        self._previous = {sig: signal.signal(sig, self._stop) for sig in END_SIGNALS}
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()  # it ended in time
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        code = 128 + signum
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if self.app is None or loop is None or self._asked:
            # Before the app runs, or a second time: unwind now, so that every `with`
            # block still closes what it opened (the demo's service and database).
            raise SystemExit(code)
        self._asked = True
        # Thread-safe scheduling wakes the loop even when it is waiting for input.
        loop.call_soon_threadsafe(functools.partial(self.app.exit, return_code=code))
        # An app that cannot end (its terminal gone, a write to it blocked) is ended
        # anyway: the same signal again, a little later, unwinds from wherever it is.
        self._timer = threading.Timer(GRACE_SECONDS, os.kill, (os.getpid(), signum))
        self._timer.daemon = True
        self._timer.start()


def run_app(app: App[Any], headless: bool = False) -> int:
    """Run `app` until it quits; a crash is reported in one line, its traceback saved.

    Textual prints a crash's traceback, with local values, once the terminal is
    restored; it goes to `error_console`, captured here so that the user sees one line.
    The saved traceback is the exception's own, without local values (they may hold a
    key or credentials); Textual keeps the exception only in a private attribute.
    """
    captured = io.StringIO()
    app.error_console = Console(
        file=captured, markup=False, highlight=False, color_system=None, width=120
    )
    with EndOnSignals() as ending:
        ending.app = app
        app.run(headless=headless)
    error = app_crash(app)
    if error is not None and terminal_gone(error):
        return HUNG_UP  # its terminal was closed under it: not a bug
    if error is not None:
        return report("".join(traceback.format_exception(error)), "the app")
    with contextlib.suppress(OSError):  # the terminal may be gone
        sys.stderr.write(captured.getvalue())  # a message the app left on exit, if any
    return app.return_code or 0


def app_class() -> type[InboxdeskApp]:
    """The app, imported as entry.py imports the command line: with the collector
    paused (its modules build objects that live on), then frozen."""
    with collector_paused():
        from inboxdesk.tui.app import InboxdeskApp
    return InboxdeskApp


def run_tui(flags: Flags, subscriber: str | None) -> int:
    InboxdeskApp = app_class()
    problem = None
    try:
        settings = settings_from(flags, subscriber)
    except ConfigError as exc:
        # The app still opens, on a screen that says what is wrong and how to fix it.
        settings, problem = Settings(), str(exc)
    return run_app(InboxdeskApp(settings, subscriber_id=subscriber, problem=problem))


def web_options(command: Callable[..., int]) -> Callable[..., int]:
    """--web, --host and --port: the app served to browsers (cli/web.py)."""
    from inboxdesk.cli.serve import _port
    from inboxdesk.cli.web import DEFAULT_PORT

    options = [
        click.option("--web", is_flag=True, help="serve the app to browsers instead"),
        click.option(
            "--host", default="127.0.0.1", show_default=True, help="with --web: address to bind"
        ),
        click.option(
            "--port",
            type=int,
            default=DEFAULT_PORT,
            callback=_port,
            show_default=True,
            help="with --web: port (0 picks one)",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.command()
@click.option("--subscriber", metavar="ID", help="open this subscriber's inbox")
@web_options
@connection_options
def tui(flags: Flags, subscriber: str | None, web: bool, host: str, port: int) -> int:
    """Open the app (the default when no command is given)."""
    if web:
        from inboxdesk.cli import web as served

        # A config problem is said here, before any browser opens the page.
        return served.serve_tui(settings_from(flags, subscriber), subscriber, host, port)
    return run_tui(flags, subscriber)


def app_settings() -> Settings:
    """The app's own settings (theme, keymap, auto-refresh) from the environment and
    the config file, for an app on another service; a problem is reported, not fatal."""
    # Read-only too: a demo asked to be read-only binds no write key.
    names = ("INBOXDESK_THEME", "INBOXDESK_AUTO_REFRESH", "INBOXDESK_CONFIG", "INBOXDESK_READ_ONLY")
    try:
        return resolve({}, {k: v for k, v in os.environ.items() if k in names})
    except ConfigError as exc:
        print(f"inboxdesk: warning: {exc} (using the default look)", file=sys.stderr)
        return Settings()


def demo_settings(base: Settings, demo: DemoService) -> Settings:
    """The demo's own profile, in memory only: every environment's key, the first
    (Development) the one the app opens on. It is never written to the config file,
    never the default, and its writes are journaled under its name."""
    from inboxdesk.cli.demo_service import DEMO_PROFILE
    from inboxdesk.config.models import EnvironmentKey

    held = {
        env.environment_id: EnvironmentKey(name=env.name, type=kind, api_key=env.api_key)
        for env, kind in demo.environments
    }
    update = {"base_url": demo.url, "api_key": None, "profile": DEMO_PROFILE}
    return base.model_copy(update=update | {"environments": held, "environment": None})


def run_demo(
    db: Path | None, subscriber: str | None, load: Sequence[Path] = (), read_only: bool = False
) -> int:
    """The local service with demo data (or the `load` fixtures) on a free loopback
    port, and the app on it (`read_only`: no write key, as `--read-only` everywhere)."""
    from inboxdesk.cli.demo_service import DemoRefused, demo_service

    InboxdeskApp = app_class()
    base = app_settings()
    if read_only:
        base = base.model_copy(update={"read_only": True})
    try:
        with EndOnSignals(), demo_service(db, load) as demo:
            opened = subscriber or demo.subscriber
            # The demo's saved views go to its scratch folder, never the user's file.
            os.environ[CONFIG_ENV] = str(demo.scratch / "config.toml")
            return run_app(InboxdeskApp(demo_settings(base, demo), subscriber_id=opened))
    except DemoRefused as exc:
        # A fixture's error may quote its text: shown safe, as any text from a file.
        print(f"inboxdesk: {safe(str(exc), newlines=False)}", file=sys.stderr)
        return 2


@click.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="keep the demo database here (default: temporary)",
)
@click.option(
    "--subscriber",
    metavar="ID",
    help="open this subscriber's inbox (default: Ada, or the first of --load's)",
)
@click.option(
    "--load",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    multiple=True,
    metavar="FILE",
    help="a fixture file instead of the demo data (JSON; may be repeated)",
)
@click.option(
    "--read-only", "read_only", is_flag=True, help="refuse every write, as on any command"
)
@web_options
def demo(
    db: Path | None,
    subscriber: str | None,
    load: tuple[Path, ...],
    read_only: bool,
    web: bool,
    host: str,
    port: int,
) -> int:
    """The app on a local service with demo data."""
    if web:
        from inboxdesk.cli import web as served

        if read_only:  # the browser's apps read their settings from the environment
            os.environ["INBOXDESK_READ_ONLY"] = "true"
        return served.serve_demo(db, load, subscriber, host, port)
    return run_demo(db, subscriber, load, read_only)


COMMANDS = [tui, demo]
