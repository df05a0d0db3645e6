"""Integrations and set primary (Operation A).

An API key lists and switches its own environment's integrations only, as production
has since May 2026. `org_wide` is the older behaviour, which self-hosted deployments
still have: a list spans every environment of the organization, and a switch acts in
the integration's own environment.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from inboxdesk.models.enums import PRIMARY_CHANNELS
from inboxdesk.server.store.base import Caller, Database, Forbidden, NotAllowed, NotFound, read_doc

_OF_ORGANIZATION = (
    "environment_id IN (SELECT id FROM environments WHERE organization_id = :org) AND deleted = 0"
)
_OF_ENVIRONMENT = "environment_id = :env AND deleted = 0"

# Production's words when a key reaches for another environment's integration.
OTHER_ENVIRONMENT = (
    "API key authentication is scoped to a single environment and cannot set as primary "
    "an integration that belongs to a different environment. Use an API key from the "
    "integration's environment, or authenticate with a session token."
)


class IntegrationStore(Database):
    @staticmethod
    def _integration(row: sqlite3.Row) -> dict[str, Any]:
        doc: dict[str, Any] = read_doc(row["doc"])
        doc["_id"] = row["id"]
        doc["primary"] = bool(row["is_primary"])
        doc["active"] = bool(row["active"])
        doc["deleted"] = bool(row["deleted"])
        return doc

    def list_integrations(
        self, caller: Caller, active_only: bool = False, org_wide: bool = False
    ) -> list[dict[str, Any]]:
        """The caller's environment's integrations, or its organization's (`org_wide`)."""
        scope = _OF_ORGANIZATION if org_wide else _OF_ENVIRONMENT
        sql = f"SELECT * FROM integrations WHERE {scope}"
        if active_only:
            sql += " AND active = 1"
        rows = self.read().execute(
            sql + " ORDER BY position",
            {"org": caller.organization_id, "env": caller.environment_id},
        )
        return [self._integration(row) for row in rows]

    def set_primary(
        self, caller: Caller, integration_id: str, org_wide: bool = False
    ) -> dict[str, Any]:
        """Make an email/sms integration the only primary of its channel in its own
        environment, atomically; other environments are untouched.

        The integration is looked up in the caller's organization; one of another
        environment is refused (Forbidden) before anything else is checked, unless
        `org_wide`."""
        with self.transaction() as db:
            row = db.execute(
                f"SELECT * FROM integrations WHERE id = :id AND {_OF_ORGANIZATION}",
                {"id": integration_id, "org": caller.organization_id},
            ).fetchone()
            if row is None:
                raise NotFound(f"Integration with id {integration_id} not found")
            if not org_wide and row["environment_id"] != caller.environment_id:
                raise Forbidden(OTHER_ENVIRONMENT)
            if row["channel"] not in PRIMARY_CHANNELS:
                # Agent-kind integrations have no channel: production's words name it so.
                channel = row["channel"] or "unknown"
                raise NotAllowed(f"Channel {channel} does not support primary")
            if row["is_primary"]:
                return self._integration(row)
            slot = {"env": row["environment_id"], "channel": row["channel"]}
            db.execute(
                "UPDATE integrations SET is_primary = 0 "
                "WHERE environment_id = :env AND channel = :channel AND is_primary = 1",
                slot,
            )
            db.execute(
                "UPDATE integrations SET is_primary = 1, active = 1, "
                "doc = json_set(doc, '$.conditions', json('[]')) WHERE id = ?",
                (integration_id,),
            )
            _recalculate_priority(db, integration_id, slot)
            updated = db.execute(
                "SELECT * FROM integrations WHERE id = ?", (integration_id,)
            ).fetchone()
            return self._integration(updated)


def _recalculate_priority(db: sqlite3.Connection, primary_id: str, slot: dict[str, str]) -> None:
    """Among the environment's active integrations of the channel, the
    primary gets the highest number N, the others N-1 ... 1 in their previous order
    (highest priority first, as production sorts them). Inactive ones are untouched."""
    others = db.execute(
        "SELECT id FROM integrations WHERE environment_id = :env AND channel = :channel "
        "AND active = 1 AND deleted = 0 AND id != :id "
        "ORDER BY coalesce(json_extract(doc, '$.priority'), 0) DESC, position",
        {**slot, "id": primary_id},
    ).fetchall()
    order = [primary_id, *(r["id"] for r in others)]
    db.executemany(
        "UPDATE integrations SET doc = json_set(doc, '$.priority', ?) WHERE id = ?",
        [(len(order) - n, item) for n, item in enumerate(order)],
    )
