"""Idempotency-Key on POST: replay a finished request, refuse a reused or running key."""

from __future__ import annotations

import hashlib
from functools import partial

from anyio.to_thread import run_sync

from inboxdesk.server.asgi import BODY_KEY, ASGIApp, Message, Receive, Scope, Send, header, reply
from inboxdesk.server.auth import CALLER_KEY
from inboxdesk.server.errors import error_bytes
from inboxdesk.server.store import IdempotencyConflict, Store

MAX_KEY_LENGTH = 255


class IdempotencyMiddleware:
    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = header(scope, "idempotency-key")
        caller = scope.get("state", {}).get(CALLER_KEY)
        if (
            scope["type"] != "http"
            or scope["method"] not in ("POST", "PATCH")
            or key is None
            or caller is None
        ):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        echo = [(b"idempotency-key", key.encode("latin-1"))]
        if not key.strip():
            # An empty key would make every keyless retry of the caller collide on "".
            text = "idempotency-key header must not be empty"
            await reply(send, 400, error_bytes(400, path, text))
            return
        if len(key) > MAX_KEY_LENGTH:
            text = f"idempotency-key header must be at most {MAX_KEY_LENGTH} characters"
            await reply(send, 400, error_bytes(400, path, text))
            return
        body: bytes = scope.get(BODY_KEY, b"")
        # The path is part of what is hashed: a key reused on another endpoint is a new body.
        digest = hashlib.sha256(path.encode() + b"\0" + body).hexdigest()
        org = caller.organization_id
        try:
            replay = await run_sync(self.store.idempotency_begin, org, key, digest)
        except IdempotencyConflict as conflict:
            if conflict.in_flight:
                text = f'Request with key "{key}" is still being processed; retry in 1 second'
                await reply(
                    send, 409, error_bytes(409, path, text), [*echo, (b"retry-after", b"1")]
                )
            else:
                text = f'Request with key "{key}" is being reused for a different body'
                await reply(send, 422, error_bytes(422, path, text), echo)
            return
        if replay is not None:
            await reply(
                send,
                replay.status,
                replay.body,
                [*echo, (b"idempotency-replay", b"true")],
                content_type=replay.content_type,
            )
            return

        status = 500
        content_type = "application/json"
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            nonlocal status, content_type
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", []):
                    if name.lower() == b"content-type":
                        content_type = bytes(value).decode("latin-1")
                message["headers"] = [*message.get("headers", []), *echo]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    # Stored before the client has the answer: a retry it sends at once
                    # is replayed, not told the first request is still running.
                    await settle()
            await send(message)

        settled = False

        async def settle() -> None:
            nonlocal settled
            settled = True
            if status >= 500:
                # A server fault is not an answer: a retry with the same key runs again.
                await run_sync(self.store.idempotency_abandon, org, key)
            else:
                finish = partial(self.store.idempotency_finish, org, key, status, content_type)
                await run_sync(finish, b"".join(chunks))

        try:
            await self.app(scope, receive, capture)
        except BaseException:
            if not settled:
                await run_sync(self.store.idempotency_abandon, org, key)
            raise
        if not settled:
            await settle()
