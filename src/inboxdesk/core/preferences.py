"""A subscriber's preferences as one table, said once for the app and the command line:
global first, then each workflow, one cell per channel with its value and source;
critical workflows (read apart from the others) marked and locked. And the checks a
change passes before it is made, each failing with one line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from inboxdesk.delivery import preference_behind
from inboxdesk.models.preference import PREFERENCE_CHANNELS, Criticality, SubscriberPreferences
from inboxdesk.text import clip, plural, safe
from inboxdesk.writes.kinds.preference import SUBSCRIBER, Toggle, source_words

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient
    from inboxdesk.models.delivery import ActivityNotification

GLOBAL_NAME = "Global (every workflow)"

# Decision 125: a context's records count only under production's organization flag.
CONTEXT_NOTE = (
    "context records apply only where your organization has context preferences on; "
    "otherwise the no-context ones did"
)
# At most this many keys make one context (production's limit on a trigger's context).
MAX_CONTEXT_KEYS = 5


# A channel the service sends as `null` (stored so by a PATCH): neither on nor off.
NOT_SET_MARK = "·"


@dataclass(frozen=True)
class Cell:
    on: bool | None  # None: sent as `null`, "not set"; never counted as on or off
    chosen: bool  # the subscriber's own choice; False: the workflow's default

    @property
    def mark(self) -> str:
        """`on`, `OFF`, or `·` for a channel not set."""
        return NOT_SET_MARK if self.on is None else "on" if self.on else "OFF"

    @property
    def before(self) -> tuple[bool, bool] | None:
        """The state a change records to undo to; None: not set, which no write sends."""
        return None if self.on is None else (self.on, self.chosen)

    def words(self, workflow: str) -> str:
        if self.on is None:
            return "not set (the service sends null: neither on nor off)"
        return f"{'on' if self.on else 'off'} ({source_words(self.chosen, workflow)})"


@dataclass(frozen=True)
class Row:
    workflow: str  # the trigger identifier; "": the global row
    name: str  # raw
    slug: str = ""
    critical: bool = False
    cells: dict[str, Cell] = field(default_factory=dict)  # only the channels it uses
    # When the subscriber's record for this workflow last changed (decision 126); the
    # global preference has no date.
    updated_at: str | None = None

    @property
    def is_global(self) -> bool:
        return not self.workflow


@dataclass(frozen=True)
class PreferenceTable:
    subscriber_id: str
    rows: tuple[Row, ...]
    # What the service listed that the table could not keep, one line each (said once).
    said: tuple[str, ...] = ()
    # The subscriber's schedule (quiet hours) as the service sent it; None: none set.
    schedule: dict[str, Any] | None = None
    # The context whose records these are (sorted `type:id` keys); (): no context.
    context: tuple[str, ...] = ()

    def with_rows(self, rows: Sequence[Row]) -> PreferenceTable:
        """This table with `rows`, each workflow kept once (its first row)."""
        kept, said = unique_rows(rows)
        return PreferenceTable(
            self.subscriber_id, kept, self.said + said, self.schedule, self.context
        )

    @property
    def channels(self) -> list[str]:
        """The columns: every channel some row uses, in the service's order, then any
        channel this version does not know."""
        used = {c for r in self.rows for c in r.cells}
        known = [c for c in PREFERENCE_CHANNELS if c in used]
        return known + sorted(used - set(known))

    def row(self, workflow: str) -> Row | None:
        return next((r for r in self.rows if r.workflow == workflow), None)

    def find(self, text: str) -> Row | None:
        """A workflow by its identifier, slug or name (any case); None: no such one."""
        wanted = text.strip().casefold()
        for row in self.rows:
            if not row.is_global and wanted in (
                row.workflow.casefold(),
                row.slug.casefold(),
                row.name.casefold(),
            ):
                return row
        return None


def table_of(
    subscriber_id: str, listed: SubscriberPreferences, critical: SubscriberPreferences | None
) -> PreferenceTable:
    """The table of the non-critical listing and the critical one (None: not read)."""
    top = Row(
        "",
        GLOBAL_NAME,
        # Globally a channel that is off is the subscriber's choice; on is the default
        # or their choice, the same in effect.
        cells={c: Cell(v, v is False) for c, v in listed.global_.channels.items()},
    )
    rows = [top]
    nameless = 0
    # The critical listing first: a workflow the service lists in both is locked.
    for prefs, locked in ((critical, True), (listed, False)):
        for item in prefs.workflows if prefs is not None else []:
            info = item.workflow
            cells = {
                c: Cell(v, item.source(c) == SUBSCRIBER and not locked)
                for c, v in item.channels.items()
            }
            key = info.identifier or info.slug
            if not key:
                nameless += 1  # it cannot be named to change, nor told from the global row
                continue
            rows.append(Row(key, info.name, info.slug, locked, cells, item.updated_at))
    kept, said = unique_rows(rows)
    if nameless:
        said = (
            f"{plural(nameless, 'workflow')} without an identifier or slug left out: "
            "the service sent no name to change it by.",
            *said,
        )
    return PreferenceTable(subscriber_id, kept, said, listed.global_.schedule)


def unique_rows(rows: Sequence[Row]) -> tuple[tuple[Row, ...], tuple[str, ...]]:
    """Each workflow once (its first row: list the one that should win first), and a
    line naming those listed again."""
    seen: set[str] = set()
    kept: list[Row] = []
    again: list[str] = []
    for row in rows:
        if row.workflow in seen:
            again.append(row.workflow)
            continue
        seen.add(row.workflow)
        kept.append(row)
    # Shown in one order: global, the changeable workflows, then the critical ones.
    ordered = tuple(sorted(kept, key=lambda r: (not r.is_global, r.critical)))
    if not again:
        return ordered, ()
    named = [clip(w, 40) for w in dict.fromkeys(again)]
    more = f" and {len(named) - 3:,} more" if len(named) > 3 else ""
    said = f"the service listed {', '.join(named[:3])}{more} more than once: each shown once."
    return ordered, (said,)


async def load_table(
    client: InboxClient, subscriber_id: str, context: Sequence[str] = ()
) -> PreferenceTable:
    """Both listings, read at once: the changeable workflows and the critical ones; of
    the context `context` (`type:id` keys), else of none."""
    listed, critical = await asyncio.gather(
        client.preferences(subscriber_id, Criticality.NON_CRITICAL, context),
        client.preferences(subscriber_id, Criticality.CRITICAL, context),
    )
    table = table_of(subscriber_id, listed, critical)
    return replace(table, context=tuple(sorted(set(context))))


def parse_context(texts: Sequence[str]) -> tuple[str, ...] | str:
    """A context from `type:id` keys (a text may hold several, comma-separated): the
    sorted keys, or one line saying what is wrong (shown safe)."""
    keys: set[str] = set()
    for text in texts:
        for part in text.split(","):
            key = part.strip()
            kind, colon, ident = key.partition(":")
            if not colon or not kind.strip() or not ident.strip() or kind != kind.strip():
                return (
                    f"{safe(key or text, newlines=False)!r} is not a context key: give "
                    "type:id, as tenant:acme."
                )
            keys.add(key)
    if len(keys) > MAX_CONTEXT_KEYS:
        return f"a context holds at most {MAX_CONTEXT_KEYS} keys, not {len(keys)}."
    return tuple(sorted(keys))


def context_words(context: Sequence[str]) -> str:
    """`tenant:acme, project:x` or `no context`, raw (shown safe)."""
    return ", ".join(context) if context else "no context"


def differences(shown: PreferenceTable, plain: PreferenceTable) -> list[str]:
    """Where a context's table and the no-context one disagree, one line each: the
    workflow and channel, and the value in each (`Order shipped · email: off here,
    on without a context`), raw."""
    out = []
    for row in shown.rows:
        other = plain.row(row.workflow)
        if other is None or row.critical:
            continue
        for channel, cell in row.cells.items():
            theirs = other.cells.get(channel)
            if theirs is not None and theirs.on != cell.on:
                out.append(
                    f"{row.name} · {channel}: {cell.mark} here, {theirs.mark} without a context"
                )
    return out


def check_toggle(
    table: PreferenceTable, workflow: str | None, channel: str, on: bool | None
) -> Toggle | str:
    """The change asked for, or one line saying why it cannot be made (shown safe)."""
    if on is None:
        return "give --on or --off: a channel is turned on or off, nothing else."
    if channel not in PREFERENCE_CHANNELS:
        return (
            f"no channel {safe(channel, newlines=False)!r}: one of "
            f"{', '.join(PREFERENCE_CHANNELS)}."
        )
    row = table.row("") if workflow is None else table.find(workflow)
    if row is None:
        known = ", ".join(safe(r.workflow, newlines=False) for r in table.rows if r.workflow)
        return (
            f"no workflow {safe(workflow or '', newlines=False)!r} for this subscriber "
            f"(by identifier, slug or name): {known or 'none'}."
        )
    name = safe(row.name, newlines=False)
    if row.critical:
        return f"{name} is critical: it is always sent, and its channels cannot be changed."
    if channel not in row.cells:
        where = "no workflow" if row.is_global else f"{name}"
        return f"{where} sends {channel}: there is no {channel} preference to change."
    return Toggle(channel, on, row.workflow, "" if row.is_global else row.name)


def rows_for(table: PreferenceTable, workflow: str | None) -> Sequence[Row] | str:
    """The rows to show: all, or one workflow's (and why not, when it is unknown)."""
    if workflow is None:
        return table.rows
    row = table.find(workflow)
    if row is None:
        return f"no workflow {safe(workflow, newlines=False)!r} for this subscriber."
    return [row]


