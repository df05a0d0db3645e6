"""Scriptable API calls: integrations, set-primary, subscribers, messages, mark-as, mark-all."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import click

from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.tables import table
from inboxdesk.client import InboxClient
from inboxdesk.client.factory import client_for
from inboxdesk.client.limits import too_many_pages
from inboxdesk.models import PRIMARY_CHANNELS, Channel, Integration, MarkAs, MessageFields
from inboxdesk.text import clip, safe, safe_json

# Exit status when mark-as left some requested ids alone.
PARTIAL = 3
# Exit status when the user declined a confirmation.
DECLINED = 1
STATES = click.Choice([m.value for m in MarkAs])
json_option = click.option("--json", "as_json", is_flag=True, help="print JSON, not a table")


def _emit(data: Any) -> None:
    """JSON with the wire's types, and C1 and bidi controls escaped as well as C0."""
    print(safe_json(data, indent=2))


def _call(flags: Flags, work: Callable[[InboxClient], Awaitable[int]]) -> int:
    settings = settings_from(flags)

    async def main() -> int:
        async with client_for(settings) as client:
            return await work(client)

    return asyncio.run(main())


def _names(item: Integration) -> str:
    """`Name (provider)`, safe to print."""
    return safe(f"{item.name} ({item.provider_id})", newlines=False)


@click.command()
@click.option("--active", is_flag=True, help="active integrations only")
@click.option(
    "--channel", type=click.Choice([c.value for c in Channel]), help="this channel's only"
)
@json_option
@connection_options
def integrations(flags: Flags, active: bool, channel: str | None, as_json: bool) -> int:
    """List integrations."""

    async def work(client: InboxClient) -> int:
        items = await client.list_integrations(active_only=active)
        if channel:
            items = [i for i in items if i.channel == channel]
        if as_json:
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

    return _call(flags, work)


def _confirm(question: str) -> bool:
    """Ask on the terminal; anything but y or yes declines."""
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        return False
    return answer.strip().lower() in {"y", "yes"}


@click.command("set-primary")
@click.argument("integration_id", metavar="INTEGRATION_ID")
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@json_option
@connection_options
def set_primary(flags: Flags, integration_id: str, yes: bool, as_json: bool) -> int:
    """Make an email or sms integration the primary of its channel."""

    async def work(client: InboxClient) -> int:
        everything = await client.list_integrations()
        target = next((i for i in everything if i.id == integration_id), None)
        # Unknown ids and channels without a primary go to the service, which says why.
        if target is not None and target.channel in PRIMARY_CHANNELS:
            channel = safe(str(target.channel), newlines=False)
            if target.primary:
                if as_json:
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
            if not yes and sys.stdin.isatty():
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
        item = await client.set_primary(integration_id)
        if as_json:
            _emit(item.masked())
            return 0
        channel = safe(str(item.channel), newlines=False)
        print(f"{_names(item)} is now the primary {channel} integration.")
        for old in current:
            print(f"{_names(old)} is no longer primary (it stays active).")
        if conditions:
            print(f"Its {conditions} condition(s) were cleared.")
        return 0

    return _call(flags, work)


