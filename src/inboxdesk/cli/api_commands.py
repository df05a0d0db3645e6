"""Scriptable API calls: integrations, set-primary, subscribers, messages, mark-as, mark-all."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click

from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.message_json import message_items, raw_option
from inboxdesk.cli.prompts import go_ahead
from inboxdesk.cli.tables import table
from inboxdesk.client import ApiError, InboxClient, InboxdeskError
from inboxdesk.client.limits import Walk
from inboxdesk.client.source import Abilities, Entry, InboxSource, on_either
from inboxdesk.config.connect import Clients
from inboxdesk.config.keys import HeldKey, Keyring
from inboxdesk.core.inbox.ends import READ_ANY, SEEN_ANY, exact_count, exact_notification_counts
from inboxdesk.core.inbox.tabs import listing_query
from inboxdesk.core.inbox.unknown import explained
from inboxdesk.core.inbox.webhooks import webhook_warning, webhook_warning_uncounted
from inboxdesk.models import Count, MarkAs, Message, MessageFields, mask_secrets
from inboxdesk.models.inbox import InboxNotification
from inboxdesk.text import clip, plural, safe, safe_json

# A read imports none of the write machinery (the outbox, its journal, the kinds, the
# plans): each write command imports it as it runs.
if TYPE_CHECKING:
    from inboxdesk.writes import Flags as MessageFlags
    from inboxdesk.writes import Outbox, WriteStore

# Exit status when mark-as left some requested ids alone.
PARTIAL = 3
# Exit status when the user declined a confirmation.
DECLINED = 1
STATES = click.Choice([m.value for m in MarkAs])
json_option = click.option("--json", "as_json", is_flag=True, help="print JSON, not a table")


def _emit(data: Any, **beside: Any) -> None:
    """The one JSON envelope of every command: `{"data": ...}`, plus
    `next`, `notUpdated` or `failed` where they apply; the wire's types kept, and C1 and
    bidi controls escaped as well as C0."""
    write_out(safe_json({"data": data, **beside}, indent=2) + "\n")


# Written this much at a time: one large write to a pipe whose reader left returns a
# short count, not an error, and the rest is lost without a word; small ones fail.
CHUNK = 16_384


def write_out(text: str) -> None:
    """`text` on stdout, in pieces: a reader that stops early (`| head`) is noticed."""
    for start in range(0, len(text), CHUNK):
        sys.stdout.write(text[start : start + CHUNK])
    sys.stdout.flush()


def _print_ids(ids: Sequence[str | None]) -> None:
    """One id a line, for a pipe into `mark-as -` and the like."""
    for value in ids:
        if value:
            print(safe(value, newlines=False))


ids_option = click.option(
    "--ids", "ids_only", is_flag=True, help="print ids only, one per line (for pipes)"
)


def say_skipped(store: WriteStore) -> None:
    """One line for each damaged row of the journal that was passed over."""
    for line in store.skipped.values():
        print(f"inboxdesk: {safe(line, newlines=False)}", file=sys.stderr)


def _call(
    flags: Flags,
    work: Callable[[InboxClient], Awaitable[int]],
    subscriber: str | None = None,
) -> int:
    """Run `work` with the client of the environment the command acts in. `subscriber`:
    the one the command is about, said unknown one way (unknown.py) when a 404 was met."""

    async def reading(clients: Clients, held: HeldKey) -> int:
        return await _about(clients.of(held), held, subscriber, work(clients.of(held)))

    return _keys_call(flags, reading)


def _write_call(
    flags: Flags,
    work: Callable[[InboxClient, Outbox], Awaitable[int]],
    subscriber: str | None = None,
) -> int:
    """Like `_call`, with the outbox every write goes through (cli/writing.py)."""
    from inboxdesk.cli.writing import outbox_for

    async def writing(clients: Clients, held: HeldKey) -> int:
        outbox = outbox_for(clients.settings, clients.of(held), held, clients)
        try:
            return await _about(clients.of(held), held, subscriber, work(clients.of(held), outbox))
        finally:
            say_skipped(outbox.store)
            outbox.store.close()

    return _keys_call(flags, writing, writes=True)


async def _about(
    client: InboxClient, held: HeldKey, subscriber: str | None, work: Awaitable[int]
) -> int:
    """`work`'s exit status; a 404 or 400 on the way (routes answer an unknown subscriber
    with either) is told as an unknown `subscriber` when the subscriber read says so, as
    every command tells it."""
    try:
        return await work
    except ApiError as exc:
        if subscriber is None or exc.status not in (400, 404):
            raise
        raise await explained(client, subscriber, exc, held.name or None) from None


def _keys_call(
    flags: Flags,
    work: Callable[[Clients, HeldKey], Awaitable[int]],
    names_target: bool = False,
    writes: bool = False,
) -> int:
    """Run `work` with a client per key held and the key of the environment to act in;
    with no key for that environment nothing is sent. A key whose environment must be
    known first (a profile's key not yet filed by environment, or one key given with
    `--environment`) is named by the service first.

    `names_target`: `--environment` names the environment of the thing acted on (a
    switch, its undo), which the command checks itself. With one key given alone (an
    older deployment's key lists every environment's integrations), naming another
    environment is the typed confirmation of acting there.

    `writes`: the command writes, so a read-only run (the settings', or the environment
    acted in) stops before anything is read or sent."""
    settings = settings_from(flags)
    if writes:
        from inboxdesk.cli.writing import refuse_if_read_only

        refuse_if_read_only(settings)
    keyring = Keyring(settings)
    wanted = settings.environment
    lenient = names_target and keyring.single and wanted is not None
    held = keyring.keys[0] if lenient and keyring.keys else keyring.current()

    async def main() -> int:
        async with Clients(settings, keyring) as clients:
            current = held
            # A key given alone is named first where the profile marks an environment
            # read-only: a write must know whether it acts in that one.
            guarded = (
                writes
                and keyring.single
                and any(e.read_only for e in settings.environments.values())
            )
            if not held.environment_id and (keyring.unfiled or wanted is not None or guarded):
                current = await keyring.learn(clients.of(held), held)
                clients.adopt(current, clients.of(held))
                if not lenient:
                    keyring.check_named(current)
            if writes:
                refuse_if_read_only(settings, current)
            return await work(clients, current)

    return asyncio.run(main())


@click.command()
@click.option("--email", help="by email")
@click.option("--name", help="by name")
@click.option("--phone", help="by phone number")
@click.option("--subscriber-id", help="by subscriberId")
@click.option("--limit", type=click.IntRange(1, 100), default=100, help="per page, at most 100")
@click.option("--after", metavar="CURSOR", help="the page after this cursor")
@click.option("--all", "follow", is_flag=True, help="follow pages to the end")
@json_option
@ids_option
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
    ids_only: bool,
) -> int:
    """Search subscribers: every filter given must match (GET /v2/subscribers)."""

    async def work(client: InboxClient) -> int:
        nonlocal after
        found = []
        walk = Walk(client.options.limits.max_pages, "subscribers")
        while True:
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
            walk.onward((s.subscriber_id for s in result.data), after)
        if as_json:
            # Channel settings hold webhook URLs and device tokens: masked like any secret.
            shown = [mask_secrets(s.to_wire()) for s in found]
            _emit(shown, next=None if follow else after)
            return 0
        if ids_only:
            _print_ids([s.subscriber_id for s in found])
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
            "read" if m.read else "unread",
            "seen" if m.seen else "unseen",
            (m.created_at or "")[:16].replace("T", " "),
            m.status,
            clip(m.heading, 40),
            clip(m.preview, 50),
        )
        for m in messages
    ]


def _notification_rows(found: Sequence[InboxNotification]) -> list[tuple[object, ...]]:
    return [
        (
            n.id,
            "read" if n.is_read else "unread",
            "seen" if n.is_seen else "unseen",
            "archived"
            if n.is_archived
            else (f"snoozed to {n.snoozed_until[:16]}" if n.snoozed_until else ""),
            (n.created_at or "")[:16].replace("T", " "),
            clip(n.subject or "", 30),
            clip(n.body, 50),
        )
        for n in found
    ]


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--unread", is_flag=True, help="unread only")
@click.option("--unseen", is_flag=True, help="unseen only")
@click.option("--archived", is_flag=True, help="archived ones only")
@click.option("--snoozed", is_flag=True, help="snoozed ones only")
@click.option("--all-states", is_flag=True, help="archived and snoozed ones too")
@click.option("--limit", type=click.IntRange(1, 100), default=20, help="per page, at most 100")
@click.option("--page", type=click.IntRange(0), default=0, help="zero-based page")
@click.option("--all", "follow", is_flag=True, help="follow pages to the end")
@json_option
@raw_option
@ids_option
@connection_options
def messages(
    flags: Flags,
    subscriber_id: str,
    unread: bool,
    unseen: bool,
    archived: bool,
    snoozed: bool,
    all_states: bool,
    limit: int,
    page: int,
    follow: bool,
    as_json: bool,
    ids_only: bool,
) -> int:
    """A subscriber's in-app messages as their Inbox shows them (neither archived nor
    snoozed), from the v2 inbox; on an older service, the v1 feed (all of them)."""
    chosen = [
        (name, value)
        for name, value in (("archived", archived), ("snoozed", snoozed), ("all", all_states))
        if value
    ]
    if len(chosen) > 1:
        both = " and ".join(f"--{'all-states' if n == 'all' else n}" for n, _ in chosen)
        raise click.UsageError(f"{both} cannot be used together: pick one.")
    state = chosen[0][0] if chosen else None
    # The app's tabs read the same listings (core/inbox/tabs.py).
    query = listing_query(state, unread, unseen)

    async def listing(client: InboxClient, source: InboxSource) -> int:
        if not source.abilities.can_list(query):
            raise click.ClickException(
                "this service has no v2 inbox, so nothing can be told archived or snoozed"
            )
        if not source.abilities.archive:
            print(
                "inboxdesk: this service has no v2 inbox: the v1 feed, archived and snoozed "
                "messages included.",
                file=sys.stderr,
            )
        following: int | None = None
        if follow and ids_only and not as_json:
            # Streamed: each page's ids as it arrives, for a pipe that acts on them.
            async for items in source.pages(client, subscriber_id, query):
                _print_ids([item.id for item in items])
                sys.stdout.flush()
            return 0
        if follow:
            found = [i async for items in source.pages(client, subscriber_id, query) for i in items]
        else:
            listed = await source.page(client, subscriber_id, query, page, limit)
            found = list(listed.items)
            following = page + 1 if listed.has_more else None
            _say_left_out(listed.said)
        headings, rows = _columns(source.abilities, found)
        return await _show_listing(
            client,
            subscriber_id,
            list(zip([item.id for item in found], message_items(found), strict=True)),
            headings,
            rows,
            following,
            as_json,
            ids_only,
        )

    async def work(client: InboxClient) -> int:
        return await on_either(client, lambda source: listing(client, source))

    return _call(flags, work, subscriber_id)


async def _show_listing(
    client: InboxClient,
    subscriber_id: str,
    items: list[tuple[str | None, Any]],
    headings: list[str],
    rows: Callable[[], Sequence[Sequence[object]]],
    following: int | None,
    as_json: bool,
    ids_only: bool,
) -> int:
    """A page of `messages`, v2 or v1 alike: the envelope, the ids, or the table with
    the counts under it. `items`: each item's id and its wire form."""
    if as_json:
        _emit([wire for _, wire in items], next=following)
    elif ids_only:
        _print_ids([item_id for item_id, _ in items])
    else:
        try:
            counts = await exact_notification_counts(client, subscriber_id)
        except InboxdeskError as exc:
            # The rows were read: shown all the same, the counts said to be missing.
            print(table(headings, rows()))
            said = safe(exc.message, newlines=False)
            _say_more(len(items), following, "? (the counts failed: " + said + ")", "?")
            return 0
        print(table(headings, rows()))
        _say_more(len(items), following, counts.unread, counts.unseen)
    return 0


