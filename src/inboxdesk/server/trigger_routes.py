"""Triggering a workflow (`POST /v1/events/trigger`) and cancelling its delayed work
(`DELETE /v1/events/trigger/{transactionId}`).

A trigger is checked and answered as production's API answers it, then queued: the
worker does the rest (server/worker/), so a repeated transactionId is answered
`processed` and then dropped, as production's worker drops it.
"""

import asyncio
import json
import re
import secrets
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request

from inboxdesk.server.auth import caller_of
from inboxdesk.server.errors import GENERAL, NO_VALUE, ApiValidationError, error_response
from inboxdesk.server.route_helpers import api_router, enveloped, off_loop
from inboxdesk.server.store import FoundWorkflow, NotAllowed, Store, iso
from inboxdesk.server.store.triggers import TriggerRequest
from inboxdesk.server.wire import WireJSONResponse as JSONResponse

RECIPIENTS = (
    "to must be a non-empty subscriberId string, an object with a non-empty subscriberId, "
    "a topic object with a non-empty topicKey, or a non-empty array of those"
)
CONTEXT_SHAPE = (
    "Invalid context payload structure. Expected object with context types as keys and "
    "string IDs or {id, data} objects as values"
)
_CONTEXT_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
MAX_CONTEXTS = 5
MAX_CONTEXT_DATA = 64 * 1024
NOT_FOUND = "workflow_not_found"
ATTACHMENT = "Each attachment must include file content as a base64-encoded string or Buffer"


class BodyErrors(ApiValidationError):
    """A 422 of the request body, every sentence under `general`, as production's DTO."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__(GENERAL, messages[0])
        self.errors = {GENERAL: {"messages": messages, "value": NO_VALUE}}


def new_transaction_id() -> str:
    """`txn_` and 24 hex digits, as production makes one."""
    return f"txn_{secrets.token_hex(12)}"


def _recipient_ok(value: Any) -> bool:
    if isinstance(value, str):
        return bool(value)
    if not isinstance(value, Mapping):
        return False
    if value.get("type") == "Topic" or "topicKey" in value:
        excluded = value.get("exclude")
        if excluded is not None and (
            not isinstance(excluded, list)
            or len(excluded) > 100
            or not all(isinstance(e, str) for e in excluded)
        ):
            return False
        return isinstance(value.get("topicKey"), str) and bool(value["topicKey"])
    return isinstance(value.get("subscriberId"), str) and bool(value["subscriberId"])


def context_keys_of(context: Any, messages: list[str]) -> list[str]:
    """The trigger's context as sorted `type:id` keys; its errors added to `messages`."""
    if context is None:
        return []
    if not isinstance(context, Mapping) or not context:
        messages.append(CONTEXT_SHAPE)
        return []
    if len(context) > MAX_CONTEXTS:
        messages.append(
            f"Too many contexts: {len(context)} provided, maximum allowed is {MAX_CONTEXTS}"
        )
        return []
    keys = []
    for kind, value in context.items():
        ident = value.get("id") if isinstance(value, Mapping) else value
        data = value.get("data") if isinstance(value, Mapping) else None
        if (
            not isinstance(ident, str)
            or not _CONTEXT_ID.match(ident)
            or not _CONTEXT_ID.match(str(kind))
            or (data is not None and not isinstance(data, Mapping))
            or len(json.dumps(data or {})) > MAX_CONTEXT_DATA
        ):
            messages.append(CONTEXT_SHAPE)
            return []
        keys.append(f"{kind}:{ident}")
    return sorted(keys)


def check_body(body: Any) -> dict[str, Any]:
    """The trigger's body as the worker takes it, or a 422 with production's words."""
    if not isinstance(body, Mapping):
        raise BodyErrors(["name must be a string", RECIPIENTS])
    messages: list[str] = []
    if not isinstance(body.get("name"), str):
        messages.append("name must be a string")
    to = body.get("to")
    if not (
        (isinstance(to, list) and to and all(_recipient_ok(r) for r in to)) or _recipient_ok(to)
    ):
        messages.append(RECIPIENTS)
    for name in ("payload", "overrides"):
        if name in body and body[name] is not None and not isinstance(body[name], Mapping):
            messages.append(f"{name} must be an object")
    transaction_id = body.get("transactionId")
    if transaction_id is not None and not isinstance(transaction_id, str):
        messages.append("transactionId must be a string")
    actor = body.get("actor")
    if actor is not None and not (
        (isinstance(actor, str) and actor)
        or (isinstance(actor, Mapping) and isinstance(actor.get("subscriberId"), str))
    ):
        messages.append("actor must be a subscriberId string or a subscriber object")
    tenant = body.get("tenant")
    if tenant is not None and not (
        isinstance(tenant, str)
        or (isinstance(tenant, Mapping) and isinstance(tenant.get("identifier"), str))
    ):
        messages.append("tenant must be an identifier string or a tenant object")
    keys = context_keys_of(body.get("context"), messages)
    for name in ("bridgeUrl",):
        if body.get(name) is not None and not isinstance(body[name], str):
            messages.append(f"{name} must be a string")
    if messages:
        raise BodyErrors(messages)
    return {
        "name": body["name"],
        "to": to,
        "payload": dict(body.get("payload") or {}),
        "overrides": dict(body.get("overrides") or {}),
        "transactionId": transaction_id or new_transaction_id(),
        "contextKeys": keys,
        **({"actor": actor} if actor is not None else {}),
        **({"tenant": tenant} if tenant is not None else {}),
    }


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _attachments(payload: Mapping[str, Any]) -> None:
    """Attachments must carry their file, as production checks after the workflow."""
    attachments = payload.get("attachments")
    if not isinstance(attachments, list):
        return
    for n, item in enumerate(attachments):
        if not isinstance(item, Mapping) or not item.get("file"):
            raise NotAllowed(f"Payload validation failed: attachments.{n}.file: {ATTACHMENT}")


