"""`inboxdesk activity` across every subscriber of the environment, and `--by cause`.

The command keeps every option of the one-subscriber listing (cli/delivery_commands.py),
whose subscriber becomes optional. With a subscriber and none of the options added here
it runs as before; otherwise it reads the feed through client/feed.py: without a
subscriber over the last 24 hours unless `--since` says otherwise, scans bounded by
`scan_pages` (`--scan-pages N`), and `--by cause` prints the groups of
core/delivery/grouping.py, the ones the app shows.
"""

from __future__ import annotations

import asyncio
import copy
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import click

from inboxdesk.cli import delivery_commands as single
from inboxdesk.cli.api_commands import _call, _emit, write_out
from inboxdesk.cli.connection import CONNECTION
from inboxdesk.cli.tables import cell, table
from inboxdesk.client import InboxClient
from inboxdesk.client.activity import MAX_PAGE
from inboxdesk.client.feed import (
    SEVERITIES,
    FeedFilter,
    FeedScan,
    feed_filter,
    feed_page,
    scan_feed,
)
from inboxdesk.core.delivery.follow_feed import Follow
from inboxdesk.core.delivery.grouping import Group, Grouping
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import clip, plural, safe_json
from inboxdesk.timeinput import HELP, TimeInputError, local_now, parse_when

# Without a subscriber, the feed is read over this window unless --since says otherwise.
DEFAULT_WINDOW = timedelta(hours=24)

ADDED = [
    click.Option(
        ["--workflow", "workflows"],
        multiple=True,
        metavar="NAME",
        help="this workflow (its name, trigger identifier or _id); repeatable",
    ),
    click.Option(
        ["--severity"],
        type=click.Choice(SEVERITIES),
        multiple=True,
        help="this severity; repeatable",
    ),
    click.Option(
        ["--email", "emails"],
        multiple=True,
        metavar="E",
        help="the subscriber with this email (exact, as the service matches); repeatable",
    ),
    click.Option(["--topic"], metavar="KEY", help="sent to this topic"),
    click.Option(
        ["--context", "contexts"],
        multiple=True,
        metavar="TYPE:ID",
        help="with exactly this context; repeatable",
    ),
    click.Option(["--until"], metavar="WHEN", help=f"created until then: {HELP}"),
    click.Option(
        ["--by"],
        type=click.Choice(["cause"]),
        help="group by cause x channel x provider x code (the whole bounded scan)",
    ),
    click.Option(
        ["--view"],
        metavar="NAME",
        help="run the saved Activity view NAME ([views.NAME] of the config file; "
        "the options given here add to it)",
    ),
    click.Option(
        ["--follow", "tail"],
        is_flag=True,
        help="stream new notifications, one line each (JSON lines with --json), until Ctrl-C",
    ),
    click.Option(
        ["--scan-pages"],
        type=click.IntRange(1),
        metavar="N",
        help="read at most N pages of 50 (the scan_pages setting, 40 by default)",
    ),
]
_NAMES = {p.name for p in ADDED}


def _when(text: str | None, flag: str) -> datetime | None:
    if text is None:
        return None
    try:
        return parse_when(text, local_now(), future=False)
    except TimeInputError as exc:
        raise click.BadParameter(str(exc), param_hint=flag) from None


def _context(value: str) -> str:
    if ":" not in value.strip(":"):
        raise click.BadParameter(f"{value!r}: a context is TYPE:ID", param_hint="--context")
    return value


def _run(**given: Any) -> int:
    added = {name: given.pop(name) for name in _NAMES}
    view = added.pop("view")
    if view is not None:
        _apply_view(view, given, added)
    if given["subscriber_id"] is not None and not any(added.values()):
        # One subscriber and none of the options added here: the listing as it was.
        callback = single.activity.callback
        assert callback is not None
        return int(callback(**given))
    flags = {name: given.pop(name) for name in CONNECTION}
    return across(flags, **given, **added)


