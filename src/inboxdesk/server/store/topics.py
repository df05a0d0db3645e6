"""Topics and a subscriber's subscriptions to them, with each subscription's workflow
records (a JSON Logic condition, or on/off), listed as production's
`GET /v2/subscribers/{id}/subscriptions` lists them (acting.md 4.1)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inboxdesk.models.subscription import default_identifier
from inboxdesk.server.store.base import Caller, NotAllowed, NotFound, read_doc
from inboxdesk.server.store.subscribers import SUBSCRIBER_COUNT_CAP, SubscriberStore

TOPICS_SCHEMA = """
CREATE TABLE IF NOT EXISTS topics (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    key TEXT NOT NULL,
    doc TEXT NOT NULL,
    UNIQUE (environment_id, key)
);
-- A subscription: its subscriber by subscriberId (as production keeps it), its context
-- keys as a sorted JSON array, its records (`preferences`: _templateId, enabled,
-- condition) in doc.
CREATE TABLE IF NOT EXISTS topic_subscriptions (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id),
    topic_key TEXT NOT NULL,
    subscriber_id TEXT NOT NULL,
    context_keys TEXT NOT NULL,
    doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS subscriptions_by_subscriber
    ON topic_subscriptions(environment_id, subscriber_id, id);
"""


@dataclass(frozen=True)
class SubscriptionQuery:
    """The query of a subscriber's subscriptions, read as production reads it."""

    key: str | None = None
    # None: any; empty: subscriptions without context; else that exact set.
    context_keys: tuple[str, ...] | None = None
    limit: int = 10
    after: str | None = None
    before: str | None = None
    descending: bool = True
    include_cursor: bool = False


@dataclass(frozen=True)
class StagedTopic:
    """A topic of a fixture and its subscriptions, ready to store."""

    doc: dict[str, Any]
    subscriptions: list[dict[str, Any]]


class TopicStore(SubscriberStore):
    def insert_topics(self, environment_id: str, items: Sequence[StagedTopic]) -> None:
        with self.transaction() as db:
            for item in items:
                db.execute(
                    "INSERT INTO topics VALUES (?, ?, ?, ?)",
                    (item.doc["_id"], environment_id, item.doc["key"], json.dumps(item.doc)),
                )
                db.executemany(
                    "INSERT INTO topic_subscriptions VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (
                            s["_id"],
                            environment_id,
                            item.doc["key"],
                            s["subscriberId"],
                            json.dumps(sorted(s.get("contextKeys") or [])),
                            json.dumps(s),
                        )
                        for s in item.subscriptions
                    ],
                )

    def list_subscriptions(
        self, caller: Caller, subscriber_id: str, query: SubscriptionQuery
    ) -> dict[str, Any]:
        """One cursor page of the subscriber's subscriptions, ordered by `_id`; the
        body production answers, `{data, next, previous, totalCount, totalCountCapped}`."""
        db = self.read()
        subscriber = self._subscriber(db, caller, subscriber_id, NotFound("Subscriber not found"))
        if query.before is not None and query.after is not None:
            raise NotAllowed('Cannot specify both "before" and "after" cursors at the same time.')
        where = "environment_id = ? AND subscriber_id = ?"
        params: list[Any] = [caller.environment_id, subscriber_id]
        if query.key:
            where += " AND topic_key = ?"
            params.append(query.key)
        if query.context_keys is not None:
            # Stored sorted, as JSON: the exact set in any order is one text.
            where += " AND context_keys = ?"
            params.append(json.dumps(sorted(query.context_keys)))
        total = db.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM topic_subscriptions WHERE {where} LIMIT ?)",
            [*params, SUBSCRIBER_COUNT_CAP + 1],
        ).fetchone()[0]
        counted = {
            "totalCount": min(total, SUBSCRIBER_COUNT_CAP),
            "totalCountCapped": total > SUBSCRIBER_COUNT_CAP,
        }
        empty: dict[str, Any] = {"data": [], "next": None, "previous": None}
        cursor = query.after if query.after is not None else query.before
        if cursor is not None:
            # Any subscription of the environment is a cursor; anything else, an empty page.
            cursor = cursor.lower()
            known = db.execute(
                "SELECT 1 FROM topic_subscriptions WHERE environment_id = ? AND id = ?",
                (caller.environment_id, cursor),
            ).fetchone()
            if known is None:
                return {**empty, "totalCount": 0, "totalCountCapped": False}
        # In the listing's order, "later" is a smaller id when it is descending.
        later, earlier = ("<", ">") if query.descending else (">", "<")
        backwards = query.before is not None
        page_where, page_params = where, list(params)
        if cursor is not None:
            sign = earlier if backwards else later
            page_where += f" AND id {sign}{'=' if query.include_cursor else ''} ?"
            page_params.append(cursor)
        walk = "DESC" if query.descending != backwards else "ASC"
        rows = db.execute(
            f"SELECT id, topic_key, doc FROM topic_subscriptions WHERE {page_where} "
            f"ORDER BY id {walk} LIMIT ?",
            [*page_params, query.limit],
        ).fetchall()
        if backwards:
            rows.reverse()  # the `limit` nearest the cursor, in the listing's order
        if not rows:
            return {**empty, **counted}

        def beyond(sign: str, row_id: str) -> bool:
            found = db.execute(
                f"SELECT 1 FROM topic_subscriptions WHERE {where} AND id {sign} ? LIMIT 1",
                [*params, row_id],
            ).fetchone()
            return found is not None

        first, last = rows[0]["id"], rows[-1]["id"]
        return {
            "data": _shown(db, caller, read_doc(subscriber["doc"]), rows),
            "next": last if beyond(later, last) else None,
            "previous": first if beyond(earlier, first) else None,
            **counted,
        }