def _say_left_out(said: tuple[str, ...]) -> None:
    """What the client left out of a page it read (client/bounded.py), one line each."""
    for line in said:
        print(f"inboxdesk: {safe(line, newlines=False)}", file=sys.stderr)


def _say_more(shown: int, following: int | None, unread: object, unseen: object) -> None:
    more = f"; more on --page {following}, or --all for every one" if following is not None else ""
    print(f"({shown:,} shown{more}; {unread} unread, {unseen} unseen)", file=sys.stderr)


def _columns(
    abilities: Abilities, found: Sequence[Entry]
) -> tuple[list[str], Callable[[], Sequence[Sequence[object]]]]:
    """A listing's headings and rows: with each row's archive or snooze state where the
    source has them."""
    if abilities.archive:
        notifications = [n for n in found if isinstance(n, InboxNotification)]
        headings = ["ID", "READ", "SEEN", "STATE", "CREATED", "SUBJECT", "BODY"]
        return headings, lambda: _notification_rows(notifications)
    messages = [m for m in found if not isinstance(m, InboxNotification)]
    return ["ID", "READ", "SEEN", "CREATED", "STATUS", "TITLE", "PREVIEW"], lambda: _message_rows(
        messages
    )


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--all-states", is_flag=True, help="count archived and snoozed messages too")
@json_option
@connection_options
def counts(flags: Flags, subscriber_id: str, all_states: bool, as_json: bool) -> int:
    """A subscriber's unread and unseen in-app messages, as their Inbox counts them
    (neither archived nor snoozed); exact, past the service's cap of 100 too."""

    async def work(client: InboxClient) -> int:
        counts = await exact_notification_counts(client, subscriber_id, all_states)
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

    return _call(flags, work, subscriber_id)


