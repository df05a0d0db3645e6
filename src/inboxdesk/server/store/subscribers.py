"""Subscribers: lookup, listing, search and counts."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from inboxdesk.server.store.base import Caller, Database, NotAllowed, NotFound, read_doc


@dataclass(frozen=True)
class SubscriberSearch:
    """The query of `GET /v2/subscribers`: filters, page size, cursors and order."""

    email: str | None = None
    name: str | None = None
    phone: str | None = None
    subscriber_id: str | None = None
    limit: int = 10
    after: str | None = None
    before: str | None = None
    order_by: str = "_id"
    descending: bool = True
    include_cursor: bool = False


# What `orderBy` may name, as SQL over the subscribers table.
SUBSCRIBER_ORDER = {
    "_id": "id",
    "createdAt": "created_at",
    "updatedAt": "coalesce(json_extract(doc, '$.updatedAt'), '')",
    "subscriberId": "subscriber_id",
    "email": "coalesce(json_extract(doc, '$.email'), '')",
}
# Production counts matching subscribers up to this many (totalCountCapped past it).
SUBSCRIBER_COUNT_CAP = 50_000


class SubscriberStore(Database):
    @staticmethod
    def _subscriber(
        db: sqlite3.Connection,
        caller: Caller,
        subscriber_id: str,
        missing: Exception | None = None,
    ) -> sqlite3.Row:
        """The caller's subscriber by subscriberId, or NotFound (`missing`: the error a
        route answers instead, in production's words for that route)."""
        row: sqlite3.Row | None = db.execute(
            "SELECT id, doc FROM subscribers WHERE environment_id = ? AND subscriber_id = ?",
            (caller.environment_id, subscriber_id),
        ).fetchone()
        if row is None:
            raise missing or NotFound(f"Subscriber {subscriber_id} not found")
        return row

    def subscriber_pk(self, caller: Caller, subscriber_id: str) -> str:
        return str(self._subscriber(self.read(), caller, subscriber_id)["id"])

    def get_subscriber(self, caller: Caller, subscriber_id: str) -> dict[str, Any]:
        doc: dict[str, Any] = read_doc(self._subscriber(self.read(), caller, subscriber_id)["doc"])
        return doc

    def list_subscribers(
        self, caller: Caller, page: int, limit: int
    ) -> tuple[list[dict[str, Any]], bool]:
        rows = (
            self.read()
            .execute(
                "SELECT doc FROM subscribers WHERE environment_id = ? "
                "ORDER BY created_at, id LIMIT ? OFFSET ?",
                (caller.environment_id, limit + 1, page * limit),
            )
            .fetchall()
        )
        return [read_doc(r["doc"]) for r in rows[:limit]], len(rows) > limit

    def search_subscribers(
        self, caller: Caller, search: SubscriberSearch
    ) -> tuple[list[dict[str, Any]], str | None, str | None, int]:
        """One cursor page of `GET /v2/subscribers`: the subscribers, the `next` and
        `previous` cursors (a subscriber's `_id`) and the total, counted up to a cap."""
        if search.after is not None and search.before is not None:
            raise NotAllowed('Cannot specify both "before" and "after" cursors at the same time.')
        db = self.read()
        where = "environment_id = ?"
        params: list[Any] = [caller.environment_id]
        # email and phone are a case-insensitive part of their field (LIKE's own
        # wildcards escaped); the name is "first last"; subscriberId is an exact,
        # case-sensitive match, as production's.
        for path, value in (("$.email", search.email), ("$.phone", search.phone)):
            if value:
                where += " AND lower(coalesce(json_extract(doc, ?), '')) LIKE ? ESCAPE '\\'"
                params += [path, _contains(value)]
        if search.subscriber_id:
            where += " AND subscriber_id = ?"
            params.append(search.subscriber_id)
        if search.name:
            where += (
                " AND lower(trim(coalesce(json_extract(doc, '$.firstName'), '') || ' ' || "
                "coalesce(json_extract(doc, '$.lastName'), ''))) LIKE ? ESCAPE '\\'"
            )
            params.append(_contains(search.name))
        key = SUBSCRIBER_ORDER[search.order_by]
        total = db.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM subscribers WHERE {where} LIMIT ?)",
            [*params, SUBSCRIBER_COUNT_CAP + 1],
        ).fetchone()[0]
        descending = search.descending
        backwards = search.before is not None and search.after is None
        cursor = search.after if search.after is not None else search.before
        page_where, page_params = where, list(params)
        if cursor is not None:
            row = db.execute(
                f"SELECT {key} AS k, id FROM subscribers WHERE {where} AND id = ?",
                [*params, cursor.lower()],
            ).fetchone()
            if row is None:
                # Production's answer to a cursor that is not an id, or names no
                # subscriber of this search: an empty page, counting nothing.
                return [], None, None, 0
            # After the cursor in the page order, or before it when paging back.
            later = descending != backwards
            sign = "<" if later else ">"
            if search.include_cursor:
                sign += "="
            page_where += f" AND ({key}, id) {sign} (?, ?)"
            page_params += [row["k"], row["id"]]
        walk = "DESC" if descending != backwards else "ASC"
        rows = db.execute(
            f"SELECT id, doc FROM subscribers WHERE {page_where} "
            f"ORDER BY {key} {walk}, id {walk} LIMIT ?",
            [*page_params, search.limit + 1],
        ).fetchall()
        more = len(rows) > search.limit
        rows = rows[: search.limit]
        if backwards:
            rows.reverse()
        docs = [read_doc(r["doc"]) for r in rows]
        if not rows:
            return [], None, None, min(total, SUBSCRIBER_COUNT_CAP)
        first, last = rows[0]["id"], rows[-1]["id"]
        if backwards:
            following, previous = last, (first if more else None)
        else:
            following, previous = (last if more else None), (first if cursor else None)
        return docs, following, previous, int(total)