def _moment(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def changed_on(updated_at: str | None) -> str:
    """`2026-11-28 14:05 UTC`, or the stored text where it is not a time; "" for none."""
    when = _moment(updated_at) if updated_at else None
    if when is None:
        return safe(updated_at or "", newlines=False)
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def when_words(updated_at: str | None, created_at: str | None, channel: str) -> str | None:
    """Decision 126, for a step a workflow's preference canceled: the choice came before
    the notification, or has changed since (so when `channel` went off is unknown)."""
    changed = _moment(updated_at) if updated_at else None
    created = _moment(created_at) if created_at else None
    if changed is None:
        return None
    said = f"this workflow's choices last changed on {changed_on(updated_at)}"
    if created is not None and changed < created:
        return f"{said}, before this notification"
    return f"{said}: changed since: when {channel} went off is unknown"


async def preference_when(client: InboxClient, notification: ActivityNotification) -> str | None:
    """`when_words` for a notification whose cause is a workflow's preference, read from
    the subscriber's preferences now; None otherwise (the global one has no date)."""
    spot = preference_behind(notification)
    who = notification.subscriber
    if spot is None or spot.workflow is None or who is None or not who.subscriber_id:
        return None
    listed = await client.preferences(who.subscriber_id, Criticality.NON_CRITICAL)
    for item in listed.workflows:
        if spot.workflow in (item.workflow.identifier, item.workflow.slug):
            return when_words(item.updated_at, notification.created_at, spot.channel)
    return None
