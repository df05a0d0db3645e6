"""`inboxdesk` / `inboxdesk tui` (the app on a profile) and `inboxdesk demo`."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from inboxdesk.cli.connection import connection_options, settings_from
from inboxdesk.config import ConfigError, Settings, resolve


def run_tui(args: argparse.Namespace) -> int:
    from inboxdesk.tui.app import InboxdeskApp

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
    tui.set_defaults(run=run_tui)

    demo = commands.add_parser("demo", help="the app on a local service with demo data")
    demo.add_argument("--db", type=Path, help="keep the demo database here (default: temporary)")
    demo.add_argument(
        "--subscriber",
        dest="subscriber_flag",
        metavar="ID",
        help="open this subscriber's inbox (default: the first)",
    )
    demo.set_defaults(run=run_demo)
