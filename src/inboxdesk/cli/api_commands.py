"""Scriptable API calls: integrations, set-primary, subscribers, messages, mark-as, mark-all."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from inboxdesk.cli.connection import connection_options, settings_from
from inboxdesk.cli.tables import table
from inboxdesk.client import InboxClient
from inboxdesk.client.factory import client_for
from inboxdesk.models import MarkAs, Message
from inboxdesk.text import clip

# Exit status when mark-as left some requested ids alone.
PARTIAL = 3
STATES = [m.value for m in MarkAs]


def _emit(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _call(args: argparse.Namespace, work: Callable[[InboxClient], Awaitable[int]]) -> int:
    settings = settings_from(args)

    async def main() -> int:
        async with client_for(settings) as client:
            return await work(client)

    return asyncio.run(main())


def _integrations(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        items = await client.list_integrations(active_only=args.active)
        if args.json:
            _emit([i.to_wire() | {"credentials": i.credentials.masked()} for i in items])
            return 0
        rows = [
            (
                i.id,
                i.channel,
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


def _set_primary(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        item = await client.set_primary(args.integration_id)
        if args.json:
            _emit(item.to_wire() | {"credentials": item.credentials.masked()})
        else:
            print(
                f"{item.name} ({item.provider_id}) is now the primary {item.channel} integration."
            )
        return 0

    return _call(args, work)


def _subscribers(args: argparse.Namespace) -> int:
    async def work(client: InboxClient) -> int:
        found = []
        page = args.page
        while True:
            result = await client.list_subscribers(page, args.limit)
            found += result.data
            if not (args.all and result.has_more and result.data):
                break
            page += 1
        if args.json:
            _emit([s.to_wire() for s in found])
            return 0
        rows = [
            (s.subscriber_id, s.display_name, s.email or "", "online" if s.is_online else "")
            for s in found
        ]
        print(table(["SUBSCRIBER", "NAME", "EMAIL", "ONLINE"], rows))
        return 0

    return _call(args, work)


def _message_rows(messages: list[Message]) -> list[tuple[object, ...]]:
    return [
        (
            m.id,
            "" if m.read else "unread",
            "" if m.seen else "unseen",
            m.created_at[:16].replace("T", " "),
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
            total = len(found)
        else:
            page = await client.feed(args.subscriber_id, args.page, args.limit, read, seen)
            found, total = page.data, page.total_count or len(page.data)
        if args.json:
            _emit([m.to_wire() for m in found])
            return 0
        print(
            table(
                ["ID", "READ", "SEEN", "CREATED", "STATUS", "TITLE", "PREVIEW"],
                _message_rows(found),
            )
        )
        print(f"({len(found)} of {total})", file=sys.stderr)
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
            print(f"Marked {len(result.messages)} message(s) {args.state}.")
        if result.not_updated:
            print(
                f"Not updated ({len(result.not_updated)}; unknown, or not this subscriber's): "
                + " ".join(result.not_updated),
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
    p.set_defaults(run=_set_primary)

    p = commands.add_parser("subscribers", parents=parents, help="list subscribers")
    p.add_argument("--page", type=int, default=0, help="zero-based page (default 0)")
    p.add_argument("--limit", type=int, default=100, help="per page, at most 100 (default 100)")
    p.add_argument("--all", action="store_true", help="follow pages to the end")
    p.set_defaults(run=_subscribers)

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
