"""Messages: the feed, listings and marks (Operation B)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from inboxdesk.models import MarkAs
from inboxdesk.models.enums import Channel
from inboxdesk.server.checkpoints import FeedCheckpoints
from inboxdesk.server.store.base import Caller, NotAllowed, NotFound, read_doc, utc_now
from inboxdesk.server.store.schema import MESSAGE_COLUMNS as _MESSAGE_COLUMNS
from inboxdesk.server.store.subscribers import SubscriberStore

# What each markAs sets, as production's does, and the state it changes (for mark-all).
MARK_EFFECTS: dict[MarkAs, tuple[str, str]] = {
    MarkAs.READ: ("read = 1, seen = 1, last_read_date = :now, last_seen_date = :now", "read = 0"),
    MarkAs.UNREAD: ("read = 0, seen = 1, last_read_date = :now, last_seen_date = :now", "read = 1"),
    MarkAs.SEEN: ("seen = 1, last_seen_date = :now", "seen = 0"),
    MarkAs.UNSEEN: ("seen = 0, last_seen_date = :now", "seen = 1"),
}


def listing_page(
    db: sqlite3.Connection, where: str, params: list[Any], limit: int, offset: int
) -> list[sqlite3.Row]:
    """Up to `limit + 1` messages of a listing, newest first, from `offset` on.

    One row past the page says whether there are more (production counts at most
    limit + 1), so the offset is walked once; and it is walked in the listing's index
    alone, whole rows being read for the page only (the v1 feed and the v2 inbox).
    """
    return db.execute(
        f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE id IN ("
        f"SELECT id FROM messages WHERE {where} "
        "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) "
        "ORDER BY created_at DESC, id DESC",
        [*params, limit + 1, offset],
    ).fetchall()


class MessageStore(SubscriberStore):
    _checkpoints: FeedCheckpoints

    def _messages(
        self, db: sqlite3.Connection, rows: Sequence[sqlite3.Row]
    ) -> list[dict[str, Any]]:
        """Wire messages from rows, with their subscriber and template joined in."""
        subscriber_ids = {r["subscriber_pk"] for r in rows}
        workflow_ids = {r["workflow_id"] for r in rows if r["workflow_id"]}
        subscribers = _docs_by_id(db, "subscribers", subscriber_ids)
        workflows = _docs_by_id(db, "workflows", workflow_ids)
        out = []
        for r in rows:
            doc: dict[str, Any] = read_doc(r["doc"])
            doc["read"] = bool(r["read"])
            doc["seen"] = bool(r["seen"])
            for column, field in (
                ("last_read_date", "lastReadDate"),
                ("last_seen_date", "lastSeenDate"),
            ):
                if r[column] is not None:
                    doc[field] = r[column]
            if r["subscriber_pk"] in subscribers:
                doc["subscriber"] = subscribers[r["subscriber_pk"]]
            if r["workflow_id"] in workflows:
                doc["template"] = workflows[r["workflow_id"]]
            out.append(doc)
        return out

    def mark_as(
        self, caller: Caller, subscriber_id: str, message_ids: Sequence[str], mark_as: MarkAs
    ) -> list[dict[str, Any]]:
        """Apply one markAs to the subscriber's messages among the ids, in one transaction.

        Only the subscriber's messages among the ids come back, updated, in production's
        slimmer DTO; another subscriber's and unknown ids are absent.
        """
        assignments = MARK_EFFECTS[mark_as][0]
        wanted = list(dict.fromkeys(message_ids))
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            pk = self._subscriber(db, caller, subscriber_id)["id"]
            params: dict[str, Any] = {"now": utc_now(), "env": caller.environment_id, "pk": pk}
            params.update({f"id{n}": v for n, v in enumerate(wanted)})
            in_list = ",".join(f":id{n}" for n in range(len(wanted)))
            db.execute(
                # `+` keeps SQLite on the primary key: the env index would scan the
                # whole environment.
                f"UPDATE messages SET {assignments} WHERE +environment_id = :env "
                f"AND +subscriber_pk = :pk AND id IN ({in_list})",
                params,
            )
            # Only the addressed subscriber's come back (production since August 2025):
            # another's, or an unknown id, is simply absent.
            rows = db.execute(
                f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE +environment_id = :env "
                f"AND +subscriber_pk = :pk AND id IN ({in_list})",
                params,
            ).fetchall()
            by_id = {r["id"]: r for r in rows}
            ordered = [by_id[i] for i in wanted if i in by_id]
            return [_slim(m) for m in self._messages(db, ordered)]

    def mark_all(self, caller: Caller, subscriber_id: str, mark_as: MarkAs) -> int:
        """Apply one markAs to every in-app message of the subscriber; the count changed."""
        assignments, differs = MARK_EFFECTS[mark_as]
        with self._checkpoints.writing(inserts=False), self.transaction() as db:
            pk = self._subscriber(db, caller, subscriber_id)["id"]
            cursor = db.execute(
                f"UPDATE messages SET {assignments} WHERE environment_id = :env "
                f"AND subscriber_pk = :pk AND channel = 'in_app' AND {differs}",
                {"now": utc_now(), "env": caller.environment_id, "pk": pk},
            )
            return cursor.rowcount

    def feed(
        self,
        caller: Caller,
        subscriber_id: str,
        page: int,
        limit: int,
        read: bool | None = None,
        seen: bool | None = None,
        payload: Any = None,
    ) -> tuple[list[dict[str, Any]], int, bool]:
        """One page of the subscriber's in-app feed items, newest first, as production
        answers it: the items, `totalCount` and `hasMore`.

        Production counts at most `limit + 1` rows past the page's offset, sets `hasMore`
        from that count and caps `totalCount` at `limit` (0 on an empty page). `payload`
        keeps the items whose payload holds every leaf of it (a partial payload).
        """
        db = self.read()
        row = db.execute(
            "SELECT id FROM subscribers WHERE environment_id = ? AND subscriber_id = ?",
            (caller.environment_id, subscriber_id),
        ).fetchone()
        if row is None:
            raise NotAllowed(
                f"Subscriber not found for this environment with the id: {subscriber_id}. "
                "Make sure to create a subscriber before fetching the feed."
            )
        where = "environment_id = ? AND subscriber_pk = ? AND channel = 'in_app'"
        params: list[Any] = [caller.environment_id, row["id"]]
        if read is not None:
            where += " AND read = ?"
            params.append(int(read))
        if seen is not None:
            where += " AND seen = ?"
            params.append(int(seen))
        if payload is not None:
            clause, values = payload_filter(payload)
            where += f" AND {clause}"
            params += values
        offset, after, anchor = page * limit, "", list[Any]()
        if payload is None:
            # A deep page walks from the checkpoint before it, not from the top.
            listing = (caller.environment_id, row["id"], read, seen, None, None)
            after, anchor, offset = self._checkpoints.start(db, listing, where, params, offset)
        fetched = listing_page(db, where + after, [*params, *anchor], limit, offset)
        if not fetched:
            return [], 0, False
        rows = fetched[:limit]
        items = [feed_item(doc) for doc in self._messages(db, rows)]
        return items, min(len(fetched), limit), len(fetched) > limit

    def unseen_count(self, caller: Caller, subscriber_id: str, seen: bool, limit: int) -> int:
        pk = self.subscriber_pk(caller, subscriber_id)
        row = (
            self.read()
            .execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE environment_id = ? "
                "AND subscriber_pk = ? AND channel = 'in_app' AND seen = ? LIMIT ?)",
                (caller.environment_id, pk, int(seen), limit),
            )
            .fetchone()
        )
        return int(row[0])

    def list_messages(
        self,
        caller: Caller,
        page: int,
        limit: int,
        channel: Channel | None = None,
        subscriber_id: str | None = None,
        transaction_ids: Sequence[str] = (),
    ) -> tuple[list[dict[str, Any]], int]:
        where = "environment_id = ?"
        params: list[Any] = [caller.environment_id]
        if channel is not None:
            where += " AND channel = ?"
            params.append(str(channel))
        if subscriber_id is not None:
            try:
                pk = self.subscriber_pk(caller, subscriber_id)
            except NotFound:
                return [], 0
            where += " AND subscriber_pk = ?"
            params.append(pk)
        if transaction_ids:
            where += f" AND transaction_id IN ({','.join('?' * len(transaction_ids))})"
            params.extend(transaction_ids)
        db = self.read()
        total = db.execute(f"SELECT COUNT(*) FROM messages WHERE {where}", params).fetchone()[0]
        rows = db.execute(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE {where} "
            "ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [*params, limit, page * limit],
        ).fetchall()
        return self._messages(db, rows), int(total)


def _docs_by_id(db: sqlite3.Connection, table: str, ids: set[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = db.execute(f"SELECT id, doc FROM {table} WHERE id IN ({marks})", list(ids))
    return {r["id"]: read_doc(r["doc"]) for r in rows}


# The fields production's feed embeds of a message's subscriber and of its workflow.
FEED_SUBSCRIBER_FIELDS = ("_id", "firstName", "lastName", "avatar", "subscriberId")
FEED_TEMPLATE_FIELDS = ("_id", "tags")


def feed_item(message: dict[str, Any]) -> dict[str, Any]:
    """A full wire Message as production's feed sends it (NotificationFeedItemDto)."""
    item = dict(message)
    for joined, fields in (
        ("subscriber", FEED_SUBSCRIBER_FIELDS),
        ("template", FEED_TEMPLATE_FIELDS),
    ):
        if isinstance(item.get(joined), dict):
            item[joined] = {k: item[joined][k] for k in fields if k in item[joined]}
    content = item.get("content")
    if isinstance(content, list):
        # An in-app message's content is a string in production; blocks become their text.
        item["content"] = "\n".join(
            str(b.get("content", "")) for b in content if isinstance(b, dict)
        )
    elif content is None:
        item["content"] = ""
    # Rows stored before the job id was filled in: the message id stands in for it.
    item.setdefault("_jobId", item.get("_id"))
    item.setdefault("archived", False)
    return item


