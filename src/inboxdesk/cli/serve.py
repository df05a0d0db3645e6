"""`inboxdesk serve`: the local service in the foreground."""

from __future__ import annotations

import ipaddress
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from inboxdesk.models.secrets import mask_secret
from inboxdesk.paths import default_db_path
from inboxdesk.text import safe

if TYPE_CHECKING:
    from inboxdesk.server.fixtures import LoadedEnvironment


def _port(ctx: click.Context, param: click.Parameter, port: int) -> int:
    """A TCP port number (0 lets the system pick one)."""
    if not 0 <= port <= 65535:
        raise click.BadParameter(f"a port is 0 to 65535, not {port}")
    return port


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to bind")
@click.option(
    "--port", type=int, default=3000, callback=_port, show_default=True, help="port (0 picks one)"
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"database file (default {default_db_path()})",
)
@click.option("--demo", "seed_demo", is_flag=True, help="seed demo data into an empty database")
@click.option(
    "--load",
    type=click.Path(dir_okay=False, path_type=Path),
    multiple=True,
    metavar="FILE",
    help="load a fixture file (JSON; see README); may be repeated",
)
@click.option(
    "--rate-limit",
    type=click.IntRange(1),
    metavar="N",
    help="answer 429 past N requests per second per environment",
)
@click.option(
    "--org-wide-integrations",
    is_flag=True,
    help="let a key list and switch every environment's integrations, as deployments "
    "older than May 2026 do",
)
@click.option(
    "--context-preferences",
    is_flag=True,
    help="keep preferences per context (?contextKeys=tenant:acme), as production does "
    "where its organization flag is on (on with --demo, as in `inboxdesk demo`)",
)
def serve(
    host: str,
    port: int,
    db: Path | None,
    seed_demo: bool,
    load: tuple[Path, ...],
    rate_limit: int | None,
    org_wide_integrations: bool,
    context_preferences: bool,
) -> int:
    """Run the local service (SQLite over HTTP)."""
    from inboxdesk.server.dblock import DatabaseInUse, DatabaseLock

    db_path: Path = db or default_db_path()
    if db is not None and not db_path.parent.is_dir():
        # Creating it would hide a typo in the path: say so and stop.
        print(
            f"inboxdesk: no directory {db_path.parent} for the database; create it first "
            "or choose another --db.",
            file=sys.stderr,
        )
        return 2
    if db is None:
        # The default directory is ours: create it on a fresh machine, private to the user.
        try:
            db_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            print(
                f"inboxdesk: cannot create {db_path.parent} for the database: {exc.strerror}; "
                "choose another --db.",
                file=sys.stderr,
            )
            return 2
    exposed = not is_loopback(host)
    if exposed:
        print(
            f"inboxdesk: warning: --host {host} is not loopback: anyone who can reach this "
            "machine can try keys against it; the service is meant for local use.",
            file=sys.stderr,
        )
    # Held from before the store opens: a second service must not touch the first's rows.
    lock = DatabaseLock(db_path)
    try:
        lock.acquire()
    except DatabaseInUse as exc:
        print(f"inboxdesk: {exc}", file=sys.stderr)
        return 2
    # The service's modules once the database is ours: a refusal imports none of them.
    from inboxdesk.server.demo import demo_fixture
    from inboxdesk.server.fixtures import FixtureError, load_fixture, read_fixture
    from inboxdesk.server.ratelimit import RateLimit
    from inboxdesk.server.runner import base_url, bind, serve_forever
    from inboxdesk.server.settings import ServerSettings
    from inboxdesk.server.store import Store

    try:
        store = Store(db_path)
    except Exception as exc:  # sqlite3 raises several kinds for a bad path or file
        print(f"inboxdesk: cannot open database {db_path}: {exc}", file=sys.stderr)
        return 2
    fixtures = []
    demo = None
    if not seed_demo and not load and store.is_empty():
        seed_demo = _offer_demo(db)
    if seed_demo:
        if store.is_empty():
            demo = demo_fixture()
            fixtures.append(("demo data", demo))
        else:
            print(
                f"{db_path} already holds data: its keys were saved beside it when it was "
                "seeded (use a new --db for a fresh demo)."
            )
    try:
        for path in load:
            fixtures.append((str(path), read_fixture(path)))
        # The demo is this program's own: its shape is proven by the tests.
        loaded = [
            (name, load_fixture(store, fixture, checked=fixture is not demo))
            for name, fixture in fixtures
        ]
    except FixtureError as exc:
        print(f"inboxdesk: {safe(str(exc), newlines=False)}", file=sys.stderr)
        return 2

    try:
        sock = bind(host, port)
    except OSError as exc:
        print(f"inboxdesk: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 2
    url = base_url(sock)
    print(f"inboxdesk local service on {url}  (database {db_path})")
    local = url.replace("0.0.0.0", "127.0.0.1") if exposed else url
    saved = _save_keys(db_path, loaded)
    for (name, env), kept in saved:
        note = "" if env.generated_key else ", from the fixture"
        where = f"{safe(name, newlines=False)}: {safe(env.name, newlines=False)}"
        shown = f"in {kept} (mode 0600{note})" if kept else "(could not be saved)"
        print(f"  {where} API key {mask_secret(env.api_key)} {shown}")
    first = next((kept for _, kept in saved if kept), None)
    if first is not None:
        print(f'  try: curl -H "Authorization: ApiKey $(cat {first})" {local}/v1/integrations')
        print(f"  save a key as a profile: {_profile_hint(local, first)}")
    sys.stdout.flush()
    limit = RateLimit(rate_limit, 1.0) if rate_limit else None
    settings = ServerSettings(
        db_path=db_path,
        rate_limit=limit,
        org_wide_integrations=org_wide_integrations,
        # The demo's tenant story needs the flag, as `inboxdesk demo` has it (demo_service).
        context_preferences=context_preferences or seed_demo,
    )
    serve_forever(settings, sock, lock=lock)
    return 0


def _offer_demo(db: Path | None) -> bool:
    """An empty database holds no key, so nothing can use it: on a terminal, offer the
    demo data; otherwise say which command seeds it."""
    import shlex

    command = "inboxdesk serve --demo" + (f" --db {shlex.quote(str(db))}" if db else "")
    if sys.stdin.isatty():
        from inboxdesk.cli.prompts import confirm

        return confirm("The database is empty, so no API key exists. Seed the demo data?")
    print(
        f"The database is empty, so no API key exists: run `{command}` for demo data, "
        "or add --load FILE.",
        file=sys.stderr,
    )
    return False


Saved = list[tuple[tuple[str, "LoadedEnvironment"], Path | None]]


def _profile_hint(url: str, key_file: Path) -> str:
    """A command that saves the key as a profile and works as printed: named after the
    port (one service, one profile), and `config set` once that profile exists, since
    add-profile refuses an existing name."""
    import shlex

    from inboxdesk.config import ConfigError
    from inboxdesk.config.file import ConfigFile

    name = f"local-{url.rsplit(':', 1)[-1]}"
    try:
        exists = name in ConfigFile.load().profiles()
    except ConfigError:
        exists = False  # an unreadable config file: add-profile will say why
    key = shlex.quote(str(key_file))
    if exists:
        return f"inboxdesk config set api_key - --profile {name} < {key}"
    return f"inboxdesk config add-profile {name} --base-url {url} --api-key - < {key}"


def _save_keys(db_path: Path, loaded: list[tuple[str, list[LoadedEnvironment]]]) -> Saved:
    """Each new environment's key in a file of its own, readable by the user alone, beside
    the database: keys are never printed."""
    folder = db_path.with_name(f"{db_path.stem}-keys")
    saved: Saved = []
    used: set[str] = set()
    for name, environments in loaded:
        for env in environments:
            slug = re.sub(r"[^a-z0-9]+", "-", env.name.casefold()).strip("-") or "environment"
            base, number = slug, 1
            while slug in used:  # two fixtures may name the same environment
                number += 1
                slug = f"{base}-{number}"
            used.add(slug)
            target = folder / f"{slug}.key"
            try:
                folder.mkdir(mode=0o700, exist_ok=True)
                flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
                with os.fdopen(os.open(target, flags, 0o600), "w") as file:
                    os.fchmod(file.fileno(), 0o600)  # an older file may have had another
                    file.write(env.api_key + "\n")
            except OSError:
                saved.append(((name, env), None))
            else:
                saved.append(((name, env), target))
    return saved


COMMANDS = [serve]
