"""The v2 inbox: the subscriber's in-app notifications as their Inbox
shows them, the per-notification actions, bulk seen, and snoozes that end by themselves.

Archive and snooze state live in the message document (`archived`, `archivedAt`,
`snoozedUntil`, `deliveredAt`), as production keeps them on the message; the columns
`archived` and `snoozed_until` repeat the two flags for the listing's index, and every
write of them here writes both (schema.py `message_flags`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from inboxdesk.models import COUNT_CAP
from inboxdesk.server.checkpoints import Key
from inboxdesk.server.store.base import Caller, NotAllowed, NotFound, iso, read_doc
from inboxdesk.server.store.messages import MessageStore, listing_page
from inboxdesk.server.store.schema import MESSAGE_COLUMNS, message_flags

# The v2 list's filters, in the order a checkpoint key holds them (checkpoints.Key).
FLAGS = ("read", "seen", "archived", "snoozed")
# A snooze must end at least this far ahead.
SNOOZE_AHEAD = timedelta(seconds=60)
UNREAD_ARCHIVED = "Filtering for unread and archived notifications is not supported."


class InboxAction(StrEnum):
    READ = "read"
    UNREAD = "unread"
    ARCHIVE = "archive"
    UNARCHIVE = "unarchive"
    SNOOZE = "snooze"
    UNSNOOZE = "unsnooze"


class BulkOperation(StrEnum):
    """The v2 bulk operations on a subscriber's messages, by their path's last segment."""

    READ = "read"
    ARCHIVE = "archive"
    READ_ARCHIVE = "read-archive"
    DELETE = "delete"


class SnoozeTooSoon(ValueError):
    """A snooze that ends in the past or less than a minute ahead (a 422)."""


def inbox_filter(wanted: dict[str, Any]) -> tuple[str, list[Any]]:
    """SQL for the v2 filters read, seen, archived and snoozed: one rule for the list
    and the counts."""
    clauses: list[str] = []
    params: list[Any] = []
    for flag in ("read", "seen", "archived"):
        if isinstance(wanted.get(flag), bool):
            clauses.append(f"{flag} = ?")
            params.append(int(wanted[flag]))
    if isinstance(wanted.get("snoozed"), bool):
        # Written out, not compared with a parameter: the snoozed index is partial.
        clauses.append(f"snoozed_until IS {'NOT ' if wanted['snoozed'] else ''}NULL")
    return " AND ".join(clauses) or "1", params


@dataclass(frozen=True)
class Narrowing:
    """The v2 inbox's filters beyond the four flags, one rule for the list, the count,
    `seen` and the bulk operations. `tags` is in conjunctive form: each group must match
    one of its tags (`["a", "b"]` is one group, `{and: [{or}]}` several)."""

    severity: Sequence[str] = ()
    tags: Sequence[Sequence[str]] = ()
    data: dict[str, Any] | None = None
    created_gte: int | None = None  # Unix milliseconds
    created_lte: int | None = None
    context_keys: Sequence[str] | None = None
    # Bulk operations match any given context key; the list and the count, the exact set.
    any_context: bool = False

    @property
    def empty(self) -> bool:
        return self == Narrowing(any_context=self.any_context)


# A message's tags: its own, else its workflow's (the demo's messages carry none).
_TAGS = (
    "COALESCE(json_extract(messages.doc, '$.tags'), (SELECT json_extract(w.doc, '$.tags')"
    " FROM workflows w WHERE w.id = messages.workflow_id), '[]')"
)
_CONTEXT = "COALESCE(json_extract(messages.doc, '$.contextKeys'), '[]')"


def _ms(value: int) -> str:
    return iso(datetime.fromtimestamp(value / 1000, UTC))


def narrowing_filter(narrow: Narrowing) -> tuple[str, list[Any]]:
    """SQL (on `messages`) for a Narrowing, and its parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if narrow.severity:
        clauses.append(
            "COALESCE(json_extract(messages.doc, '$.severity'), 'none')"
            f" IN ({','.join('?' * len(narrow.severity))})"
        )
        params += list(narrow.severity)
    for group in narrow.tags:
        if group:
            clauses.append(
                f"EXISTS (SELECT 1 FROM json_each({_TAGS}) t"
                f" WHERE t.value IN ({','.join('?' * len(group))}))"
            )
            params += [str(t) for t in group]
    for key, value in (narrow.data or {}).items():
        if isinstance(value, dict | list):
            clauses.append("json_extract(messages.doc, '$.data.' || json_quote(?)) = json(?)")
            params += [key, json.dumps(value)]
        else:
            clauses.append("json_extract(messages.doc, '$.data.' || json_quote(?)) IS ?")
            params += [key, int(value) if isinstance(value, bool) else value]
    if narrow.created_gte is not None:
        clauses.append("messages.created_at >= ?")
        params.append(_ms(narrow.created_gte))
    if narrow.created_lte is not None:
        clauses.append("messages.created_at <= ?")
        params.append(_ms(narrow.created_lte))
    keys = list(dict.fromkeys(narrow.context_keys or ()))
    if narrow.context_keys is not None and narrow.any_context:
        if keys:
            clauses.append(
                f"EXISTS (SELECT 1 FROM json_each({_CONTEXT}) k"
                f" WHERE k.value IN ({','.join('?' * len(keys))}))"
            )
            params += keys
    elif narrow.context_keys is not None:
        # The exact set; none given: messages with no context.
        clauses.append(f"json_array_length({_CONTEXT}) = ?")
        params.append(len(keys))
        if keys:
            clauses.append(
                f"(SELECT COUNT(DISTINCT k.value) FROM json_each({_CONTEXT}) k"
                f" WHERE k.value IN ({','.join('?' * len(keys))})) = ?"
            )
            params += [*keys, len(keys)]
    return " AND ".join(clauses) or "1", params