# Production's message DTO on mark-as leaves these out.
_NOT_ON_MARK_AS = ("subscriber", "template", "contextKeys", "archived", "archivedAt", "tags")


def _slim(message: dict[str, Any]) -> dict[str, Any]:
    """A message as mark-as answers it: production's slimmer DTO, `_feedId` null."""
    slim = {k: v for k, v in message.items() if k not in _NOT_ON_MARK_AS}
    slim["_feedId"] = None
    return slim


def payload_filter(payload: Any) -> tuple[str, list[Any]]:
    """SQL for production's payload filter: each leaf of `payload`, addressed by its
    dotted path as MongoDB does, equals the message payload's value at that path."""
    clauses: list[str] = []
    params: list[Any] = []
    for path, value in _leaves(("payload",), payload):
        if any('"' in part for part in path):
            clauses.append("0")  # SQLite's JSON paths cannot name such a key: no match
            continue
        where = "$" + "".join(f'."{part}"' for part in path)
        if value is None:
            clauses.append("json_extract(doc, ?) IS NULL")
            params.append(where)
        elif isinstance(value, bool):
            clauses.append("json_type(doc, ?) = ?")
            params += [where, "true" if value else "false"]
        elif isinstance(value, int | float):
            clauses.append(
                "(json_type(doc, ?) IN ('integer', 'real') AND json_extract(doc, ?) = ?)"
            )
            params += [where, where, value]
        elif isinstance(value, str):
            clauses.append("(json_type(doc, ?) = 'text' AND json_extract(doc, ?) = ?)")
            params += [where, where, value]
        else:
            clauses.append("doc -> ? = json(?)")
            params += [where, json.dumps(value)]
    return " AND ".join(clauses) or "1", params


def _leaves(path: tuple[str, ...], value: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """(path, value) of every non-object value under `value`; dotted keys are paths."""
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield from _leaves((*path, *str(key).split(".")), inner)
    else:
        yield path, value
