"""`inboxdesk activity` and `inboxdesk delivery`: why a subscriber did or did not get a
notification, from the activity feed, with the cause in words (delivery.py)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import click

from inboxdesk.cli.api_commands import _call, _emit, json_option
from inboxdesk.cli.connection import Flags, connection_options, settings_from
from inboxdesk.cli.tables import table, terminal_width, whole
from inboxdesk.cli.when import since as parse_since
from inboxdesk.client import InboxClient, InboxdeskError
from inboxdesk.client.activity import MAX_PAGE, ActivityFilter
from inboxdesk.core.delivery import finding
from inboxdesk.core.delivery.advice_shown import advice_of
from inboxdesk.core.delivery.topics import topic_words
from inboxdesk.core.delivery.tracking import reporter_words, untracked_note
from inboxdesk.core.inbox.unknown import check_known
from inboxdesk.core.preferences import preference_when
from inboxdesk.delivery import Cause, glyph, job_causes, notification_cause, shown_raw
from inboxdesk.models import Integration
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.models.secrets import mask_secrets
from inboxdesk.text import clip, plural, safe
from inboxdesk.timeinput import HELP

# Exit status when nothing matched: as for any answer of the service that says no.
NOT_FOUND = 1
CHANNELS = click.Choice(["in_app", "email", "sms", "chat", "push", "tool"])


def _when(value: str | None) -> str:
    return (value or "")[:16].replace("T", " ")


def _cause_of(found: Any) -> dict[str, Any]:
    return {"kind": str(found.cause), "text": found.words, "failed": found.failed}


def wire(notification: ActivityNotification) -> dict[str, Any]:
    """A notification as `--json` gives it: the wire form with secrets masked, and a
    `cause` beside the notification and each job."""
    out: dict[str, Any] = mask_secrets(notification.to_wire())
    out["cause"] = _cause_of(notification_cause(notification))
    causes = {id(job): found for job, found in job_causes(notification)}
    for job, shown in zip(notification.jobs, out.get("jobs", []), strict=False):
        if id(job) in causes:
            shown["cause"] = _cause_of(causes[id(job)])
        for detail, shown_detail in zip(
            job.execution_details, shown.get("executionDetails", []), strict=False
        ):
            if detail.raw is not None:
                shown_detail["raw"] = shown_raw(detail.raw)
    return out


def _jobs(notification: ActivityNotification) -> str:
    return " ".join(f"{glyph(found)}{job.type}" for job, found in job_causes(notification))


def _rows(found: list[ActivityNotification]) -> list[tuple[object, ...]]:
    return [
        (
            _when(n.created_at),
            n.id,
            clip(n.workflow_name, 24),
            _jobs(n),
            notification_cause(n).words,  # whole: the table wraps it, never cuts it
        )
        for n in found
    ]


class Progress:
    """How far a scan got, on stderr: one line redrawn on a terminal, else every ten pages.
    It counts the notifications read, not pages of 50: the last page may hold fewer."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.tty = sys.stderr.isatty()
        self.drawn = False
        self.pages = 0

    def __call__(self, read: int, kept: int) -> None:
        self.pages += 1
        line = f"read {plural(read, 'notification')}: {kept:,} {self.what}"
        if self.tty:
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
            self.drawn = True
        elif self.pages == 1 or self.pages % 10 == 0:
            print(line, file=sys.stderr)

    def done(self) -> None:
        if self.drawn:
            print(file=sys.stderr)


