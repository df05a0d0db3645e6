"""`inboxdesk demo --web` and `inboxdesk tui --web`: the app in a browser, via textual-serve.

textual-serve starts one `inboxdesk tui` process per browser session and relays its
screen over a websocket. The key reaches those processes through the environment (a
command line is shown by `ps` to every user); the URL and everything printed carry no
key. The page, its files and the websocket answer only the holder of the run's token,
on a name of this machine, from the page itself (cli/web_guard.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shlex
import signal
import socket
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inboxdesk.cli.serve import is_loopback
from inboxdesk.config import (
    PROFILE_ENV,
    PROFILE_FIELDS,
    SHOWN,
    ConfigError,
    ConfigFile,
    Settings,
    env_name,
    resolve,
)
from inboxdesk.private_apis import serve_routes
from inboxdesk.text import safe

if TYPE_CHECKING:
    from inboxdesk.cli.demo_service import DemoService

DEFAULT_PORT = 8000
TITLE = "inboxdesk"
# textual-serve's page leaves the focus on its body: keys went nowhere, and the app,
# told of no focus, kept an empty footer, until a click. This puts the focus in the
# terminal once the app has drawn (its websocket is open by then, so the app hears
# of it); a click or key the user already gave is left alone.
# A stylesheet of another host in textual-serve's page (a web font): removed.
THIRD_PARTY_LINK = re.compile(r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*>\s*", re.S)

FOCUS_ON_LOAD = """<script>
(function focusTerminal() {
  const input = document.querySelector(".xterm-helper-textarea");
  if (!input || !document.body.classList.contains("-first-byte")) {
    setTimeout(focusTerminal, 50);
  } else if (document.activeElement !== input) {
    input.focus();
  }
})();
</script>
"""


def quiet_strangers(record: logging.LogRecord) -> bool:
    """aiohttp's log of a request it could not handle: none for a malformed one (it
    answered 400, and anyone who can reach the port could fill the terminal with them),
    and one line, without the traceback, for anything else."""
    from aiohttp.http_exceptions import HttpProcessingError

    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, HttpProcessingError):
        return False
    if error is not None:
        record.msg = f"{record.getMessage()}: {type(error).__name__}"
        record.args = ()
        record.exc_info = None
        record.exc_text = None
    return True


def app_command(subscriber: str | None = None) -> list[str]:
    """What each browser session runs: this interpreter's `inboxdesk tui`."""
    command = [sys.executable, "-m", "inboxdesk", "tui"]
    return [*command, "--subscriber", subscriber] if subscriber else command


def app_environment(settings: Settings) -> dict[str, str]:
    """Variables under which the child's `inboxdesk tui` resolves to `settings`.

    The environment beats any profile, so every value resolved here wins in the child;
    the key travels here rather than on the command line.
    """
    values: dict[str, object] = {PROFILE_ENV: settings.profile}
    values |= {env_name(name): getattr(settings, name) for name in SHOWN if name != "profile"}
    return {name: str(value) for name, value in values.items() if value is not None}


def warn_if_exposed(host: str) -> None:
    if not is_loopback(host):
        print(
            f"inboxdesk: warning: --host {host} is not loopback: the page and its token "
            "cross the network unencrypted; whoever sees them can act with the API key.",
            file=sys.stderr,
        )


def _public_host(sock: socket.socket) -> str:
    """The host to print; a wildcard bind is reached by this machine's name."""
    host: str = sock.getsockname()[0]
    return socket.gethostname() if host in ("0.0.0.0", "::") else host


def _public_url(sock: socket.socket) -> str:
    host, port = _public_host(sock), sock.getsockname()[1]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@contextmanager