@click.command()
@click.option("--email", help="by email")
@click.option("--name", help="by name")
@click.option("--phone", help="by phone number")
@click.option("--subscriber-id", help="by subscriberId")
@click.option("--limit", type=click.IntRange(1, 100), default=100, help="per page, at most 100")
@click.option("--after", metavar="CURSOR", help="the page after this cursor")
@click.option("--all", "follow", is_flag=True, help="follow pages to the end")
@json_option
@connection_options
def subscribers(
    flags: Flags,
    email: str | None,
    name: str | None,
    phone: str | None,
    subscriber_id: str | None,
    limit: int,
    after: str | None,
    follow: bool,
    as_json: bool,
) -> int:
    """Search subscribers: every filter given must match (GET /v2/subscribers)."""

    async def work(client: InboxClient) -> int:
        nonlocal after
        found = []
        most = client.options.limits.max_pages
        for pages in range(1, most + 2):
            if pages > most:
                raise too_many_pages(most, "subscribers")
            result = await client.search_subscribers(
                email=email,
                name=name,
                phone=phone,
                subscriber_id=subscriber_id,
                limit=limit,
                after=after,
            )
            found += result.data
            after = result.next
            if not (follow and after):
                break
        if as_json:
            _emit([s.to_wire() for s in found])
        else:
            rows = [
                (s.subscriber_id, s.display_name, s.email, s.phone, "online" if s.is_online else "")
                for s in found
            ]
            print(table(["SUBSCRIBER", "NAME", "EMAIL", "PHONE", "ONLINE"], rows))
        if after and not follow:
            print(f"(more: --after {safe(after, newlines=False)})", file=sys.stderr)
        return 0

    return _call(flags, work)


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


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--unread", is_flag=True, help="unread only")
@click.option("--unseen", is_flag=True, help="unseen only")
@click.option("--limit", type=click.IntRange(1, 100), default=20, help="per page, at most 100")
@click.option("--page", type=click.IntRange(0), default=0, help="zero-based page")
@click.option("--all", "follow", is_flag=True, help="follow pages to the end")
@json_option
@connection_options
def messages(
    flags: Flags,
    subscriber_id: str,
    unread: bool,
    unseen: bool,
    limit: int,
    page: int,
    follow: bool,
    as_json: bool,
) -> int:
    """A subscriber's in-app messages."""
    read = False if unread else None
    seen = False if unseen else None

    async def work(client: InboxClient) -> int:
        if follow:
            found = [m async for m in client.iter_feed(subscriber_id, 100, read, seen)]
        else:
            found = (await client.feed(subscriber_id, page, limit, read, seen)).data
        if as_json:
            _emit([m.to_wire() for m in found])
            return 0
        counts = await client.notification_counts(subscriber_id)
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

    return _call(flags, work)


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@json_option
@connection_options
def counts(flags: Flags, subscriber_id: str, as_json: bool) -> int:
    """A subscriber's unread and unseen in-app messages (99+ past the cap)."""

    async def work(client: InboxClient) -> int:
        counts = await client.notification_counts(subscriber_id)
        if as_json:
            _emit(
                {
                    name: {"count": count.value, "capped": count.capped, "shown": str(count)}
                    for name, count in (("unread", counts.unread), ("unseen", counts.unseen))
                }
            )
        else:
            print(table(["UNREAD", "UNSEEN"], [(str(counts.unread), str(counts.unseen))]))
        return 0

    return _call(flags, work)


def _ids(values: list[str]) -> list[str]:
    ids: list[str] = []
    for value in values:
        if value == "-":
            ids += sys.stdin.read().split()
        else:
            ids += [part for part in value.replace(",", " ").split() if part]
    return ids


@click.command("mark-as")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.argument("state", type=STATES)
@click.argument("message_ids", nargs=-1, required=True, metavar="MESSAGE_ID...")
@json_option
@connection_options
def mark_as(
    flags: Flags, subscriber_id: str, state: str, message_ids: tuple[str, ...], as_json: bool
) -> int:
    """Mark messages read, seen, unread or unseen (ids, or - to read them from stdin).

    Exit status 3 when some ids were not updated (unknown, or another subscriber's).
    """
    ids = _ids(list(message_ids))
    if not ids:
        print(
            "inboxdesk: no message ids given (pass ids, or - to read them from stdin).",
            file=sys.stderr,
        )
        return 2

    async def work(client: InboxClient) -> int:
        result = await client.mark_as(subscriber_id, ids, state)
        if as_json:
            _emit(
                {"data": [m.to_wire() for m in result.messages], "notUpdated": result.not_updated}
            )
        else:
            print(f"Marked {len(result.updated)} message(s) {state}.")
        if result.not_updated:
            print(
                f"Not updated ({len(result.not_updated)}; unknown, or not this subscriber's): "
                + safe(" ".join(result.not_updated), newlines=False),
                file=sys.stderr,
            )
            return PARTIAL
        return 0

    return _call(flags, work)


@click.command("mark-all")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.argument("state", type=STATES)
@json_option
@connection_options
def mark_all(flags: Flags, subscriber_id: str, state: str, as_json: bool) -> int:
    """Mark every in-app message of a subscriber."""

    async def work(client: InboxClient) -> int:
        count = await client.mark_all(subscriber_id, state)
        if as_json:
            _emit({"data": count})
        else:
            print(f"Marked {count} message(s) {state}.")
        return 0

    return _call(flags, work)


COMMANDS = [integrations, set_primary, subscribers, counts, messages, mark_as, mark_all]
