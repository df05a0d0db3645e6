"""Credentials writes: one provider's device tokens or webhook URL set on a subscriber
(`PUT …/credentials`, with the whole token list to keep: production empties the tokens
of a body that names none), or every entry of a provider removed (`DELETE`).

Kept in a Write as: `target` the subscriberId, `change` `{"provider", "what"
(add-token, remove-token, webhook-url, restore), "tokens" (the whole list sent),
"other" (webhookUrl), "before" (the provider's entries before: [{"integration",
"credentials"}])}`, `label` its words with every secret masked. The raw values live
in the 0600 queue and journal only, to send and undo the write.

Undo puts the previous token list back with a PUT; undoing the first
entry of a provider leaves an empty entry, and says so; it is refused where the
provider had entries under more than one integration; undoing a removal restores
under the newest active integration of the provider, and names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inboxdesk.models.subscriber_edit import MAX_DEVICE_TOKENS, mask, masked_credentials
from inboxdesk.text import safe
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients
from inboxdesk.writes.kinds.data import SubscriberData
from inboxdesk.writes.model import Kind, Write

if TYPE_CHECKING:
    from inboxdesk.models import Subscriber

WHATS = ("add-token", "remove-token", "webhook-url")


def entries_of(subscriber: Subscriber, provider: str) -> list[dict[str, Any]]:
    """The provider's entries on the subscriber, raw: [{"integration", "credentials"}]."""
    return [
        {
            "integration": c.integration_id,
            "credentials": c.credentials.model_dump(by_alias=True, exclude_none=True),
        }
        for c in subscriber.channels or []
        if c.provider_id == provider
    ]


def _who(subscriber_id: str) -> str:
    return safe(subscriber_id, newlines=False)


def credentials_write(subscriber: Subscriber, provider: str, what: str, secret: str) -> Write | str:
    """The write that adds or removes one token, or sets the webhook URL, keeping every
    other token the provider's entry holds; or why it is refused, in words."""
    name = safe(provider, newlines=False)
    if not secret.strip():
        return "Nothing was given on standard input: no token or URL to save."
    if any(c.isspace() for c in secret):
        return "A token or URL has no spaces or line breaks: check what was given."
    before = entries_of(subscriber, provider)
    if len(before) > 1:
        return (
            f"{name} has entries under {len(before)} integrations: inboxdesk changes one "
            "entry only. Change them in the dashboard."
        )
    old = before[0]["credentials"] if before else {}
    tokens: list[str] = list(old.get("deviceTokens") or [])
    other: dict[str, Any] = {}
    who = _who(subscriber.subscriber_id)
    if what == "add-token":
        if secret in tokens:
            return f"That token ({mask(secret)}) is already saved for {name}."
        tokens.append(secret)
        if len(tokens) > MAX_DEVICE_TOKENS:
            return f"{name} would hold {len(tokens)} tokens: the service keeps at most 100."
        said = f"add token {mask(secret)} to {name} of {who}"
    elif what == "remove-token":
        if secret not in tokens:
            return f"That token ({mask(secret)}) is not saved for {name}: nothing to remove."
        tokens.remove(secret)
        said = f"remove token {mask(secret)} from {name} of {who}"
    elif what == "webhook-url":
        other["webhookUrl"] = secret
        said = f"set the {name} webhook URL of {who} to {mask(secret)}"
    else:
        raise ValueError(what)
    change = {"provider": provider, "what": what, "tokens": tokens, "other": other}
    return Write(
        Kind.CREDENTIALS,
        subscriber.subscriber_id,
        (),
        label=said,
        change={**change, "before": before},
    )


def removal_write(subscriber: Subscriber, provider: str) -> Write | str:
    """The write that removes every entry of the provider, or why there is none."""
    before = entries_of(subscriber, provider)
    name = safe(provider, newlines=False)
    if not before:
        return f"{_who(subscriber.subscriber_id)} has no {name} credentials: nothing to remove."
    return Write(
        Kind.CREDENTIALS_REMOVED,
        subscriber.subscriber_id,
        (),
        label=f"remove the {name} credentials of {_who(subscriber.subscriber_id)}",
        change={"provider": provider, "before": before},
    )


def _masked(entries: Any) -> Any:
    if not isinstance(entries, list):
        return None
    return [
        {
            "integration": e.get("integration"),
            "credentials": masked_credentials(e.get("credentials")),
        }
        for e in entries
        if isinstance(e, Mapping)
    ]


def public(write: Write, after: Mapping[str, Any] | None) -> tuple[Any, Any]:
    """The before and after History, its JSON and the CSV show: every secret masked."""
    change = write.change or {}
    shown_after: Any = _masked((after or {}).get("entries")) if after else None
    if after and "integrationName" in after:
        shown_after = {"entries": shown_after, "integration": after["integrationName"]}
    return _masked(change.get("before")), shown_after