@click.command()
@click.argument("subscriber_id", metavar="SUBSCRIBER_ID")
@click.option("--transaction-id", "transaction_id", metavar="T", help="this transactionId only")
@click.option("--channel", type=CHANNELS, help="notifications with a step of this channel")
@click.option(
    "--failed", is_flag=True, help="only what did not arrive (scans pages of 50, with progress)"
)
@click.option("--since", metavar="WHEN", help=f"created since then: {HELP}")
@click.option("--limit", type=click.IntRange(1), default=20, help="at most this many (20)")
@click.option("--all", "follow", is_flag=True, help="every one (up to max_pages pages)")
@click.option(
    "--page",
    type=click.IntRange(0),
    default=0,
    help="zero-based page: of --limit, or of 50 with --failed, --all or a limit over 50",
)
@json_option
@connection_options
def activity(
    flags: Flags,
    subscriber_id: str,
    transaction_id: str | None,
    channel: str | None,
    failed: bool,
    since: str | None,
    limit: int,
    follow: bool,
    page: int,
    as_json: bool,
) -> int:
    """A subscriber's notifications across every channel, newest first, each job's
    status and the cause in words (GET /v1/notifications)."""
    start = parse_since(since)
    wanted = ActivityFilter(
        subscriber_ids=[subscriber_id],
        transaction_ids=[transaction_id] if transaction_id else (),
        channels=[channel] if channel else (),
        after=None if start is None else start.isoformat(),
    )

    async def work(client: InboxClient) -> int:
        if not (failed or follow or limit > MAX_PAGE):
            listed = await client.activity(wanted, page, limit)
            _say(listed.said)
            if not listed.data:
                await check_known(client, subscriber_id)
            return _show(listed.data, 1, page + 1 if listed.has_more else None, limit, False)
        progress = Progress("did not arrive" if failed else "listed")
        try:
            scan = await finding.scan(
                client,
                wanted,
                None if failed else (lambda n: True),
                None if follow else limit,
                page,
                progress,
            )
        finally:
            progress.done()
        _say(scan.said)
        if not scan.read:
            await check_known(client, subscriber_id)
        return _show(scan.found, scan.pages, scan.next_page, MAX_PAGE, failed, scan.read)

    def _say(said: tuple[str, ...]) -> None:
        for line in said:
            print(f"inboxdesk: {safe(line, newlines=False)}", file=sys.stderr)

    def _show(
        found: list[ActivityNotification],
        pages: int,
        following: int | None,
        size: int,
        bad: bool,
        read: int | None = None,
    ) -> int:
        if as_json:
            _emit([wire(n) for n in found], next=following)
            return 0
        if found:
            headers = ["WHEN", "NOTIFICATION", "WORKFLOW", "JOBS", "CAUSE"]
            print(table(headers, _rows(found), whole_last=True, width=terminal_width()))
        more = f"; more from --page {following}" if following is not None else ""
        listed = plural(len(found), "notification")
        what = f"{listed} that did not arrive" if bad else listed
        # A scan says how many it read, which the last page may leave short of pages x 50.
        among = f" among {plural(read, 'notification')} read" if bad and read is not None else ""
        print(f"({what}{among}, from {plural(pages, 'page')} of {size}{more})", file=sys.stderr)
        return 0

    return _call(flags, work, subscriber_id)


def _timeline(notification: ActivityNotification, integrations: Sequence[Integration] = ()) -> str:
    """The notification's jobs in order, each detail a row, each `raw` under it."""
    rows: list[tuple[object, ...]] = []
    for job, found in job_causes(notification):
        rows.append(("", f"{glyph(found)} {job.type}", job.status, "", found.words))
        if found.cause is Cause.AFTER_SENDING and (by := reporter_words(job, integrations)):
            rows.append(("", "", "", "", by))
        if (untracked := untracked_note(job, integrations)) is not None:
            rows.append(("", "", "", "", untracked))
        if (meant := advice_of(job)) is not None:
            rows.append(("", "", "", "meaning", meant.words))
        for detail in job.execution_details:
            # The day too: a bounce a day later must not read as an hour later.
            rows.append(
                (_when(detail.created_at), "", detail.status, detail.source or "", detail.detail)
            )
            if detail.raw:
                rows.append(("", "", "", "raw", shown_raw(detail.raw)))
    # Causes, details and provider answers whole: wrapped on a terminal, never cut.
    headers = ["WHEN", "STEP", "STATUS", "SOURCE", "DETAIL"]
    return table(headers, rows, max_cell=72, whole_last=True, width=terminal_width())


async def _preference_when(client: InboxClient, notification: ActivityNotification) -> str:
    """Decision 126's words where a workflow's preference canceled a step; "" otherwise,
    or where the preferences cannot be read."""
    try:
        return await preference_when(client, notification) or ""
    except InboxdeskError:
        return ""


async def _integrations(client: InboxClient) -> list[Integration]:
    """The environment's integrations, to say which sent a job without tracking; none
    where they cannot be read (then nothing is said of tracking)."""
    try:
        return await client.list_integrations()
    except InboxdeskError:
        return []