def _ids(values: list[str]) -> list[str]:
    """The ids of the arguments (commas part them; spaces do not: an argument is one id,
    whatever it holds), or of stdin for `-` (one or more a line)."""
    ids: list[str] = []
    for value in values:
        parts = sys.stdin.read().split() if value == "-" else value.split(",")
        ids += [part.strip() for part in parts if part.strip()]
    return ids


@click.command("mark-as")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.argument("state", type=STATES)
@click.argument("message_ids", nargs=-1, required=True, metavar="MESSAGE_ID...")
@json_option
@raw_option
@connection_options
def mark_as(
    flags: Flags, subscriber_id: str, state: str, message_ids: tuple[str, ...], as_json: bool
) -> int:
    """Mark messages read, seen, unread or unseen (ids, or - to read them from stdin).

    Exit status 3 when some ids were not updated (unknown, or another subscriber's).
    """
    from inboxdesk.cli.writing import send
    from inboxdesk.core.inbox.plans import MarkPlan
    from inboxdesk.writes.before import MARK_PAGES, PAGE, mark_before

    ids = _ids(list(message_ids))
    if not ids:
        print(
            "inboxdesk: no message ids given (pass ids, or - to read them from stdin).",
            file=sys.stderr,
        )
        return 2

    # Warned, not asked: the ids may come from a pipe, and the mark goes on.
    warning = MarkPlan(subscriber_id, state, tuple(ids)).warning
    if warning:
        print(f"inboxdesk: {warning}", file=sys.stderr)

    async def work(client: InboxClient, outbox: Outbox) -> int:
        # Before: read from the subscriber's newest messages (else as the journal last
        # saw it), so that `undo` can take it back; said now when some is unknown.
        found = await mark_before(
            client, subscriber_id, ids, outbox.store.last_seen(outbox.where, ids)
        )
        seen = found.before
        if found.unknown and found.listed:
            print(
                f"State before unknown for {plural(len(found.unknown), 'message')} (not among "
                f"the subscriber's newest {MARK_PAGES * PAGE:,}), so this mark cannot be "
                "undone: " + safe(" ".join(found.unknown), newlines=False),
                file=sys.stderr,
            )
        plan = MarkPlan(subscriber_id, state, tuple(ids), None if found.unknown else seen)
        result = (await send(outbox, plan.write())).result
        if as_json:
            _emit(message_items(result.messages), notUpdated=list(result.not_updated))
        else:
            print(_marked(state, seen, result.messages))
        if result.not_updated:
            print(
                f"Not updated ({len(result.not_updated)}; unknown, or not this subscriber's): "
                + safe(" ".join(result.not_updated), newlines=False),
                file=sys.stderr,
            )
            return PARTIAL
        return 0

    return _write_call(flags, work, subscriber_id)


