"""Requests are refused once the database file is deleted or replaced under the service.

SQLite keeps writing to the file it opened; if that file was unlinked or swapped, every
later write would answer 201 and then vanish, and a thread opening the path anew would
create an empty database (issue 9). Before each API request (/v1 and /v2) the path is
compared with the file the service started on.
"""

from __future__ import annotations

import logging
import os

from inboxdesk.server.asgi import ASGIApp, Receive, Scope, Send, reply
from inboxdesk.server.errors import error_bytes

log = logging.getLogger("inboxdesk.server")


def file_identity(path: str) -> tuple[int, int] | None:
    """The file a path names now (device, inode); None when there is none."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


class DatabaseGuardMiddleware:
    def __init__(self, app: ASGIApp, db_path: str, identity: tuple[int, int] | None) -> None:
        # identity is taken when the app is created: Starlette builds middlewares only
        # at the first request, which may come after the file is gone.
        self.app = app
        self.db_path = db_path
        self.identity = identity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["path"].startswith(("/v1/", "/v2/"))
            and self.identity is not None
            and file_identity(self.db_path) != self.identity
        ):
            log.error("database %s was deleted or replaced; refusing requests", self.db_path)
            text = "The database file was deleted or replaced; restart the service"
            await reply(send, 503, error_bytes(503, scope["path"], text))
            return
        await self.app(scope, receive, send)
