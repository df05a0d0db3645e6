"""`inboxdesk serve`: the local service in the foreground."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from inboxdesk.paths import default_db_path


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="run the local service (SQLite over HTTP)")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback)")
    serve.add_argument("--port", type=_port, default=3000, help="port (default 3000; 0 picks one)")
    serve.add_argument("--db", type=Path, help=f"database file (default {default_db_path()})")
    serve.add_argument("--demo", action="store_true", help="seed demo data into an empty database")
    serve.add_argument(
        "--load",
        type=Path,
        action="append",
        metavar="FILE",
        help="load a fixture file (JSON; see README); may be repeated",
    )
    serve.add_argument(
        "--rate-limit",
        type=int,
        metavar="N",
        help="answer 429 past N requests per second per environment",
    )
    serve.set_defaults(run=run)


def _port(text: str) -> int:
    """A TCP port number (0 lets the system pick one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def run(args: argparse.Namespace) -> int:
    from inboxdesk.server.dblock import DatabaseInUse, DatabaseLock
    from inboxdesk.server.demo import demo_fixture
    from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
    from inboxdesk.server.ratelimit import RateLimit
    from inboxdesk.server.runner import base_url, bind, serve_forever
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store

    db_path: Path = args.db or default_db_path()
    if args.db is not None and not db_path.parent.is_dir():
        # Creating it would hide a typo in the path: say so and stop.
        print(
            f"inboxdesk: no directory {db_path.parent} for the database; create it first "
            "or choose another --db.",
            file=sys.stderr,
        )
        return 2
    # Held from before the store opens: a second service must not touch the first's rows.
    lock = DatabaseLock(db_path)
    try:
        lock.acquire()
    except DatabaseInUse as exc:
        print(f"inboxdesk: {exc}", file=sys.stderr)
        return 2
    try:
        store = Store(db_path)
    except Exception as exc:  # sqlite3 raises several kinds for a bad path or file
        print(f"inboxdesk: cannot open database {db_path}: {exc}", file=sys.stderr)
        return 2
    fixtures = []
    if args.demo:
        if store.is_empty():
            fixtures.append(("demo data", demo_fixture()))
        else:
            print(
                f"{db_path} already holds data: its keys were printed when it was seeded "
                "(use a new --db for a fresh demo)."
            )
    try:
        for path in args.load or []:
            fixtures.append((str(path), read_fixture(path)))
        loaded = [(name, load_fixture(store, fixture)) for name, fixture in fixtures]
    except FixtureError as exc:
        print(f"inboxdesk: {exc}", file=sys.stderr)
        return 2
    if store.is_empty():
        print(
            "The database is empty, so no API key exists: start with --demo or --load FILE.",
            file=sys.stderr,
        )
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(
            f"inboxdesk: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr
        )
        return 2
    url = base_url(sock)
    print(f"inboxdesk local service on {url}  (database {db_path})")
    for name, environments in loaded:
        for env in environments:
            # Keys are shown once, at creation: only their hashes are stored.
            note = "" if env.generated_key else " (from the fixture)"
            print(f"  {name}: {env.name} API key: {env.api_key}{note}")
    if loaded:
        print(f"  try: curl -H 'Authorization: ApiKey <key>' {url}/v1/integrations")
    sys.stdout.flush()
    limit = RateLimit(args.rate_limit, 1.0) if args.rate_limit else None
    serve_forever(ServerSettings(db_path=db_path, rate_limit=limit), sock, lock=lock)
    return 0