def _environment(values: Mapping[str, str | None]) -> Iterator[None]:
    """`values` set in os.environ (textual-serve copies it for each app) for a while;
    None removes a variable."""
    saved = {name: os.environ.get(name) for name in values}
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def serve_web(
    command: Sequence[str],
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    environment: Mapping[str, str | None] | None = None,
    title: str = TITLE,
) -> int:
    """Serve `command` (a Textual app) to every browser session until Ctrl-C or SIGTERM.

    `environment` is added to each session's environment, None removing a variable (put
    secrets there, never in `command`). Port 0 picks a free one; the URL, with the run's
    token, is printed once the page is served.
    """
    from aiohttp import web
    from aiohttp.web_runner import GracefulExit
    from textual_serve.server import Server

    from inboxdesk.cli.web_guard import TOKEN_PARAMETER, guard_for
    from inboxdesk.server.runner import bind

    warn_if_exposed(host)
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"inboxdesk: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 2
    bound, bound_port = sock.getsockname()[:2]
    guard = guard_for(bound, bound_port, (host, _public_host(sock)))
    url = _public_url(sock)

    class WebServer(Server):
        def initialize_logging(self) -> None:
            # Problems only, plain: textual-serve's default logs with local variables.
            logging.basicConfig(level=logging.WARNING, format="inboxdesk web: %(message)s")
            # An app that ends as the server stops is reaped after the loop closes;
            # asyncio's note about it says nothing to the user.
            logging.getLogger("asyncio").addFilter(
                lambda record: "that handles pid" not in record.getMessage()
            )
            logging.getLogger("aiohttp.server").addFilter(quiet_strangers)

        async def on_startup(self, app: web.Application) -> None:
            page = f"{url}/?{TOKEN_PARAMETER}={guard.token}"
            print(f"inboxdesk in a browser: {page}  (Ctrl-C stops it)", flush=True)

        async def handle_index(self, request: web.Request) -> Any:
            # The page's websocket goes back to the address the browser used (one of
            # the names the guard lets through), not one fixed at start. Nothing awaits
            # between setting and reading it, so concurrent requests cannot mix them up.
            self.public_url = f"{request.scheme}://{request.host}"
            page = await super().handle_index(request)
            if isinstance(page, web.Response) and page.text and "</body>" in page.text:
                page.text = page.text.replace("</body>", f"{FOCUS_ON_LOAD}</body>", 1)
                # The template asks a third-party host for a font: a loopback page
                # asks no one (the terminal's monospace stands in).
                page.text = THIRD_PARTY_LINK.sub("", page.text)
            return page

    server = WebServer(shlex.join(command), host=host, port=sock.getsockname()[1], title=title)
    server.public_url = url
    server.initialize_logging()
    loop = asyncio.new_event_loop()

    def stop() -> None:
        raise GracefulExit()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)

    async def guarded() -> web.Application:
        application: web.Application = await serve_routes(server)  # pinned: <2
        guard.install(application)
        return application

    try:
        with _environment(environment or {}):
            web.run_app(
                guarded(),
                sock=sock,
                handle_signals=False,
                loop=loop,
                print=None,
                shutdown_timeout=5,
            )
    finally:
        loop.close()
        sock.close()
    print("inboxdesk: stopped.", flush=True)
    return 0


def serve_tui(settings: Settings, subscriber: str | None, host: str, port: int) -> int:
    """`inboxdesk tui --web`: the app with these resolved settings in every session."""
    return serve_web(app_command(subscriber), host, port, app_environment(settings))


def serve_demo(
    db: Path | None,
    load: Sequence[Path],
    subscriber: str | None,
    host: str,
    port: int,
) -> int:
    """`inboxdesk demo --web`: the local service (loopback, free port) with the demo data
    or the fixture files in `load`, and the app on it in every browser session.

    The service stays on loopback whatever `host` is: only the page is served there.
    """
    with _sigterm_unwinds():
        return _serve_demo(db, load, subscriber, host, port)


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """SIGTERM before the page is up unwinds like Ctrl-C, so the database still goes."""

    def unwind(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _serve_demo(
    db: Path | None, load: Sequence[Path], subscriber: str | None, host: str, port: int
) -> int:
    from inboxdesk.cli.demo_service import DemoRefused, demo_service

    try:
        base = resolve({}, {})  # only the app settings (theme, keymap) are used
    except ConfigError:
        base = Settings()
    try:
        with demo_service(db, load) as demo:
            print(f"inboxdesk local service on {demo.url}  (database {demo.db_path})")
            environment = demo_environment(base, demo, demo.scratch / "app.toml")
            return serve_web(app_command(subscriber or demo.subscriber), host, port, environment)
    except DemoRefused as exc:
        print(f"inboxdesk: {safe(str(exc), newlines=False)}", file=sys.stderr)
        return 2


def demo_environment(base: Settings, demo: DemoService, config: Path) -> dict[str, str | None]:
    """The apps' environment for a demo: the demo's own profile, holding the key of every
    environment of the demo as the terminal demo's does, in `config` (a 0600 file in the
    demo's scratch folder, gone with it), and only the app settings (theme, keymap,
    auto-refresh) from the user's; no profile or connection variable may point the apps
    elsewhere, and no key travels in a variable."""
    from inboxdesk.cli.demo_service import DEMO_PROFILE

    held = {
        env.environment_id: {"name": env.name, "api_key": env.api_key}
        | ({"type": kind} if kind else {})
        for env, kind in demo.environments
    }
    profile: dict[str, object] = {"base_url": demo.url, "environments": held}
    if base.read_only:  # `demo --read-only`, or INBOXDESK_READ_ONLY: every app binds no write
        profile["read_only"] = True
    data = {"app": {"keymap": base.keymap}, "profiles": {DEMO_PROFILE: profile}}
    ConfigFile(config, data).save()
    environment: dict[str, str | None] = {env_name(k): None for k in PROFILE_FIELDS}
    environment |= {PROFILE_ENV: DEMO_PROFILE, "INBOXDESK_CONFIG": str(config)}
    shown = {"theme": base.theme, "auto_refresh": base.auto_refresh}
    return environment | {env_name(k): str(v) for k, v in shown.items() if v is not None}
