"""`--web` on `demo` and `tui`: the app served to browsers through textual-serve.

textual-serve starts one app process per browser session and relays its screen over a
websocket. The app process is `inboxdesk tui`, told where to connect and with which key
through its environment, so the key is never on a command line, in a URL or printed.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import sys
from collections.abc import Mapping

DEFAULT_PORT = 8000


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str) -> str | None:
    """The warning to print before binding `host`, or None for loopback."""
    if is_loopback(host):
        return None
    return (
        f"inboxdesk: warning: {host} is not a loopback address; anyone who can reach it "
        "gets the app and acts with its API key."
    )


def flags_environment(flags: Mapping[str, object]) -> dict[str, str]:
    """Connection flags given to `tui --web`, as the environment its app processes read."""
    from inboxdesk.config import KEY_ENV, PROFILE_ENV

    names = {"api_key": KEY_ENV, "profile": PROFILE_ENV}
    return {
        names.get(name, f"INBOXDESK_{name.upper()}"): str(value)
        for name, value in flags.items()
        if value is not None
    }


def app_command(subscriber: str | None = None) -> str:
    """The shell command textual-serve runs per session: this interpreter's inboxdesk."""
    words = [sys.executable, "-m", "inboxdesk", "tui"]
    if subscriber:
        words += ["--subscriber", subscriber]
    return shlex.join(words)


def serve_web(
    command: str,
    host: str,
    port: int,
    environment: Mapping[str, str] | None = None,
) -> int:
    """Serve `command` to browsers on host:port until Ctrl-C or SIGTERM.

    `environment` is added to what each app process inherits (the key goes there).
    """
    from textual_serve.server import Server

    warning = exposure_warning(host)
    if warning:
        print(warning, file=sys.stderr)
    os.environ.update(environment or {})
    url_host = f"[{host}]" if ":" in host else host
    url = f"http://{url_host}:{port}"
    server = Server(command, host=host, port=port, title="inboxdesk", public_url=url)
    print(f"inboxdesk in a browser: open {url}  (Ctrl-C stops)", flush=True)
    try:
        server.serve()
    except OSError as exc:
        print(f"inboxdesk: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0