def _apply_view(name: str, given: dict[str, Any], added: dict[str, Any]) -> None:
    """Fill the options from the saved view `name`: what is typed wins; the view's
    environment is acted in with its key (or the missing key is named: nothing is sent)."""
    from inboxdesk.config.file import ConfigFile
    from inboxdesk.config.values import ConfigError
    from inboxdesk.core.views import ViewError, read_view

    try:
        table = ConfigFile.load().views().get(name)
        if table is None:
            raise ViewError(f"no view '{name}' in the config file")
        view = read_view(name, table)
    except (ConfigError, ViewError) as exc:
        raise click.UsageError(str(exc)) from None
    if view.kind != "activity":
        raise click.UsageError(f"view '{name}' is an {view.kind} view, not an Activity one")
    given["profile"] = given["profile"] or view.profile
    given["environment"] = given["environment"] or view.environment_id
    if given["subscriber_id"] is None and not view.everyone:
        given["subscriber_id"] = view.subscriber
    given["since"] = given["since"] or view.window
    given["channel"] = given["channel"] or view.channel
    given["failed"] = given["failed"] or view.failed
    if view.workflow and not added["workflows"]:
        added["workflows"] = (view.workflow,)
    added["by"] = added["by"] or view.grouping


def across(
    flags: dict[str, Any],
    *,
    subscriber_id: str | None,
    transaction_id: str | None,
    channel: str | None,
    failed: bool,
    since: str | None,
    limit: int,
    follow: bool,
    page: int,
    as_json: bool,
    workflows: tuple[str, ...],
    severity: tuple[str, ...],
    emails: tuple[str, ...],
    topic: str | None,
    contexts: tuple[str, ...],
    until: str | None,
    by: str | None,
    scan_pages: int | None,
    tail: bool = False,
    **rest: Any,
) -> int:
    """The feed of one subscriber or every one, filtered, listed or grouped by cause."""
    start, end = _when(since, "--since"), _when(until, "--until")
    if start is None and subscriber_id is None:
        start = (end or local_now()) - DEFAULT_WINDOW
    if start is not None and end is not None and start > end:
        raise click.BadParameter("--since is after --until", param_hint="--since")
    wanted = feed_filter(
        workflows=workflows,
        subscriber_ids=[subscriber_id] if subscriber_id else (),
        transaction_ids=[transaction_id] if transaction_id else (),
        channels=[channel] if channel else (),
        severity=severity,
        emails=emails,
        topic_key=topic,
        context_keys=[_context(c) for c in contexts] or None,
        after=None if start is None else start.isoformat(),
        before=None if end is None else end.isoformat(),
        failed=failed,
    )
    window = _window_words(start, end)

    if tail:
        if by is not None or until is not None:
            raise click.UsageError("--follow streams what arrives: not with --by or --until")

        async def streaming(client: InboxClient) -> int:
            return await follow_feed(client, wanted, limit, as_json)

        try:
            return _call(flags, streaming)
        except KeyboardInterrupt:  # Ctrl-C is how a stream ends
            return 0

    async def work(client: InboxClient) -> int:
        if by == "cause":
            return await _grouped(client, wanted, scan_pages, as_json, window)
        if not (failed or follow or limit > MAX_PAGE or wanted.workflow_names or topic):
            listed = await feed_page(client, wanted, page, limit)
            following = page + 1 if listed.has_more else None
            scan = FeedScan(listed.data, len(listed.data), 1, following is not None)
            return _listed(scan, following, as_json, window, failed)
        progress = single.Progress("did not arrive" if failed else "listed")
        try:
            scan = await scan_feed(
                client,
                wanted,
                scan_pages,
                lambda kept, so_far: progress(so_far.scanned, len(so_far.found)),
                None if follow else limit,
                start=page,
            )
        finally:
            progress.done()
        return _listed(scan, page + scan.pages if scan.bounded else None, as_json, window, failed)

    return _call(flags, work)


