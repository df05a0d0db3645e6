"""`inboxdesk` / `inboxdesk tui` (the app on a profile) and `inboxdesk demo`."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from inboxdesk.cli.connection import CONNECTION_FLAGS, connection_options, settings_from
from inboxdesk.config import KEY_ENV, ConfigError, Settings, resolve


def run_tui(args: argparse.Namespace) -> int:
    from inboxdesk.tui.app import InboxdeskApp

    if args.web:
        from inboxdesk.cli import web

        settings_from(args)  # a config problem is said here, before a browser opens
        flags = {name: getattr(args, name, None) for name in CONNECTION_FLAGS}
        command = web.app_command(args.subscriber_flag)
        return web.serve_web(command, args.host, args.port, web.flags_environment(flags))
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
    from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
    from inboxdesk.server.runner import ServiceThread
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store
    from inboxdesk.tui.app import InboxdeskApp

    fixture = demo_fixture()
    if args.load is not None:
        try:
            fixture = read_fixture(args.load)
        except FixtureError as exc:
            print(f"inboxdesk: {exc}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="inboxdesk-demo-") as scratch:
        db_path: Path = args.db or Path(scratch) / "demo.db"
        store = Store(db_path)
        if store.is_empty():
            try:
                environments = load_fixture(store, fixture)
            except FixtureError as exc:
                print(f"inboxdesk: {exc}", file=sys.stderr)
                return 2
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
            if args.web:
                from inboxdesk.cli import web

                environment = {KEY_ENV: key, "INBOXDESK_BASE_URL": service.url}
                if base.theme:
                    environment["INBOXDESK_THEME"] = base.theme
                command = web.app_command(args.subscriber_flag)
                print(f"local service: {service.url}  (database {db_path})", flush=True)
                code = web.serve_web(command, args.host, args.port, environment)
                store.close()
                return code
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
        "--load", type=Path, metavar="FILE", help="a fixture file instead of the demo data"
    )
    web_options(demo)
    demo.set_defaults(run=run_demo)


def web_options(parser: argparse.ArgumentParser) -> None:
    from inboxdesk.cli.serve import _port
    from inboxdesk.cli.web import DEFAULT_PORT

    group = parser.add_argument_group("browser")
    group.add_argument("--web", action="store_true", help="serve the app to browsers instead")
    group.add_argument("--host", default="127.0.0.1", help="with --web: address (loopback)")
    group.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"with --web: port ({DEFAULT_PORT})"
    )
