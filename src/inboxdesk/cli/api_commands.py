"""Scriptable API calls: integrations, set-primary, subscribers, messages, mark-as, mark-all."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from inboxdesk.cli.connection import connection_options, settings_from
from inboxdesk.cli.tables import table
from inboxdesk.client import InboxClient
from inboxdesk.client.factory import client_for
from inboxdesk.models import PRIMARY_CHANNELS, Integration, MarkAs, MessageFields
from inboxdesk.text import clip, safe, safe_json

# Exit status when mark-as left some requested ids alone.
PARTIAL = 3
# Exit status when the user declined a confirmation.
DECLINED = 1
STATES = [m.value for m in MarkAs]


def _emit(data: Any) -> None:
    """JSON with the wire's types, and C1 and bidi controls escaped as well as C0."""
    print(safe_json(data, indent=2))


def _call(args: argparse.Namespace, work: Callable[[InboxClient], Awaitable[int]]) -> int:
    settings = settings_from(args)

    async def main() -> int:
        async with client_for(settings) as client:
            return await work(client)

    return asyncio.run(main())


def _names(item: Integration) -> str:
    """`Name (provider)`, safe to print."""
    return safe(f"{item.name} ({item.provider_id})", newlines=False)


def _integrations(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        items = await client.list_integrations(active_only=args.active)
        if args.json:
            _emit([i.masked() for i in items])
            return 0
        rows = [
            (
                i.id,
                i.channel or i.kind or "",
                i.name,
                i.provider_id,
                i.identifier,
                "yes" if i.active else "no",
                "PRIMARY" if i.primary else "",
                len(i.conditions or []),
            )
            for i in items
        ]
        print(
            table(
                [
                    "ID",
                    "CHANNEL",
                    "NAME",
                    "PROVIDER",
                    "IDENTIFIER",
                    "ACTIVE",
                    "PRIMARY",
                    "CONDITIONS",
                ],
                rows,
            )
        )
        return 0

    return _call(args, work)


def _confirm(question: str) -> bool:
    """Ask on the terminal; anything but y or yes declines."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        return False
    return answer.strip().lower() in {"y", "yes"}


def _set_primary(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        everything = await client.list_integrations()
        target = next((i for i in everything if i.id == args.integration_id), None)
        # Unknown ids and channels without a primary go to the service, which says why.
        if target is not None and target.channel in PRIMARY_CHANNELS:
            channel = safe(str(target.channel), newlines=False)
            if target.primary:
                if args.json:
                    _emit(target.masked())
                else:
                    print(f"{_names(target)} is already the primary {channel} integration.")
                return 0
            current = [
                i
                for i in everything
                if i.primary and i.channel == target.channel and i is not target
            ]
            conditions = len(target.conditions or [])
            if not args.yes and sys.stdin.isatty():
                replacing = (
                    f", replacing {', '.join(_names(i) for i in current)}"
                    if current
                    else " (it has none now)"
                )
                cleared = f" Its {conditions} condition(s) will be cleared." if conditions else ""
                if not _confirm(
                    f"Make {_names(target)} the primary {channel} integration{replacing}?{cleared}"
                ):
                    print("Nothing changed.", file=sys.stderr)
                    return DECLINED
        else:
            current, conditions = [], 0
        item = await client.set_primary(args.integration_id)
        if args.json:
            _emit(item.masked())
            return 0
        channel = safe(str(item.channel), newlines=False)
        print(f"{_names(item)} is now the primary {channel} integration.")
        for old in current:
            print(f"{_names(old)} is no longer primary (it stays active).")
        if conditions:
            print(f"Its {conditions} condition(s) were cleared.")
        return 0

    return _call(args, work)


def _subscribers(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        found = []
        after = args.after
        while True:
            result = await client.search_subscribers(
                email=args.email,
                name=args.name,
                phone=args.phone,
                subscriber_id=args.subscriber_id,
                limit=args.limit,
                after=after,
            )
            found += result.data
            after = result.next
            if not (args.all and after):
                break
        if args.json:
            _emit([s.to_wire() for s in found])
        else:
            rows = [
                (s.subscriber_id, s.display_name, s.email, s.phone, "online" if s.is_online else "")
                for s in found
            ]
            print(table(["SUBSCRIBER", "NAME", "EMAIL", "PHONE", "ONLINE"], rows))
        if after and not args.all:
            print(f"(more: --after {safe(after, newlines=False)})", file=sys.stderr)
        return 0

    return _call(args, work)


def _message_rows(messages: Sequence[MessageFields]) -> list[tuple[object, ...]]:
    return [
        (
            m.id,
            "" if m.read else "unread",
            "" if m.seen else "unseen",
            (m.created_at or "")[:16].replace("T", " "),
            m.status,
            clip(m.heading, 40),
            clip(m.preview, 50),
        )
        for m in messages
    ]


def _messages(args: argparse.Namespace) -> int:
    read = False if args.unread else None
    seen = False if args.unseen else None

    async def work(client: InboxClient) -> int:
        if args.all:
            found = [m async for m in client.iter_feed(args.subscriber_id, 100, read, seen)]
        else:
            page = await client.feed(args.subscriber_id, args.page, args.limit, read, seen)
            found = page.data
        if args.json:
            _emit([m.to_wire() for m in found])
            return 0
        counts = await client.notification_counts(args.subscriber_id)
        print(
            table(
                ["ID", "READ", "SEEN", "CREATED", "STATUS", "TITLE", "PREVIEW"],
                _message_rows(found),
            )
        )
        print(
            f"({len(found)} shown; {counts.unread} unread, {counts.unseen} unseen)",
            file=sys.stderr,
        )
        return 0

    return _call(args, work)


def _counts(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        counts = await client.notification_counts(args.subscriber_id)
        if args.json:
            _emit(
                {
                    name: {"count": count.value, "capped": count.capped, "shown": str(count)}
                    for name, count in (("unread", counts.unread), ("unseen", counts.unseen))
                }
            )
        else:
            print(table(["UNREAD", "UNSEEN"], [(str(counts.unread), str(counts.unseen))]))
        return 0

    return _call(args, work)


def _ids(values: list[str]) -> list[str]:
    ids: list[str] = []
    for value in values:
        if value == "-":
            ids += sys.stdin.read().split()
        else:
            ids += [part for part in value.replace(",", " ").split() if part]
    return ids


def _mark_as(args: argparse.Namespace) -> int:
    ids = _ids(args.message_ids)
    if not ids:
        print(
            "inboxdesk: no message ids given (pass ids, or - to read them from stdin).",
            file=sys.stderr,
        )
        return 2

    async def work(client: InboxClient) -> int:
        result = await client.mark_as(args.subscriber_id, ids, args.state)
        if args.json:
            _emit(
                {"data": [m.to_wire() for m in result.messages], "notUpdated": result.not_updated}
            )
        else:
            print(f"Marked {len(result.updated)} message(s) {args.state}.")
        if result.not_updated:
            print(
                f"Not updated ({len(result.not_updated)}; unknown, or not this subscriber's): "
                + safe(" ".join(result.not_updated), newlines=False),
                file=sys.stderr,
            )
            return PARTIAL
        return 0

    return _call(args, work)


def _mark_all(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        count = await client.mark_all(args.subscriber_id, args.state)
        if args.json:
            _emit({"data": count})
        else:
            print(f"Marked {count} message(s) {args.state}.")
        return 0

    return _call(args, work)


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    conn = connection_options()
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parents = [conn, out]

    p = commands.add_parser("integrations", parents=parents, help="list integrations")
    p.add_argument("--active", action="store_true", help="active integrations only")
    p.set_defaults(run=_integrations)

    p = commands.add_parser(
        "set-primary",
        parents=parents,
        help="make an email/sms integration the primary of its channel",
    )
    p.add_argument("integration_id", metavar="INTEGRATION_ID")
    p.add_argument(
        "-y", "--yes", action="store_true", help="do not ask for confirmation on a terminal"
    )
    p.set_defaults(run=_set_primary)

    p = commands.add_parser(
        "subscribers",
        parents=parents,
        help="search subscribers",
        description="Every filter given must match (GET /v2/subscribers).",
    )
    p.add_argument("--email", help="by email")
    p.add_argument("--name", help="by name")
    p.add_argument("--phone", help="by phone number")
    p.add_argument("--subscriber-id", help="by subscriberId")
    p.add_argument("--limit", type=int, default=100, help="per page, at most 100 (default 100)")
    p.add_argument("--after", metavar="CURSOR", help="the page after this cursor")
    p.add_argument("--all", action="store_true", help="follow pages to the end")
    p.set_defaults(run=_subscribers)

    p = commands.add_parser(
        "counts",
        parents=parents,
        help="a subscriber's unread and unseen in-app messages (99+ past the cap)",
    )
    p.add_argument("subscriber_id", metavar="SUBSCRIBER_ID")
    p.set_defaults(run=_counts)

    p = commands.add_parser("messages", parents=parents, help="a subscriber's in-app messages")
    p.add_argument("subscriber_id", metavar="SUBSCRIBER_ID")
    p.add_argument("--unread", action="store_true", help="unread only")
    p.add_argument("--unseen", action="store_true", help="unseen only")
    p.add_argument("--limit", type=int, default=20, help="per page, at most 100 (default 20)")
    p.add_argument("--page", type=int, default=0, help="zero-based page (default 0)")
    p.add_argument("--all", action="store_true", help="follow pages to the end")
    p.set_defaults(run=_messages)

    p = commands.add_parser(
        "mark-as",
        parents=parents,
        help="mark messages read, seen, unread or unseen",
        description="Exit status 3 when some ids were not updated (unknown or another's).",
    )
    p.add_argument("subscriber_id", metavar="SUBSCRIBER_ID")
    p.add_argument("state", choices=STATES)
    p.add_argument("message_ids", nargs="+", metavar="MESSAGE_ID", help="ids, or - for stdin")
    p.set_defaults(run=_mark_as)

    p = commands.add_parser(
        "mark-all", parents=parents, help="mark every in-app message of a subscriber"
    )
    p.add_argument("subscriber_id", metavar="SUBSCRIBER_ID")
    p.add_argument("state", choices=STATES)
    p.set_defaults(run=_mark_all)