def _shown(
    db: sqlite3.Connection, caller: Caller, subscriber: dict[str, Any], rows: list[sqlite3.Row]
) -> list[dict[str, Any]]:
    """Each subscription as production maps it: its topic, the subscriber's names and
    its workflow records; one whose topic is gone is left out, as production does."""
    keys = sorted({r["topic_key"] for r in rows})
    topics = {
        row["key"]: read_doc(row["doc"])
        for row in db.execute(
            f"SELECT key, doc FROM topics WHERE environment_id = ? AND key IN "
            f"({', '.join('?' * len(keys))})",
            [caller.environment_id, *keys],
        )
    }
    docs = [read_doc(r["doc"]) for r in rows]
    wanted = sorted({str(p.get("_templateId")) for d in docs for p in d.get("preferences") or []})
    workflows = {
        row["id"]: read_doc(row["doc"])
        for row in db.execute(
            f"SELECT id, doc FROM workflows WHERE environment_id = ? AND id IN "
            f"({', '.join('?' * len(wanted))})",
            [caller.environment_id, *wanted],
        )
    }
    person: dict[str, Any] = {
        "_id": subscriber["_id"],
        "subscriberId": subscriber["subscriberId"],
        **{
            k: subscriber[k]
            for k in ("firstName", "lastName", "email", "avatar")
            if k in subscriber
        },
    }
    out = []
    for doc in docs:
        topic = topics.get(doc["topicKey"])
        if topic is None:
            continue
        item: dict[str, Any] = {
            "_id": doc["_id"],
            "identifier": doc.get("identifier") or "",
            "topic": {
                k: topic[k] for k in ("_id", "key", "name", "createdAt", "updatedAt") if k in topic
            },
            "createdAt": doc["createdAt"],
            "subscriber": person,
        }
        if doc.get("contextKeys") is not None:
            item["contextKeys"] = doc["contextKeys"]
        records = [
            _record(doc, p, workflows.get(str(p.get("_templateId"))))
            for p in doc.get("preferences") or []
        ]
        if records:
            item["preferences"] = records
        out.append(item)
    return out


def _record(
    subscription: dict[str, Any], record: dict[str, Any], workflow: dict[str, Any] | None
) -> dict[str, Any]:
    """One workflow record, as `mapTopicSubscriptionToDto` gives it: `subscriptionId`
    is the subscription's identifier (production's default when it has none)."""
    identifier = subscription.get("identifier") or default_identifier(
        subscription["topicKey"],
        subscription["subscriberId"],
        subscription.get("contextKeys") or (),
    )
    out: dict[str, Any] = {"subscriptionId": identifier}
    if workflow is not None and not workflow.get("deleted"):
        triggers = workflow.get("triggers") or []
        first = triggers[0] if triggers and isinstance(triggers[0], dict) else {}
        out["workflow"] = {
            "id": workflow["_id"],
            "identifier": first.get("identifier") or "",
            "name": workflow.get("name") or "",
            "critical": bool(workflow.get("critical")),
            "tags": workflow.get("tags") or [],
            "severity": workflow.get("severity") or "none",
        }
        if workflow.get("data") is not None:
            out["workflow"]["data"] = workflow["data"]
    out["enabled"] = record.get("enabled", True) is not False
    if record.get("condition") is not None:
        out["condition"] = record["condition"]
    return out
