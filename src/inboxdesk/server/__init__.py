"""The local service: the API over real HTTP on SQLite."""

from __future__ import annotations

from inboxdesk.server.app import create_app
from inboxdesk.server.settings import ServerSettings

__all__ = ["ServerSettings", "create_app"]