def _marked(state: str, seen: Mapping[str, MessageFlags], answered: Sequence[Message]) -> str:
    """What a mark changed, counted as the app's notices count it: a message whose flags
    the service answered are those inboxdesk last saw was already so. A message never
    seen counts as marked (its state before is unknown)."""
    already = sum(seen.get(m.id or "") == (m.read, m.seen) for m in answered)
    changed = len(answered) - already
    if not already:
        return f"Marked {plural(changed, 'message')} {state}."
    were = "was" if already == 1 else "were"
    if not changed:
        return f"{plural(already, 'message')} {were} already {state}; nothing changed."
    return f"Marked {plural(changed, 'message')} {state}; {already} {were} already."


@click.command("mark-all")
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.argument("state", type=STATES)
@click.option("-y", "--yes", is_flag=True, help="do not ask for confirmation on a terminal")
@json_option
@connection_options
def mark_all(flags: Flags, subscriber_id: str, state: str, yes: bool, as_json: bool) -> int:
    """Mark every in-app message of a subscriber (archived and snoozed ones included)."""
    from inboxdesk.cli.writing import send
    from inboxdesk.core.inbox.plans import MarkAllPlan
    from inboxdesk.writes.before import unread_before

    async def work(client: InboxClient, outbox: Outbox) -> int:
        if not yes:
            question, warning = await _mark_all_question(client, subscriber_id, state)
            if not go_ahead(question, yes, [warning] if warning else []):
                print("Nothing changed.", file=sys.stderr)
                return DECLINED
        # Listed first, as the app's `A` does, so that `undo` can take it back.
        listed = await on_either(
            client, lambda source: unread_before(client, subscriber_id, source, state)
        )
        plan = MarkAllPlan(subscriber_id, listed, state=state)
        count = (await send(outbox, plan.write())).result.count or 0
        if as_json:
            _emit(count)
        else:
            print(f"Marked {plural(count, 'message')} {state}.")
        return 0

    return _write_call(flags, work, subscriber_id)


