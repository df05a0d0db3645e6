"""Integrations and set primary (Operation A)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from inboxdesk.models.enums import PRIMARY_CHANNELS
from inboxdesk.server.store.base import Caller, Database, NotAllowed, NotFound


class IntegrationStore(Database):
    @staticmethod
    def _integration(row: sqlite3.Row) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(row["doc"])
        doc["_id"] = row["id"]
        doc["primary"] = bool(row["is_primary"])
        doc["active"] = bool(row["active"])
        doc["deleted"] = bool(row["deleted"])
        return doc

    def list_integrations(self, caller: Caller, active_only: bool = False) -> list[dict[str, Any]]:
        sql = "SELECT * FROM integrations WHERE environment_id = ? AND deleted = 0"
        if active_only:
            sql += " AND active = 1"
        rows = self.read().execute(sql + " ORDER BY position", (caller.environment_id,))
        return [self._integration(row) for row in rows]

    def set_primary(self, caller: Caller, integration_id: str) -> dict[str, Any]:
        """Make one email/sms integration the only primary of its channel, atomically."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT * FROM integrations WHERE id = ? AND environment_id = ? AND deleted = 0",
                (integration_id, caller.environment_id),
            ).fetchone()
            if row is None:
                raise NotFound(f"Integration with id {integration_id} not found")
            if row["channel"] not in PRIMARY_CHANNELS:
                raise NotAllowed(f"Channel {row['channel']} does not support primary")
            if row["is_primary"]:
                return self._integration(row)
            db.execute(
                "UPDATE integrations SET is_primary = 0 "
                "WHERE environment_id = ? AND channel = ? AND is_primary = 1",
                (caller.environment_id, row["channel"]),
            )
            db.execute(
                "UPDATE integrations SET is_primary = 1, active = 1, "
                "doc = json_set(doc, '$.conditions', json('[]')) WHERE id = ?",
                (integration_id,),
            )
            updated = db.execute(
                "SELECT * FROM integrations WHERE id = ?", (integration_id,)
            ).fetchone()
            return self._integration(updated)