def _contains(text: str) -> str:
    """A LIKE pattern for `text` anywhere, lower-cased, its wildcards taken literally."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class SubscriberChanges(SubscriberStore):
    """Changes to a subscriber's own data, on its document, as production makes them."""

    def patch_subscriber(
        self, caller: Caller, subscriber_id: str, fields: dict[str, Any], now: str
    ) -> dict[str, Any]:
        """Write the fields given (None clears), nothing else; `data` is replaced whole.
        Nothing differs: nothing is written and the record comes back."""
        with self.transaction() as db:
            row = self._subscriber(
                db, caller, subscriber_id, NotFound(f"Subscriber {subscriber_id} was not found")
            )
            doc: dict[str, Any] = read_doc(row["doc"])
            if all(doc.get(name) == value for name, value in fields.items()):
                return doc
            doc.update(fields)
            doc["updatedAt"] = now
            db.execute("UPDATE subscribers SET doc = ? WHERE id = ?", (json.dumps(doc), row["id"]))
        return doc

    def _newest_integration(
        self, db: sqlite3.Connection, caller: Caller, provider_id: str, identifier: str | None
    ) -> str | None:
        """The newest active integration of the environment with that provider (and
        identifier, when given): its `_id`, or None."""
        sql = (
            "SELECT id FROM integrations WHERE environment_id = ? AND active = 1 "
            "AND deleted = 0 AND json_extract(doc, '$.providerId') = ?"
        )
        params: list[Any] = [caller.environment_id, provider_id]
        if identifier is not None:
            sql += " AND json_extract(doc, '$.identifier') = ?"
            params.append(identifier)
        sql += " ORDER BY coalesce(json_extract(doc, '$.createdAt'), '') DESC, position DESC"
        row = db.execute(sql, params).fetchone()
        return None if row is None else str(row["id"])

    def set_credentials(
        self,
        caller: Caller,
        subscriber_id: str,
        provider_id: str,
        credentials: dict[str, Any],
        identifier: str | None,
        append: bool,
        now: str,
    ) -> dict[str, Any]:
        """PUT (`append` False) or PATCH credentials, as production's one use case: only
        webhookUrl, deviceTokens and channel are kept, and an entry's tokens become the
        ones given (PUT), the union (PATCH), or none when none are given."""
        with self.transaction() as db:
            row = self._subscriber(
                db, caller, subscriber_id, NotAllowed(f"SubscriberId: {subscriber_id} not found")
            )
            integration = self._newest_integration(db, caller, provider_id, identifier)
            if integration is None:
                raise NotAllowed(
                    f"Subscribers environment ({caller.environment_id}) do not have active "
                    f"{provider_id} integration."
                )
            given = {k: credentials[k] for k in KEPT_CREDENTIALS if k in credentials}
            if isinstance(given.get("deviceTokens"), list):
                given["deviceTokens"] = list(dict.fromkeys(given["deviceTokens"]))
            doc: dict[str, Any] = read_doc(row["doc"])
            channels: list[dict[str, Any]] = list(doc.get("channels") or [])
            entry = next(
                (
                    c
                    for c in channels
                    if c.get("providerId") == provider_id and c.get("_integrationId") == integration
                ),
                None,
            )
            if entry is None:
                new: dict[str, Any] = {
                    "_integrationId": integration,
                    "providerId": provider_id,
                    "credentials": given,
                }
                if identifier is not None:
                    new["integrationIdentifier"] = identifier
                channels.append(new)
            else:
                old = dict(entry.get("credentials") or {})
                if old == given:
                    return doc
                tokens: list[Any] = []
                asked = given.get("deviceTokens")
                if isinstance(asked, list):
                    tokens = list(asked)
                    if append and asked:
                        tokens = list(dict.fromkeys([*(old.get("deviceTokens") or []), *asked]))
                entry["credentials"] = {**old, **given, "deviceTokens": tokens}
            changed = entry if entry is not None else channels[-1]
            count = len(changed["credentials"].get("deviceTokens") or [])
            if count > MAX_TOKENS:
                raise TooManyTokens(count)
            doc["channels"] = channels
            doc["updatedAt"] = now
            db.execute("UPDATE subscribers SET doc = ? WHERE id = ?", (json.dumps(doc), row["id"]))
        return doc

    def delete_credentials(self, caller: Caller, subscriber_id: str, provider_id: str) -> None:
        """Every entry of that provider goes, whatever its integration; none is a success."""
        with self.transaction() as db:
            row = self._subscriber(
                db, caller, subscriber_id, NotFound(f"Subscriber '{subscriber_id}' was not found")
            )
            doc: dict[str, Any] = read_doc(row["doc"])
            kept = [c for c in doc.get("channels") or [] if c.get("providerId") != provider_id]
            if len(kept) != len(doc.get("channels") or []):
                doc["channels"] = kept
                db.execute(
                    "UPDATE subscribers SET doc = ? WHERE id = ?", (json.dumps(doc), row["id"])
                )


# What production keeps of a credentials body; the rest is dropped without a word.
KEPT_CREDENTIALS = ("webhookUrl", "deviceTokens", "channel")
MAX_TOKENS = 100


class TooManyTokens(Exception):
    """More than MAX_TOKENS tokens in one entry after the merge: production's 400."""

    def __init__(self, count: int) -> None:
        super().__init__(
            "Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is "
            f"{MAX_TOKENS}, but got {count} tokens."
        )
        self.count = count
