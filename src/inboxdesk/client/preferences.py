"""A subscriber's preferences (v2): read them, change one workflow's or the global ones,
or several workflows' at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inboxdesk.client.parse import items_of, json_of, parse, unwrap
from inboxdesk.client.sender import segment

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender

    # Loaded when first used (as `models` is): the first inbox page needs none of them.
    from inboxdesk.models.preference import BulkPreference, Criticality, SubscriberPreferences


def _path(subscriber_id: str) -> str:
    return f"/v2/subscribers/{segment(subscriber_id)}/preferences"


def context_body(keys: Sequence[str]) -> dict[str, str]:
    """A context's `type:id` keys as the body's `context` (`{type: id}`), the form a
    trigger takes; an id may hold colons, a type may not."""
    return dict(key.split(":", 1) for key in keys if ":" in key)


class PreferenceOperations:
    """The preference operations of the client (its sender is InboxClient's)."""

    _sender: Sender

    async def preferences(
        self,
        subscriber_id: str,
        criticality: Criticality | str = "nonCritical",
        context_keys: Sequence[str] = (),
    ) -> SubscriberPreferences:
        """The subscriber's global channels and each workflow's effective ones:
        non-critical workflows by default, `critical` for those they cannot change; of
        exactly the context `context_keys` (`type:id`), else of no context."""
        from inboxdesk.models.preference import Criticality, SubscriberPreferences

        params = [("criticality", Criticality(criticality).value)]
        params += [("contextKeys", key) for key in context_keys]
        response = await self._sender.send("GET", _path(subscriber_id), params=params)
        return parse(SubscriberPreferences, unwrap(json_of(response)))

    async def update_preferences(
        self,
        subscriber_id: str,
        channels: Mapping[str, bool],
        workflow_id: str | None = None,
        idempotency_key: str | None = None,
        context_keys: Sequence[str] = (),
    ) -> SubscriberPreferences:
        """Change the given channels, of one workflow (its `_id`, identifier or slug) or
        globally, of the context `context_keys` or of none; the answer is the whole
        listing of that context after it (non-critical workflows)."""
        from inboxdesk.models.preference import PreferenceChange, SubscriberPreferences

        change = PreferenceChange.model_construct(
            channels=dict(channels),
            workflow_id=workflow_id,
            context=context_body(context_keys) or None,
        )
        body = change.model_dump(by_alias=True, exclude_none=True)
        response = await self._sender.send(
            "PATCH", _path(subscriber_id), json_body=body, idempotency_key=idempotency_key
        )
        return parse(SubscriberPreferences, unwrap(json_of(response)))

    async def update_schedule(
        self,
        subscriber_id: str,
        schedule: Mapping[str, Any],
        idempotency_key: str | None = None,
    ) -> SubscriberPreferences:
        """Set the subscriber's schedule (quiet hours, global only), whole; the answer is
        the whole listing after it."""
        from inboxdesk.models.preference import SubscriberPreferences

        response = await self._sender.send(
            "PATCH",
            _path(subscriber_id),
            json_body={"schedule": dict(schedule)},
            idempotency_key=idempotency_key,
        )
        return parse(SubscriberPreferences, unwrap(json_of(response)))

    async def update_preferences_bulk(
        self,
        subscriber_id: str,
        changes: Sequence[tuple[str, Mapping[str, bool]]],
        idempotency_key: str | None = None,
    ) -> list[BulkPreference]:
        """Change several workflows' channels at once: all of them, or none."""
        from inboxdesk.models.preference import BulkPreference

        body = {"preferences": [{"workflowId": w, "channels": dict(c)} for w, c in changes]}
        response = await self._sender.send(
            "PATCH", f"{_path(subscriber_id)}/bulk", json_body=body, idempotency_key=idempotency_key
        )
        return items_of(BulkPreference, response)