def _verdict(body: Mapping[str, Any], found: FoundWorkflow | None) -> str:
    """The trigger's status once its workflow is known, in production's order; only
    `processed` is queued. Refused attachments raise."""
    if found is None:
        return NOT_FOUND
    if "tenant" in body:
        # Tenants are not kept by this service: none is ever found.
        return "no_tenant_found"
    if not found.active:
        return "trigger_not_active"
    _attachments(body["payload"])
    return "processed"


@dataclass
class _Batch:
    waiting: list[tuple[TriggerRequest, asyncio.Future[tuple[Any, Any]]]] = field(
        default_factory=list
    )
    writer: asyncio.Task[None] | None = None


class Admission:
    """Triggers admitted in batches: those that arrive while a batch is being written
    wait and go together in the next, one transaction for all (as a database's group
    commit does), so callers with many triggers in flight pay one commit per batch.
    Each request still gets its own answer, and only after its trigger is stored."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # Per event loop (a test may serve one app from several): what waits, and the
        # task writing it.
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Batch] = (
            weakref.WeakKeyDictionary()
        )

    async def admit(self, request: TriggerRequest) -> tuple[FoundWorkflow | None, str]:
        loop = asyncio.get_running_loop()
        batch = self._loops.setdefault(loop, _Batch())
        answer: asyncio.Future[tuple[Any, Any]] = loop.create_future()
        batch.waiting.append((request, answer))
        if batch.writer is None or batch.writer.done():
            # A task of its own: a caller that goes away does not stop the others' batch.
            batch.writer = loop.create_task(self._write(batch))
        found, status = await asyncio.shield(answer)
        if isinstance(status, Exception):
            raise status
        return found, str(status)

    async def _write(self, pending: _Batch) -> None:
        while pending.waiting:
            batch, pending.waiting = pending.waiting, []
            try:
                results = await off_loop(
                    self.store.accept_triggers, [r for r, _ in batch], _verdict
                )
            except Exception as failed:
                for _, answer in batch:
                    if not answer.done():
                        answer.set_exception(failed)
                continue
            if any(status == "processed" for _, status in results):
                self.store.worker.wake()
            for (_, answer), result in zip(batch, results, strict=True):
                if not answer.done():
                    answer.set_result(result)


def build_trigger_router(store: Store) -> APIRouter:
    router = api_router(prefix="/v1/events", tags=["events"])
    admission = Admission(store)

    @router.post(
        "/trigger",
        status_code=201,
        summary="Trigger a workflow for one or more subscribers",
        description="Answers `{acknowledged, status, transactionId}`: `processed` means "
        "queued, not sent. A transactionId the environment has seen is dropped by the "
        "worker after this answer.",
    )
    async def trigger(request: Request) -> JSONResponse:
        raw = await request.body()
        try:
            parsed = json.loads(raw, parse_constant=_no_constant) if raw.strip() else {}
        except (ValueError, RecursionError):
            parsed = None
            raise BodyErrors(["Request body must be valid JSON"]) from None
        body = check_body(parsed)
        caller = caller_of(request.scope)
        _, status = await admission.admit(TriggerRequest(caller, body, iso(store.clock())))
        if status == NOT_FOUND:
            return error_response(request, 422, NOT_FOUND, error="Unprocessable Entity")
        answer = {"acknowledged": True, "transactionId": body["transactionId"]}
        return enveloped({**answer, "status": status}, 201)

    @router.delete(
        "/trigger/{transactionId}",
        summary="Cancel the delayed and digested work of a transaction",
        description="`{data: true}` when something waiting was canceled, else `false`.",
    )
    async def cancel(request: Request, transactionId: str) -> JSONResponse:
        caller = caller_of(request.scope)
        done = await off_loop(store.cancel_transaction, caller, transactionId, iso(store.clock()))
        return enveloped(done)

    return router
