"""A subscriber's own data: change its fields, set or remove a provider's credentials.
A credentials write always carries the whole token list it means to leave: production
empties the stored tokens of a body that names none."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inboxdesk.client.errors import BadRequestError, NotFoundError
from inboxdesk.client.parse import json_of, parse, unwrap
from inboxdesk.client.sender import segment
from inboxdesk.text import safe

if TYPE_CHECKING:
    from inboxdesk.client.sender import Sender
    from inboxdesk.models import Subscriber


class SubscriberDataOperations:
    """The subscriber-data operations of the client (its sender is InboxClient's)."""

    _sender: Sender

    async def update_subscriber(
        self,
        subscriber_id: str,
        fields: Mapping[str, Any],
        idempotency_key: str | None = None,
    ) -> Subscriber:
        """`PATCH /v2/subscribers/{id}` with only the fields given (None clears one)."""
        from inboxdesk.models import Subscriber

        response = await self._sender.send(
            "PATCH",
            f"/v2/subscribers/{segment(subscriber_id)}",
            json_body=dict(fields),
            idempotency_key=idempotency_key,
        )
        return parse(Subscriber, unwrap(json_of(response)))

    async def set_credentials(
        self,
        subscriber_id: str,
        provider_id: str,
        device_tokens: Sequence[str],
        other: Mapping[str, Any] | None = None,
        integration_identifier: str | None = None,
        idempotency_key: str | None = None,
    ) -> Subscriber:
        """`PUT …/credentials`: the provider's entry gets exactly `device_tokens` (the
        whole list to keep) and the other credentials given (`webhookUrl`, `channel`)."""
        from inboxdesk.models import Subscriber

        credentials = {**(other or {}), "deviceTokens": list(device_tokens)}
        body: dict[str, Any] = {"providerId": provider_id, "credentials": credentials}
        if integration_identifier is not None:
            body["integrationIdentifier"] = integration_identifier
        try:
            response = await self._sender.send(
                "PUT",
                f"/v1/subscribers/{segment(subscriber_id)}/credentials",
                json_body=body,
                idempotency_key=idempotency_key,
            )
        except BadRequestError as exc:
            raise _in_words(exc, subscriber_id, provider_id) from None
        return parse(Subscriber, unwrap(json_of(response)))

    async def remove_credentials(
        self, subscriber_id: str, provider_id: str, idempotency_key: str | None = None
    ) -> None:
        """`DELETE …/credentials/{providerId}`: every entry of that provider goes."""
        await self._sender.send(
            "DELETE",
            f"/v1/subscribers/{segment(subscriber_id)}/credentials/{segment(provider_id)}",
            idempotency_key=idempotency_key,
        )


def _in_words(
    exc: BadRequestError, subscriber_id: str, provider_id: str
) -> BadRequestError | NotFoundError:
    """Production's 400s of a credentials write, said as what they mean."""
    text = exc.message
    who = safe(subscriber_id, newlines=False)
    if text.startswith("SubscriberId:") and text.rstrip(".").endswith("not found"):
        return NotFoundError(
            exc.status,
            f"No subscriber {who} in this environment ({text})",
            hint="Check the subscriber's id, and that the key is this environment's.",
            body=exc.body,
            path=exc.path,
        )
    if "do not have active" in text:
        provider = safe(provider_id, newlines=False)
        return BadRequestError(
            exc.status,
            f"This environment has no active {provider} integration, so credentials for "
            f"{provider} cannot be saved ({text})",
            hint=f"Activate a {provider} integration in the dashboard, or choose another.",
            body=exc.body,
            path=exc.path,
        )
    return exc
