"""`inboxdesk` / `inboxdesk tui` (the app on a profile) and `inboxdesk demo`."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from inboxdesk.cli import web
from inboxdesk.cli.connection import connection_options, settings_from
from inboxdesk.cli.serve import _port
from inboxdesk.config import ConfigError, Settings, resolve


def run_tui(args: argparse.Namespace) -> int:
    from inboxdesk.tui.app import InboxdeskApp

    if args.web:
        return web.serve_tui(settings_from(args), args.subscriber_flag, args.host, args.port)
    problem = None
    try:
        settings = settings_from(args)
    except ConfigError as exc:
        # The app still opens, on a screen that says what is wrong and how to fix it.
        settings, problem = Settings(), str(exc)
    InboxdeskApp(
        settings, subscriber_id=getattr(args, "subscriber_flag", None), problem=problem
    ).run()
    return 0


def run_demo(args: argparse.Namespace) -> int:
    """The local service with demo data on a free loopback port, and the app on it."""
    from inboxdesk.server.demo import demo_fixture
    from inboxdesk.server.fixtures import load_fixture
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store
    from inboxdesk.tui.app import InboxdeskApp

    if args.web:
        return web.serve_demo(args.db, args.load, args.subscriber_flag, args.host, args.port)
    if args.load:
        print("inboxdesk: demo --load needs --web (or use serve --load).", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="inboxdesk-demo-") as scratch:
        db_path: Path = args.db or Path(scratch) / "demo.db"
        store = Store(db_path)
        if store.is_empty():
            environments = load_fixture(store, demo_fixture())
            key = environments[0].api_key
        else:
            print(
                f"inboxdesk: {db_path} already holds data and its keys are stored hashed; "
                "use a new --db path for a demo.",
                file=sys.stderr,
            )
            return 2
        try:
            base = resolve({}, {})  # only the app settings (theme, keymap) are used
        except ConfigError:
            base = Settings()
        with ServiceThread(ServerSettings(db_path=db_path), store) as service:
            settings = Settings(
                base_url=service.url, api_key=key, theme=base.theme, keymap=base.keymap
            )
            InboxdeskApp(settings, subscriber_id=args.subscriber_flag).run()
        store.close()
    return 0


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tui = commands.add_parser(
        "tui",
        parents=[connection_options()],
        help="open the app (the default when no command is given)",
    )
    tui.add_argument(
        "--subscriber", dest="subscriber_flag", metavar="ID", help="open this subscriber's inbox"
    )
    web_options(tui)
    tui.set_defaults(run=run_tui)

    demo = commands.add_parser("demo", help="the app on a local service with demo data")
    demo.add_argument("--db", type=Path, help="keep the demo database here (default: temporary)")
    demo.add_argument(
        "--subscriber",
        dest="subscriber_flag",
        metavar="ID",
        help="open this subscriber's inbox (default: the first)",
    )
    demo.add_argument(
        "--load",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="with --web: a fixture file (JSON; see README) instead of the demo data",
    )
    web_options(demo)
    demo.set_defaults(run=run_demo)


def web_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--web", action="store_true", help="serve the app to browsers")
    parser.add_argument(
        "--host", default="127.0.0.1", help="with --web: address to bind (default: loopback)"
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=web.DEFAULT_PORT,
        help=f"with --web: port (default {web.DEFAULT_PORT}; 0 picks one)",
    )
