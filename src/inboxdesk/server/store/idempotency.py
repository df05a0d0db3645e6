"""Stored responses of Idempotency-Keys, scoped to the organization."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from inboxdesk.server.store.base import Database

IDEMPOTENCY_TTL = 24 * 3600.0
# A pending idempotency record older than this belongs to a request that died.
IDEMPOTENCY_ABANDONED = 120.0


@dataclass(frozen=True)
class Replay:
    status: int
    content_type: str
    body: bytes


class IdempotencyConflict(Exception):
    """The key is in use by a request still running, or was used for another body."""

    def __init__(self, in_flight: bool) -> None:
        super().__init__("in flight" if in_flight else "different body")
        self.in_flight = in_flight


class IdempotencyStore(Database):
    def idempotency_begin(self, organization_id: str, key: str, body_hash: str) -> Replay | None:
        """Claim a key for a new request, or the stored response to replay.

        Raises IdempotencyConflict when the key is running or was used for another body.
        """
        now = datetime.now(UTC).timestamp()
        with self.transaction() as db:
            row = db.execute(
                "SELECT * FROM idempotency WHERE organization_id = ? AND key = ?",
                (organization_id, key),
            ).fetchone()
            if row is not None:
                age = now - row["created_at"]
                expired = age > IDEMPOTENCY_TTL or (
                    row["state"] == "pending" and age > IDEMPOTENCY_ABANDONED
                )
                if not expired:
                    if row["body_hash"] != body_hash:
                        raise IdempotencyConflict(in_flight=False)
                    if row["state"] == "pending":
                        raise IdempotencyConflict(in_flight=True)
                    return Replay(row["status"], row["content_type"], bytes(row["body"]))
                db.execute(
                    "DELETE FROM idempotency WHERE organization_id = ? AND key = ?",
                    (organization_id, key),
                )
            db.execute(
                "INSERT INTO idempotency (organization_id, key, body_hash, state, created_at) "
                "VALUES (?, ?, ?, 'pending', ?)",
                (organization_id, key, body_hash, now),
            )
        return None

    def idempotency_finish(
        self, organization_id: str, key: str, status: int, content_type: str, body: bytes
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE idempotency SET state = 'done', status = ?, content_type = ?, body = ? "
                "WHERE organization_id = ? AND key = ?",
                (status, content_type, body, organization_id, key),
            )

    def idempotency_abandon(self, organization_id: str, key: str) -> None:
        with self.transaction() as db:
            db.execute(
                "DELETE FROM idempotency WHERE organization_id = ? AND key = ? "
                "AND state = 'pending'",
                (organization_id, key),
            )