async def _mark_all_question(
    client: InboxClient, subscriber_id: str, state: str
) -> tuple[str, str]:
    """The question of a mark-all, with the number it changes, and the webhooks it sets
    off (an unseen sets off none)."""
    who = safe(subscriber_id, newlines=False)
    question = f"Mark every in-app message of {who} {state}"
    flag = state.removeprefix("un")
    if state in ("read", "seen"):
        counts = await exact_notification_counts(client, subscriber_id, True)
        known: Count | None = counts.unread if state == "read" else counts.unseen
        now = f"not {state}"
    else:
        known = await exact_count(client, subscriber_id, READ_ANY if flag == "read" else SEEN_ANY)
        now = flag
    if known is None:
        warning = "" if state == "unseen" else webhook_warning_uncounted(f"message.{state}")
        return question + "?", warning
    # The number it changes, and the webhooks it sets off.
    question += f" ({known} {'is' if str(known) == '1' else 'are'} {now} now)?"
    if state == "unseen":
        return question, "Production sends no webhook for unseen."
    # An odd count is shown as sent, never used to size the warning.
    warning = (
        webhook_warning_uncounted(f"message.{state}")
        if known.odd
        else webhook_warning(int(known.value), f"message.{state}", known.capped)
    )
    return question, warning


COMMANDS = [subscribers, counts, messages, mark_as, mark_all]
