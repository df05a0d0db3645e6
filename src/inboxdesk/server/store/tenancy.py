"""Organizations, environments and API keys: who a request acts for."""

from __future__ import annotations

import sqlite3
from typing import Any

from inboxdesk.models.ids import new_object_id
from inboxdesk.server.store.base import Caller, Database, NotFound, hash_key, utc_now


class TenancyStore(Database):
    _callers: dict[str, Caller]

    def create_organization(self, name: str, org_id: str | None = None) -> str:
        org_id = org_id or new_object_id()
        with self.transaction() as db:
            db.execute("INSERT INTO organizations VALUES (?, ?)", (org_id, name))
        return org_id

    def create_environment(
        self,
        organization_id: str,
        name: str,
        env_id: str | None = None,
        *,
        identifier: str | None = None,
        type: str | None = None,
        slug: str | None = None,
        parent_id: str | None = None,
    ) -> str:
        env_id = env_id or new_object_id()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO environments VALUES (?, ?, ?, ?, ?, ?, ?)",
                (env_id, organization_id, name, identifier or env_id, type, slug, parent_id),
            )
        return env_id

    def add_api_key(self, environment_id: str, api_key: str, user_id: str | None = None) -> None:
        """A key of the environment, made by `user_id` (a user of its own when not named)."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO api_keys (key_hash, environment_id, created_at, api_key, user_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (hash_key(api_key), environment_id, utc_now(), api_key, user_id or new_object_id()),
            )

    def environments(self) -> list[sqlite3.Row]:
        return self.read().execute("SELECT * FROM environments ORDER BY name").fetchall()

    @staticmethod
    def _environment(row: sqlite3.Row) -> dict[str, Any]:
        """An environment as production's EnvironmentResponseDto, without `apiKeys`."""
        doc: dict[str, Any] = {
            "_id": row["id"],
            "name": row["name"],
            "_organizationId": row["organization_id"],
            "identifier": row["identifier"] or row["id"],
            "type": row["type"],
        }
        if row["parent_id"]:
            doc["_parentId"] = row["parent_id"]
        if row["slug"]:
            doc["slug"] = row["slug"]
        return doc

    def list_environments(self, caller: Caller, every_key: bool = False) -> list[dict[str, Any]]:
        """The caller's organization's environments, oldest first as production lists them,
        each with `apiKeys`: the caller's own environment's keys, `[]` for the others (or
        every environment's, `every_key`, as production's per-organization flag sends)."""
        db = self.read()
        rows = db.execute(
            "SELECT * FROM environments WHERE organization_id = ? ORDER BY rowid",
            (caller.organization_id,),
        ).fetchall()
        out = []
        for row in rows:
            doc = self._environment(row)
            doc["apiKeys"] = (
                self._api_keys(db, row["id"])
                if every_key or row["id"] == caller.environment_id
                else []
            )
            out.append(doc)
        return out

    @staticmethod
    def _api_keys(db: sqlite3.Connection, environment_id: str) -> list[dict[str, Any]]:
        """An environment's keys as production's ApiKeyDto, oldest first; keys stored
        before the key itself was kept are left out."""
        rows = db.execute(
            "SELECT api_key, user_id, key_hash FROM api_keys "
            "WHERE environment_id = ? AND api_key IS NOT NULL ORDER BY rowid",
            (environment_id,),
        )
        return [
            {"key": r["api_key"], "_userId": r["user_id"] or environment_id, "hash": r["key_hash"]}
            for r in rows
        ]

    def own_environment(self, caller: Caller) -> dict[str, Any]:
        row = (
            self.read()
            .execute("SELECT * FROM environments WHERE id = ?", (caller.environment_id,))
            .fetchone()
        )
        if row is None:
            raise NotFound("Environment not found")
        return self._environment(row)

    def authenticate(self, api_key: str) -> Caller | None:
        """The caller a key belongs to, looked up by the key's SHA-256.

        The lookup's time depends on the hash, not on the key, so it tells a caller
        nothing about a stored key. Keys are never revoked by this service, so a found
        key is remembered.
        """
        digest = hash_key(api_key)
        known = self._callers.get(digest)
        if known is not None:
            return known
        row = (
            self.read()
            .execute(
                "SELECT k.key_hash, e.id AS env, e.organization_id AS org FROM api_keys k "
                "JOIN environments e ON e.id = k.environment_id WHERE k.key_hash = ?",
                (digest,),
            )
            .fetchone()
        )
        if row is None:
            return None
        caller = Caller(environment_id=row["env"], organization_id=row["org"])
        self._callers[digest] = caller
        return caller

    def is_empty(self) -> bool:
        return self.read().execute("SELECT 1 FROM organizations LIMIT 1").fetchone() is None
