"""`inboxdesk subscriptions`: a subscriber's topic subscriptions, each with its topic and
what each workflow needs to pass it, in words (decision 124)."""

from __future__ import annotations

import sys

import click

from inboxdesk.cli.api_commands import _call, _emit, json_option
from inboxdesk.cli.connection import Flags, connection_options
from inboxdesk.cli.tables import terminal_width, whole
from inboxdesk.client import InboxClient
from inboxdesk.core.delivery.topics import NO_TRACE, rule_lines, subscription_name, topic_name
from inboxdesk.text import plural, safe


@click.command("subscriptions")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--topic", "topic_key", metavar="KEY", help="this topic's subscription only")
@json_option
@connection_options
def subscriptions(flags: Flags, subscriber_id: str, topic_key: str | None, as_json: bool) -> int:
    """The topics a subscriber follows: each subscription, its topic, its context and,
    for each workflow it has a record of, the condition a trigger must meet to pass."""

    async def work(client: InboxClient) -> int:
        found, more = await client.all_subscriptions(subscriber_id, key=topic_key)
        if more:
            print(
                f"inboxdesk: only the first {len(found)} subscriptions were read.",
                file=sys.stderr,
            )
        if as_json:
            _emit([s.to_wire() for s in found])
            return 0
        width = terminal_width()
        for n, subscription in enumerate(found):
            if n:
                print()
            created = (subscription.created_at or "")[:16].replace("T", " ")
            facts = [
                ("topic", topic_name(subscription)),
                ("subscription", subscription_name(subscription)),
                ("context", ", ".join(subscription.context_keys or []) or "none"),
                ("since", created or "(unknown)"),
            ]
            facts += [("passes", line) for line in rule_lines(subscription)]
            for name, value in facts:
                print(whole(f"{name:>12}", safe(value, newlines=False), width))
        who = safe(subscriber_id, newlines=False)
        if not found:
            print(f"{who} follows no topic.")
        else:
            print(f"\n({plural(len(found), 'subscription')})", file=sys.stderr)
            print(f"\n{NO_TRACE}")
        return 0

    return _call(flags, work, subscriber_id)


COMMANDS = [subscriptions]