async def follow_feed(
    client: InboxClient,
    wanted: FeedFilter,
    limit: int,
    as_json: bool,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Print the newest `limit` notifications, then each new one as page 0 shows it,
    oldest first, at core's follow pacing, until cancelled: one line each, or one
    `{"data": …}` JSON line each (decision 120)."""
    follow = Follow()

    def emit(found: list[ActivityNotification]) -> None:
        shown = list(reversed(found))
        if as_json:
            for n in shown:
                write_out(safe_json({"data": single.wire(n)}) + "\n")
        else:
            for row in _rows(shown):
                write_out("  ".join(clip(cell(c), 70) for c in row).rstrip() + "\n")
        sys.stdout.flush()

    async def page_zero() -> list[ActivityNotification]:
        # What the service is not trusted with (failed, topic, workflow by name) is
        # checked here, as a scan checks it.
        page = await feed_page(client, wanted, 0, MAX_PAGE)
        return [n for n in page.data if wanted.keeps(n)]

    first = await page_zero()
    follow.start(first, clock())
    emit(first[: max(limit, 0)])
    while True:
        await sleep(follow.interval(clock()))
        emit(follow.merge(await page_zero(), clock()))


def _window_words(start: datetime | None, end: datetime | None) -> str:
    def short(at: datetime) -> str:
        return at.strftime("%Y-%m-%d %H:%M %Z").strip()

    if start is None and end is None:
        return ""
    if end is None:
        return f" since {short(start)}" if start else ""
    return f" from {short(start)} to {short(end)}" if start else f" until {short(end)}"


def _rows(found: list[ActivityNotification]) -> list[tuple[object, ...]]:
    return [
        (row[0], row[1], n.subscriber.subscriber_id if n.subscriber else "(deleted)", *row[2:])
        for n, row in zip(found, single._rows(found), strict=True)
    ]


def _listed(scan: FeedScan, following: int | None, as_json: bool, window: str, failed: bool) -> int:
    if as_json:
        _emit([single.wire(n) for n in scan.found], next=following, scanned=scan.scanned)
        return 0
    if scan.found:
        headers = ["WHEN", "NOTIFICATION", "SUBSCRIBER", "WORKFLOW", "JOBS", "CAUSE"]
        print(table(headers, _rows(scan.found)))
    listed = plural(len(scan.found), "notification")
    what = f"{listed} that did not arrive" if failed else listed
    more = f"; more from --page {following}" if following is not None else ""
    print(f"({what}{window}, {scan.summary()}{more})", file=sys.stderr)
    return 0


async def _grouped(
    client: InboxClient, wanted: FeedFilter, scan_pages: int | None, as_json: bool, window: str
) -> int:
    grouping = Grouping(wanted.channels)
    progress = single.Progress("grouped")

    def page(kept: list[ActivityNotification], scan: FeedScan) -> None:
        grouping.add(kept)
        progress(scan.scanned, grouping.scanned)

    try:
        scan = await scan_feed(client, wanted, scan_pages, page)
    finally:
        progress.done()
    groups = grouping.groups()
    if as_json:
        _emit([g.to_wire() for g in groups], scanned=scan.scanned, more=scan.bounded)
        return 0
    if groups:
        print(table(GROUP_HEADERS, [_group_row(g) for g in groups]))
    kept = plural(grouping.scanned, "notification")
    what = f"{kept} that did not arrive" if wanted.failed else kept
    print(f"({what}{window} in {plural(len(groups), 'group')}, {scan.summary()})", file=sys.stderr)
    return 0


GROUP_HEADERS = ["COUNT", "CAUSE", "CHANNEL", "PROVIDER", "CODE", "FIRST", "LAST", "WORKFLOWS"]
GROUP_HEADERS += ["EXAMPLES"]


def _group_row(group: Group) -> tuple[object, ...]:
    return (
        f"{group.count:,}",
        str(group.key.cause),
        group.key.channel,
        group.key.provider_id,
        group.key.code,
        single._when(group.first_seen),
        single._when(group.last_seen),
        clip(", ".join(group.top_workflows()), 30),
        ", ".join(clip(e, 20) for e in group.examples),
    )


def _command() -> click.Command:
    base = single.activity
    params: list[click.Parameter] = []
    for param in base.params:
        if param.name == "subscriber_id":
            param = click.Argument(["subscriber_id"], required=False, metavar="[SUBSCRIBER_ID]")
        elif param.name == "follow" and isinstance(param, click.Option):
            param = copy.copy(param)
            param.help = "every one (up to max_pages pages; without a subscriber, scan_pages)"
        params.append(param)
        if param.name == "page":
            params += ADDED
    if not set(ADDED) <= set(params):
        params += ADDED
    return click.Command(
        "activity",
        callback=_run,
        params=params,
        help="Notifications across every channel, newest first, each job's status and the "
        "cause in words (GET /v1/notifications). Without SUBSCRIBER_ID: every subscriber "
        "of the environment over the last 24 hours (--since), the scan bounded by "
        "scan_pages; --by cause groups what it read by cause, channel, provider and code.",
        short_help=base.short_help,
    )


activity = _command()
COMMANDS = [activity]
