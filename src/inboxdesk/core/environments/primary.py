"""What a primary switch will change, said once for the app and the command line.

A switch acts in the integration's own environment and goes with that environment's
key: the service refuses (403) a key of another environment, and older deployments
accept it. A plan names that environment, the primary there that loses it, whether the
target is activated and its conditions cleared, and whether the user must type the
environment's name first: when the key it goes with is not that environment's (an older
deployment), or the key's own is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inboxdesk.client import ForbiddenError
from inboxdesk.models import Integration
from inboxdesk.scope import Scope
from inboxdesk.text import plural, safe
from inboxdesk.writes import Kind, Write


def names(item: Integration) -> str:
    """`Name (provider)`, safe to show."""
    return safe(f"{item.name} ({item.provider_id})", newlines=False)


@dataclass(frozen=True)
class PrimaryPlan:
    target: Integration
    environment: str  # the target's environment id
    environment_name: str  # safe to show
    replaces: tuple[Integration, ...]  # that environment's primaries of the channel now
    own_environment: bool  # the key's own environment (False when that is unknown)
    own_known: bool

    @property
    def channel(self) -> str:
        return safe(str(self.target.channel), newlines=False)

    @property
    def already(self) -> bool:
        return self.target.primary

    @property
    def activates(self) -> bool:
        return not self.target.active

    @property
    def clears(self) -> int:
        return len(self.target.conditions or [])

    def write(self) -> Write:
        """The switch, for the outbox: it remembers the primaries it replaces, so that
        its undo can make the first of them primary again."""
        target = self.target
        previous = tuple((p.id, p.name or "") for p in self.replaces if p.id)
        return Write(
            Kind.SET_PRIMARY,
            target.id or "",
            (),
            label=target.name or "",
            previous=previous,
            environment=self.environment or None,
        )

    @property
    def needs_typed_confirmation(self) -> bool:
        """Another environment's switch, or one where the key's own
        environment is unknown, asks for the environment's name to be typed."""
        return not self.own_environment

    def question(self) -> str:
        where = self.environment_name
        # An inactive target is activated too: said in the question, not only below it.
        also = " and activate it" if self.activates else ""
        return f"Make {names(self.target)} the primary {self.channel} integration of {where}{also}?"

    def details(self) -> list[str]:
        """What else happens, one sentence each."""
        lines = []
        if self.replaces:
            replaced = ", ".join(names(i) for i in self.replaces)
            lines.append(
                f"It replaces {replaced}, the current {self.channel} primary of "
                f"{self.environment_name}, which stays active."
            )
        else:
            lines.append(f"{self.environment_name} has no {self.channel} primary now.")
        if self.activates:
            lines.append(f"{names(self.target)} is inactive and will be activated.")
        if self.clears:
            lines.append(f"Its {plural(self.clears, 'condition')} will be cleared.")
        if not self.own_known:
            lines.append(
                "The API key's own environment is unknown, so this may act on another "
                "environment than the key's."
            )
        elif not self.own_environment:
            lines.append(f"{self.environment_name} is not the API key's own environment.")
        return lines

    def outcome(self, updated: Integration) -> list[str]:
        """What the switch did, from the integration the service returned."""
        lines = [
            f"{names(updated)} is now the primary {self.channel} integration of "
            f"{self.environment_name}."
        ]
        lines += [f"{names(old)} is no longer primary (it stays active)." for old in self.replaces]
        if self.activates and updated.active:
            lines.append(f"{names(updated)} was activated.")
        if self.clears:
            verb = "was" if self.clears == 1 else "were"
            lines.append(f"Its {plural(self.clears, 'condition')} {verb} cleared.")
        return lines


def plan_primary(
    target: Integration, everything: Sequence[Integration], scope: Scope
) -> PrimaryPlan:
    """The plan of making `target` primary, from the organization's integrations."""
    replaces = tuple(
        i
        for i in everything
        if i.primary
        and i.id != target.id
        and i.channel == target.channel
        and i.environment_id == target.environment_id
    )
    return PrimaryPlan(
        target=target,
        environment=target.environment_id,
        environment_name=scope.name(target.environment_id),
        replaces=replaces,
        own_environment=scope.is_own(target.environment_id),
        own_known=scope.own_id is not None,
    )


def refused_across(
    error: ForbiddenError, key_name: str, target_name: str, add: str
) -> ForbiddenError:
    """A 403 to a switch, said as what it means: the key's environment is not the
    integration's (names safe to show). The key itself is fine."""
    return ForbiddenError(
        error.status,
        f"The switch went with {key_name}'s key and the integration is in {target_name}: "
        f"a key acts only in its own environment, so the service refused it (403). "
        "Nothing changed.",
        hint=f"Add {target_name}'s key with `{add}` (the key on standard input) and run it "
        "again; the switch then goes with that key.",
        body=error.body,
        path=error.path,
    )