class Credentials(SubscriberData):
    """One provider's device tokens or webhook URL set (also an undo's put-back or
    restore)."""

    kind = Kind.CREDENTIALS

    async def perform(self, write: Write, clients: Clients) -> Sent:
        change = write.change
        assert change is not None
        provider = str(change["provider"])
        client = clients.client
        answer = await client.set_credentials(
            write.target,
            provider,
            change["tokens"],
            change.get("other") or {},
            idempotency_key=write.key,
        )
        after = entries_of(answer, provider)
        values: dict[str, Any] = {"entries": after}
        if change["what"] == "restore":
            # Production saves under the newest active integration of the provider: name it.
            saved = [e["integration"] for e in after]
            integrations = await client.list_integrations(active_only=True)
            named = {i.id: i.name for i in integrations if i.id}
            if saved:
                values["integration"] = saved[-1]
                values["integrationName"] = named.get(saved[-1], saved[-1])
        return Sent(write, Result(values=values))

    def refusal(self, write: Write, answers: Answers) -> str | None:
        before = (write.change or {}).get("before")
        if not isinstance(before, list):
            return "This cannot be undone: the credentials before it are unknown."
        if len(before) > 1:
            return (
                "This cannot be undone: the provider had entries under more than one "
                "integration, and one PUT restores one of them."
            )
        return None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        """The write that puts the provider's previous credentials back with a PUT."""
        change = write.change
        assert change is not None
        name = safe(str(change["provider"]), newlines=False)
        before: list[dict[str, Any]] = change["before"]
        old = before[0]["credentials"] if before else {}
        other: dict[str, Any] = {}
        if "webhookUrl" in (change.get("other") or {}):
            other["webhookUrl"] = old.get("webhookUrl")
        said = f"undo: {write.label}"
        if not before:
            said += f" (an empty {name} entry remains)"
        return self._put_back(write, "put-back", said, other)

    def _put_back(self, write: Write, what: str, said: str, other: dict[str, Any]) -> Write:
        """The PUT of the provider's tokens before `write`, with `other` fields."""
        change = write.change or {}
        before: list[dict[str, Any]] = change["before"]
        old = before[0]["credentials"] if before else {}
        return Write(
            Kind.CREDENTIALS,
            write.target,
            (),
            label=said,
            undoes=write.id,
            change={
                "provider": str(change["provider"]),
                "what": what,
                "tokens": list(old.get("deviceTokens") or []),
                "other": other,
                "before": list(self._now(write)),
            },
        )

    def _now(self, write: Write) -> Sequence[Mapping[str, Any]]:
        """The provider's entries as the write left them, as far as the write says."""
        change = write.change or {}
        before = change.get("before") or []
        integration = before[0]["integration"] if before else ""
        credentials = {
            **(before[0]["credentials"] if before else {}),
            **(change.get("other") or {}),
        }
        credentials["deviceTokens"] = list(change.get("tokens") or [])
        return [{"integration": integration, "credentials": credentials}]

    def public(self, write: Write, values: Mapping[str, Any] | None) -> tuple[Any, Any]:
        """Every secret masked."""
        change = write.change or {}
        after = values
        shown_after: Any = _masked((after or {}).get("entries")) if after else None
        if after and "integrationName" in after:
            shown_after = {"entries": shown_after, "integration": after["integrationName"]}
        return _masked(change.get("before")), shown_after


class CredentialsRemoved(Credentials):
    """Every entry of a provider removed (`DELETE`); undone by restoring them under the
    newest active integration of the provider, which the undo names."""

    kind = Kind.CREDENTIALS_REMOVED

    async def perform(self, write: Write, clients: Clients) -> Sent:
        assert write.change is not None
        provider = str(write.change["provider"])
        await clients.client.remove_credentials(write.target, provider, idempotency_key=write.key)
        return Sent(write, Result(values={"entries": []}))

    def refusal(self, write: Write, answers: Answers) -> str | None:
        refused = super().refusal(write, answers)
        if refused is None and not (write.change or {}).get("before"):
            return "Nothing to undo: there were no credentials to remove."
        return refused

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        change = write.change
        assert change is not None
        name = safe(str(change["provider"]), newlines=False)
        old = change["before"][0]["credentials"] if change["before"] else {}
        said = (
            f"undo: restore the {name} credentials of {_who(write.target)} under the newest "
            f"active {name} integration"
        )
        other = {k: old[k] for k in ("webhookUrl", "channel") if k in old}
        return self._put_back(write, "restore", said, other)

    def _now(self, write: Write) -> Sequence[Mapping[str, Any]]:
        return []