@click.command()
@click.argument("key", metavar="ID_OR_TRANSACTION_ID")
@click.option(
    "--subscriber", "subscriber_id", metavar="SID", help="this subscriber's notifications only"
)
@click.option(
    "--follow",
    is_flag=True,
    help="read it again until every step is final, printing each new detail "
    "(exit 0: arrived, 1: something did not, 4: time limit)",
)
@json_option
@connection_options
def delivery(flags: Flags, key: str, subscriber_id: str | None, follow: bool, as_json: bool) -> int:
    """How one notification went on every channel: read as a notification id when it
    is one, else as a transactionId (every notification it names); each job with its
    execution details and the cause in words."""

    limits = (0.0, 0.0)
    if follow:
        settings = settings_from(flags)
        limits = (settings.follow_grace, settings.follow_limit)

    async def work(client: InboxClient) -> int:
        if follow:
            return await follow_delivery(client, key, subscriber_id, as_json, limits)
        found = await finding.find(client, key, subscriber_id)
        if not found:
            if subscriber_id:
                await check_known(client, subscriber_id)
            among = f" of subscriber {subscriber_id}" if subscriber_id else ""
            print(
                safe(
                    f"inboxdesk: no notification{among} has the id or transactionId '{key}'.",
                    newlines=False,
                ),
                file=sys.stderr,
            )
            return NOT_FOUND
        if as_json:
            _emit([wire(n) for n in found])
            return 0
        integrations = await _integrations(client)
        for n, notification in enumerate(found):
            if n:
                print()
            who = notification.subscriber
            lines = [
                ("notification", notification.id),
                ("transaction", notification.transaction_id),
                ("subscriber", who.subscriber_id if who else "(deleted subscriber)"),
                ("workflow", notification.workflow_name),
                ("created", _when(notification.created_at)),
                ("cause", notification_cause(notification).words),
                *(("topic", words) for words in topic_words(notification)),
            ]
            said_when = await _preference_when(client, notification)
            if said_when:
                lines.append(("when", said_when))
            width = terminal_width()
            for name, value in lines:
                print(whole(f"{name:>12}", value, width))
            print()
            print(_timeline(notification, integrations))
        if len(found) > 1:
            print(f"({plural(len(found), 'notification')})", file=sys.stderr)
        return 0

    try:
        return _call(flags, work, subscriber_id)
    except KeyboardInterrupt:
        if not follow:
            raise
        print("inboxdesk: stopped following.", file=sys.stderr)
        return 0


# `--follow`'s exit status on its time limit, beside 0 (arrived) and 1 (did not).
TIME_LIMIT = 4


def _news(
    notifications: list[ActivityNotification], printed: set[tuple[str, int, str]]
) -> list[str]:
    """The lines of what landed since `printed` (each job's status, each detail), and
    what they are noted as, so that each is printed once. Details are only ever added,
    so each is known by its place."""
    out: list[str] = []
    for notification in notifications:
        for place, (job, found) in enumerate(job_causes(notification)):
            for n, detail in enumerate(job.execution_details):
                mark = (notification.id, place, f"detail {n}")
                if mark in printed:
                    continue
                printed.add(mark)
                # The day too: a bounce a day later must not read as an hour later.
                said = f"{_when(detail.created_at)}  {job.type}  {detail.status}  "
                out.append(safe(f"{said}{detail.source or ''}  {detail.detail}", newlines=False))
            mark = (notification.id, place, f"status {job.status}")
            if mark not in printed:
                printed.add(mark)
                out.append(safe(f"{glyph(found)} {found.words}", newlines=False))
    return out


async def follow_delivery(
    client: InboxClient,
    key: str,
    subscriber_id: str | None,
    as_json: bool,
    limits: tuple[float, float],
) -> int:
    """Read the delivery until every step is final (and a provider's report had its
    grace, `limits[0]` seconds) or the time limit (`limits[1]`); each new detail printed
    as it lands."""
    from inboxdesk.core.delivery.follow_notification import (
        Ending,
        Follow,
        follow,
        tracked_providers,
    )

    def clock() -> datetime:
        return datetime.now(UTC)

    grace, limit = limits
    state = Follow(clock(), grace=grace, limit=limit, tracked=await tracked_providers(client))
    printed: set[tuple[str, int, str]] = set()
    latest: list[ActivityNotification] = []

    async def read() -> list[ActivityNotification]:
        return await finding.find(client, key, subscriber_id)

    def shown(found: list[ActivityNotification], moved: bool) -> None:
        latest[:] = found
        if as_json or not moved:
            return
        for line in _news(found, printed):
            print(line, flush=True)

    ending = await follow(read, state, clock, shown)
    if as_json:
        _emit([wire(n) for n in latest])
    cause = "; ".join(notification_cause(n).words for n in latest) or "nothing found yet"
    if ending is Ending.LIMIT:
        minutes = state.limit / 60
        print(
            safe(f"Stopped after {minutes:g} minutes, not final yet: {cause}", newlines=False),
            file=sys.stderr,
        )
        return TIME_LIMIT
    if ending is Ending.FAILED:
        print(safe(f"Did not arrive: {cause}", newlines=False), file=sys.stderr)
        return NOT_FOUND
    print(safe(f"Final: {cause}", newlines=False), file=sys.stderr)
    return 0


# `activity` is served by cli/activity_across.py, which keeps this one for a subscriber.
COMMANDS = [delivery]