def count_narrowing(wanted: dict[str, Any]) -> Narrowing:
    """A count filter's tags, severity and data (checked by the route) as a Narrowing."""
    tags = wanted.get("tags")
    severity = wanted.get("severity")
    data = wanted.get("data")
    if isinstance(data, str):
        data = json.loads(data)
    return Narrowing(
        severity=[severity] if isinstance(severity, str) else list(severity or ()),
        tags=[list(tags)] if isinstance(tags, list) and tags else (),
        data=data if isinstance(data, dict) else None,
    )


def unread_and_archived(wanted: dict[str, Any]) -> bool:
    return wanted.get("read") is False and wanted.get("archived") is True


def workflow_of(db: sqlite3.Connection, workflow_id: str | None) -> dict[str, Any] | None:
    """The item's `workflow`, as production populates it (deleted ones included)."""
    if not workflow_id:
        return None
    row = db.execute("SELECT doc FROM workflows WHERE id = ?", (workflow_id,)).fetchone()
    if row is None:
        return None
    doc = read_doc(row[0])
    triggers = [t for t in doc.get("triggers") or [] if isinstance(t, dict)]
    return {
        "id": doc.get("_id", workflow_id),
        "identifier": str(triggers[0].get("identifier", "")) if triggers else "",
        "name": doc.get("name", ""),
        "critical": bool(doc.get("critical")),
        "tags": list(doc.get("tags") or []),
        "severity": doc.get("severity") or "none",
    }


