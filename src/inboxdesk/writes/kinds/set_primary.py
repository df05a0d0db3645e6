"""A set primary: one integration made the primary of its channel in its environment,
with that environment's key (core/environments/primary.py plans it). Never queued: its confirmation
named a state that may have changed. Undone by making the one it replaced primary
again, a new switch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from inboxdesk.client.errors import InboxdeskError, ProtocolError, TransportError
from inboxdesk.text import clip, safe
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Failed, Partial, Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients, Notice, Section, WriteKind
from inboxdesk.writes.model import Kind, Write

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient
    from inboxdesk.models import Integration


class SwitchUnconfirmed(ProtocolError):
    """A switch the service answered with success, naming another integration or
    environment than the one asked for: whether it took effect is unknown."""


class SetPrimary(WriteKind):
    kind = Kind.SET_PRIMARY
    subject = "integration"
    queued = False
    with_environment_key = True
    things = "integrations"

    def client(self, write: Write, clients: Clients) -> InboxClient:
        """Its environment's key's client, where the outbox has one."""
        if write.environment and clients.of is not None:
            return clients.of(write.environment)
        return clients.client

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        client = self.client(write, clients)
        integration = await client.set_primary(write.target, idempotency_key=write.key)
        _answers_the_switch(write, integration, clients.own_environment)
        return Sent(write, Result(integration=integration))

    def refusal(self, write: Write, answers: Answers) -> str | None:
        again = self.inverse(write, answers, {})
        return again if isinstance(again, str) else None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        """Making the one it replaced primary again, a new switch; or why there is none."""
        if not write.previous:
            return "This cannot be undone: no other integration was primary before it."
        earlier, name = write.previous[0]
        return Write(
            Kind.SET_PRIMARY,
            earlier,
            (),
            label=name,
            undoes=write.id,
            environment=write.environment,
        )

    def overlaps(self, write: Write, later: Write, later_kind: WriteKind) -> bool:
        """Any later switch: the service may have switched its channel since."""
        return later_kind is self or super().overlaps(write, later, later_kind)

    def undo_notes(self, write: Write) -> list[str]:
        return ["This is a new switch: it cannot restore cleared conditions or an activation."]

    def messages_changed(self, write: Write) -> int | None:
        return None

    def describe(self, write: Write) -> str:
        again = " again" if write.undoes is not None else ""
        return f"make {write.label or write.target} primary{again}"

    def notice(self, event: Sent | Partial) -> Notice | None:
        return None  # the integrations view says what changed, from its plan

    def failure_notice(self, event: Failed) -> Notice | None:
        said = clip(switch_failed(event.write, event.error), 300)
        hint = clip(event.error.hint, 200)
        return f"{said}\n{hint}".strip(), "error"

    def before_after(self, write: Write, detail: Mapping[str, Any]) -> tuple[Any, Any]:
        before = {"primary": [i for i, _ in write.previous]} if write.previous else None
        after = detail.get("after") or (
            {"primary": [detail["integration"]]} if "integration" in detail else None
        )
        return before, after

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        if not write.previous:
            return Section()
        return Section(
            fields=(("primary before", ", ".join(f"{name} ({i})" for i, name in write.previous)),)
        )


def switch_failed(write: Write, error: InboxdeskError) -> str:
    """What a failed switch says, every time, in the app as on the command line: a
    switch is never queued, so a service away means nothing changed."""
    what = safe(SetPrimary().describe(write), newlines=False)
    if isinstance(error, TransportError):
        return (
            f"Not switched: {what} failed, the service is unreachable ({error.message}). "
            "A switch is never queued, since what its confirmation showed may have changed: "
            "nothing changed; try again once the service answers."
        )
    if isinstance(error, SwitchUnconfirmed):
        # The service said yes (2xx): something may have switched. Unknown, not "no".
        return f"Unknown whether {what} took effect: {error.message}"
    return f"Not switched: {what} failed. {error.message} Nothing changed."


def _answers_the_switch(write: Write, integration: Integration, own: str) -> None:
    """The service's answer to a switch names the integration and the environment asked
    for (or leaves them out); one naming another is not trusted as done."""
    asked = write.environment or own
    # An answer that leaves a field out names nothing else: production may send one so.
    other_id = bool(integration.id) and (integration.id or "").lower() != write.target.lower()
    answered = integration.environment_id
    if not other_id and not (asked and answered and answered != asked):
        return
    raise SwitchUnconfirmed(
        f"The service answered the switch of {safe(write.target, newlines=False)} with "
        f"integration {safe(integration.id or '(none)', newlines=False)} of environment "
        f"{safe(integration.environment_id, newlines=False)}: not the one asked for.",
        "Check the primaries (inboxdesk integrations) before trusting the switch.",
    )
