"""Resources inserted as they are: the demo data and fixtures."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from inboxdesk.models import Integration, Message, Subscriber, Workflow
from inboxdesk.server.checkpoints import FeedCheckpoints
from inboxdesk.server.store.base import Database
from inboxdesk.server.store.schema import MESSAGE_ROW, message_flags


class SeedingStore(Database):
    _checkpoints: FeedCheckpoints

    def insert_integrations(self, items: Sequence[Integration]) -> None:
        with self.transaction() as db:
            start = db.execute("SELECT COUNT(*) FROM integrations").fetchone()[0]
            db.executemany(
                "INSERT INTO integrations VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        item.id,
                        item.environment_id,
                        "" if item.channel is None else str(item.channel),
                        int(item.primary),
                        int(item.active),
                        int(item.deleted),
                        start + n,
                        json.dumps(item.to_wire()),
                    )
                    for n, item in enumerate(items)
                ],
            )

    def insert_subscribers(self, items: Sequence[Subscriber]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO subscribers VALUES (?, ?, ?, ?, ?)",
                [
                    (
                        s.id,
                        s.environment_id,
                        s.subscriber_id,
                        s.created_at,
                        json.dumps(s.to_wire()),
                    )
                    for s in items
                ],
            )

    def insert_workflows(self, items: Sequence[Workflow]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO workflows VALUES (?, ?, ?)",
                [(w.id, w.environment_id, json.dumps(w.to_wire())) for w in items],
            )

    def insert_messages(self, items: Sequence[Message]) -> None:
        """Store messages; their subscriber and template are stored once, elsewhere."""
        self.insert_message_docs([m.to_wire() for m in items])

    def insert_message_docs(self, docs: Sequence[dict[str, Any]]) -> None:
        """Store messages given as `Message.to_wire()` documents, which it takes over:
        a fixture's, read through the model or made by this program (the demo)."""
        rows = []
        for doc in docs:
            for joined in ("subscriber", "template"):
                doc.pop(joined, None)
            # Production's feed items carry the job that sent them and the archive state.
            # The job id follows from the message's, so a fixture loads the same each time.
            job = hashlib.sha256(f"job:{doc.get('_id')}".encode()).hexdigest()[:24]
            doc.setdefault("_jobId", job)
            doc.setdefault("archived", False)
            rows.append(
                (
                    doc["_id"],
                    doc["_environmentId"],
                    doc["_subscriberId"],
                    doc.get("_templateId"),
                    doc["channel"],
                    doc["transactionId"],
                    doc["createdAt"],
                    int(doc["read"]),
                    int(doc["seen"]),
                    doc.get("lastReadDate"),
                    doc.get("lastSeenDate"),
                    json.dumps(doc),
                    *message_flags(doc),
                )
            )
        marks = ", ".join("?" * len(MESSAGE_ROW.split(",")))
        with self._checkpoints.writing(inserts=True), self.transaction() as db:
            db.executemany(f"INSERT INTO messages ({MESSAGE_ROW}) VALUES ({marks})", rows)