def notification(
    row: sqlite3.Row, subscriber: dict[str, Any], workflow: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An InboxNotificationDto from a message row, as production builds it."""
    doc: dict[str, Any] = read_doc(row["doc"])
    content = doc.get("content")
    if isinstance(content, list):
        content = "\n".join(str(b.get("content", "")) for b in content if isinstance(b, dict))
    snoozed_until = doc.get("snoozedUntil")
    out: dict[str, Any] = {
        "id": row["id"],
        "transactionId": doc.get("transactionId", ""),
        "body": content if isinstance(content, str) else "",
        "to": {
            "id": subscriber.get("_id", ""),
            "subscriberId": subscriber.get("subscriberId", ""),
            **{k: subscriber[k] for k in ("firstName", "lastName", "avatar") if subscriber.get(k)},
        },
        "isRead": bool(row["read"]),
        "isSeen": bool(row["seen"]),
        "isArchived": bool(doc.get("archived")),
        "isSnoozed": snoozed_until is not None,
        "createdAt": doc.get("createdAt", ""),
        "readAt": row["last_read_date"] if row["read"] else None,
        "firstSeenAt": doc.get("firstSeenAt") or (row["last_seen_date"] if row["seen"] else None),
        "archivedAt": doc.get("archivedAt") if doc.get("archived") else None,
        "channelType": "in_app",
        "severity": doc.get("severity") or "none",
        "deliveredAt": list(doc.get("deliveredAt") or []),
    }
    if snoozed_until is not None:  # sent only when set
        out["snoozedUntil"] = snoozed_until
    if workflow is not None:
        out["workflow"] = workflow
    for field in ("subject", "avatar", "tags", "data"):
        if doc.get(field) is not None:
            out[field] = doc[field]
    # An in-app message's title is what the subscriber's Inbox shows as its subject.
    if "subject" not in out and isinstance(doc.get("title"), str):
        out["subject"] = doc["title"]
    cta = doc.get("cta")
    if isinstance(cta, dict) and isinstance(cta.get("data"), dict) and cta["data"].get("url"):
        out["redirect"] = {"url": str(cta["data"]["url"])}
    return out


class InboxStore(MessageStore):
    clock: Callable[[], datetime]

    def _expire_snoozes(self, caller: Caller, subscriber_pk: str) -> None:
        """Snoozes whose time has passed end: `snoozedUntil` cleared and
        a new `deliveredAt` entry, as production redelivers them."""
        now = iso(self.clock())
        query = (
            "SELECT id, doc FROM messages WHERE environment_id = ? AND subscriber_pk = ?"
            " AND channel = 'in_app' AND snoozed_until IS NOT NULL AND snoozed_until <= ?"
        )
        args = (caller.environment_id, subscriber_pk, now)
        if self.read().execute(query, args).fetchone() is None:
            return
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            for row in db.execute(query, args).fetchall():
                doc = read_doc(row["doc"])
                doc.pop("snoozedUntil", None)
                doc["deliveredAt"] = [*(doc.get("deliveredAt") or []), now]
                db.execute(
                    "UPDATE messages SET doc = ?, archived = ?, snoozed_until = ? WHERE id = ?",
                    (json.dumps(doc), *message_flags(doc), row["id"]),
                )

    def _inbox_subscriber(
        self, db: sqlite3.Connection, caller: Caller, subscriber_id: str
    ) -> sqlite3.Row:
        try:
            return self._subscriber(db, caller, subscriber_id)
        except NotFound:
            # Production looks the subscriber up before its inbox use cases run (their
            # 400 is never reached): a 404, which a client tells from a missing route.
            raise NotFound(f"Subscriber '{subscriber_id}' was not found") from None

    def inbox(
        self,
        caller: Caller,
        subscriber_id: str,
        wanted: dict[str, Any],
        limit: int,
        offset: int = 0,
        after: str | None = None,
        narrow: Narrowing | None = None,
    ) -> tuple[list[dict[str, Any]], bool]:
        """One page of the subscriber's in-app notifications, newest first, and whether
        more follow. `after` is a notification id: the page starts past it."""
        narrow = narrow or Narrowing()
        if unread_and_archived(wanted):
            raise NotAllowed(UNREAD_ARCHIVED)
        subscriber = self._inbox_subscriber(self.read(), caller, subscriber_id)
        self._expire_snoozes(caller, subscriber["id"])
        db = self.read()
        flags, params = inbox_filter(wanted)
        narrowed, more = narrowing_filter(narrow)
        where = (
            "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app'"
            f" AND {flags} AND {narrowed}"
        )
        args: list[Any] = [caller.environment_id, subscriber["id"], *params, *more]
        if after is not None:
            # As production's cursor: looked up by id alone (in the environment), so
            # another subscriber's message works as a point in time.
            anchor = db.execute(
                "SELECT created_at, id FROM messages WHERE id = ? AND environment_id = ?",
                (after, caller.environment_id),
            ).fetchone()
            if anchor is None:
                return [], False  # a cursor outside the list: an empty page
            start = " AND (created_at < ? OR (created_at = ? AND id < ?))"
            anchors = [anchor["created_at"], anchor["created_at"], anchor["id"]]
            offset = 0
        elif not narrow.empty:
            start, anchors = "", []
        else:
            # A deep page walks from the checkpoint before it, not from the top.
            read, seen, archived, snoozed = (
                wanted[f] if isinstance(wanted.get(f), bool) else None for f in FLAGS
            )
            listing: Key = (caller.environment_id, subscriber["id"], read, seen, archived, snoozed)
            start, anchors, offset = self._checkpoints.start(db, listing, where, args, offset)
        rows = listing_page(db, where + start, [*args, *anchors], limit, offset)
        person = read_doc(subscriber["doc"])
        # Each workflow read once a page, not once a row (a page of 100 read 100).
        flows = {wid: workflow_of(db, wid) for wid in {r["workflow_id"] for r in rows[:limit]}}
        items = [notification(r, person, flows[r["workflow_id"]]) for r in rows[:limit]]
        return items, len(rows) > limit

    def inbox_action(
        self,
        caller: Caller,
        subscriber_id: str,
        notification_id: str,
        action: InboxAction,
        snooze_until: datetime | None = None,
    ) -> dict[str, Any]:
        """One notification read, unread, archived, unarchived, snoozed or unsnoozed."""
        now = self.clock()
        if action is InboxAction.SNOOZE and (
            snooze_until is None or snooze_until - now < SNOOZE_AHEAD
        ):
            raise SnoozeTooSoon("snoozeUntil must be at least 1 minute in the future")
        subscriber = self._inbox_subscriber(self.read(), caller, subscriber_id)
        stamp = iso(now)
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            row = db.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ? AND environment_id = ?"
                " AND subscriber_pk = ? AND channel = 'in_app'",
                (notification_id, caller.environment_id, subscriber["id"]),
            ).fetchone()
            if action is InboxAction.UNSNOOZE and (
                row is None or read_doc(row["doc"]).get("snoozedUntil") is None
            ):
                raise NotFound(
                    f"Could not find a snoozed notification with id '{notification_id}'. "
                    "The notification may not exist or may not be in a snoozed state."
                )
            if row is None and action is InboxAction.SNOOZE:
                raise NotFound(f"Notification id: '{notification_id}' not found")
            if row is None:
                raise NotFound(f"Notification with id: {notification_id} is not found.")
            doc = read_doc(row["doc"])
            read, seen = bool(row["read"]), bool(row["seen"])
            # Production's one update rule ("what each action sets").
            if action in (InboxAction.READ, InboxAction.ARCHIVE, InboxAction.UNARCHIVE):
                read = True
            elif action is InboxAction.UNREAD:
                read = False
            seen = True
            if action is InboxAction.ARCHIVE:
                doc["archived"], doc["archivedAt"] = True, stamp
            else:
                doc["archived"], doc["archivedAt"] = False, None
            if action is InboxAction.SNOOZE:
                assert snooze_until is not None
                doc["snoozedUntil"] = iso(snooze_until)
            elif action is InboxAction.UNSNOOZE:
                # deliveredAt stays: only the snooze's own end redelivers.
                doc.pop("snoozedUntil", None)
            if not doc.get("firstSeenAt"):
                doc["firstSeenAt"] = (row["seen"] and row["last_seen_date"]) or stamp
            db.execute(
                "UPDATE messages SET read = ?, seen = ?, doc = ?, archived = ?, snoozed_until = ?,"
                " last_read_date = CASE WHEN ? != read THEN ? ELSE last_read_date END,"
                " last_seen_date = CASE WHEN ? != seen THEN ? ELSE last_seen_date END"
                " WHERE id = ?",
                (
                    int(read),
                    int(seen),
                    json.dumps(doc),
                    *message_flags(doc),
                    int(read),
                    stamp,
                    int(seen),
                    stamp,
                    row["id"],
                ),
            )
            fresh = db.execute(
                f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?", (row["id"],)
            ).fetchone()
            return notification(
                fresh, read_doc(subscriber["doc"]), workflow_of(db, fresh["workflow_id"])
            )

    def inbox_bulk(
        self,
        caller: Caller,
        subscriber_id: str,
        operation: BulkOperation,
        narrow: Narrowing | None = None,
    ) -> None:
        """A v2 bulk operation: every message of the subscriber in the environment, of
        every channel, matching the optional filters (`contextKeys`: any of them), gets
        new dates even if already in that state; `read-archive` takes the read ones."""
        try:
            subscriber = self._subscriber(self.read(), caller, subscriber_id)
        except NotFound:
            raise NotFound(f"Subscriber '{subscriber_id}' was not found") from None
        stamp = iso(self.clock())
        where = "environment_id = ? AND subscriber_pk = ?"
        args: list[Any] = [caller.environment_id, subscriber["id"]]
        if operation is BulkOperation.READ_ARCHIVE:
            where += " AND read = 1"
        narrowed, more = narrowing_filter(narrow or Narrowing(any_context=True))
        where += f" AND {narrowed}"
        args += more
        deleting = operation is BulkOperation.DELETE
        with self._checkpoints.writing(inserts=deleting), self.transaction() as db:
            if deleting:
                db.execute(f"DELETE FROM messages WHERE {where}", args)
                return
            archive = operation is not BulkOperation.READ
            query = f"SELECT id, doc, seen, last_seen_date FROM messages WHERE {where}"
            for row in db.execute(query, args).fetchall():
                doc = read_doc(row["doc"])
                if not doc.get("firstSeenAt"):  # seen before: that date stays the first
                    doc["firstSeenAt"] = (row["seen"] and row["last_seen_date"]) or stamp
                if archive:  # a snooze's end is kept
                    doc["archived"], doc["archivedAt"] = True, stamp
                db.execute(
                    "UPDATE messages SET read = 1, seen = 1, last_read_date = ?,"
                    " last_seen_date = ?, doc = ?, archived = ?, snoozed_until = ? WHERE id = ?",
                    (stamp, stamp, json.dumps(doc), *message_flags(doc), row["id"]),
                )

    def count_notifications(
        self, caller: Caller, subscriber_id: str, filters: Sequence[dict[str, Any]]
    ) -> list[int]:
        """In-app notifications of the subscriber matching each filter, each counted up
        to COUNT_CAP as production's count endpoint does."""
        db = self.read()
        try:
            pk = self._subscriber(db, caller, subscriber_id)["id"]
        except NotFound:
            # Production's words, and a 400, unlike GET /v2/subscribers/{id}.
            raise NotAllowed(
                f"Subscriber {subscriber_id} doesn't exist in environment {caller.environment_id}"
            ) from None
        self._expire_snoozes(caller, pk)
        counts = []
        for wanted in filters:
            if wanted.get("read") is False and wanted.get("archived") is True:
                raise NotAllowed(
                    "Filtering for unread and archived notifications is not supported."
                )
            flags, params = inbox_filter(wanted)
            narrowed, more = narrowing_filter(count_narrowing(wanted))
            where = (
                "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app'"
                f" AND {flags} AND {narrowed}"
            )
            params = [caller.environment_id, pk, *params, *more]
            row = db.execute(
                f"SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE {where} LIMIT ?)",
                [*params, COUNT_CAP],
            ).fetchone()
            counts.append(int(row[0]))
        return counts

    def inbox_seen(
        self,
        caller: Caller,
        subscriber_id: str,
        notification_ids: Sequence[str] | None,
        narrow: Narrowing | None = None,
    ) -> None:
        """Bulk seen: the listed notifications, or every one of the subscriber's, that
        match every filter of `narrow`."""
        if notification_ids is not None and not notification_ids:
            return  # production answers before it looks the subscriber up
        subscriber = self._inbox_subscriber(self.read(), caller, subscriber_id)
        stamp = iso(self.clock())
        narrowed, more = narrowing_filter(narrow or Narrowing(any_context=True))
        where = (
            "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app' AND seen = 0"
            f" AND {narrowed}"
        )
        args: list[Any] = [caller.environment_id, subscriber["id"], *more]
        if notification_ids is not None:
            ids = list(dict.fromkeys(notification_ids))
            if not ids:
                return
            where += f" AND id IN ({','.join('?' * len(ids))})"
            args += ids
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            db.execute(
                f"UPDATE messages SET seen = 1, last_seen_date = ? WHERE {where}", [stamp, *args]
            )


def default_clock() -> datetime:
    return datetime.now(UTC)
