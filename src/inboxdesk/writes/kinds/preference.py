"""A preference write: one channel of one workflow (or of every workflow, globally)
turned on or off for one subscriber, said once for the app and the command line.

Kept in a Write as: `target` the subscriberId, one step whose action is `channel:on`
or `channel:off` and whose ids are the workflow's identifier (none: global), `label`
the workflow's name, and `before` the channel's value and whether the subscriber had
chosen it (`{channel: (on, chosen)}`). An undo writes the value before as the
subscriber's own choice: the service has no way to clear a choice, so a channel that
followed the workflow's default before follows the subscriber afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inboxdesk.text import clip
from inboxdesk.writes.effects import Flags
from inboxdesk.writes.events import Partial, Result, Sent
from inboxdesk.writes.kinds.base import Answers, Clients, Notice, Section, WriteKind
from inboxdesk.writes.model import Kind, Step, Write

if TYPE_CHECKING:
    from inboxdesk.models.preference import SubscriberPreferences

SUBSCRIBER = "subscriber"
# Said of every preference change, before it is made.
FUTURE_ONLY = "This changes future notifications only; nothing already sent changes."


@dataclass(frozen=True)
class Toggle:
    """What one preference write sets: a channel, on or off, of a workflow or globally."""

    channel: str
    on: bool
    workflow: str = ""  # the workflow's identifier; "": the global preference
    name: str = ""  # the workflow's name, raw

    @property
    def where(self) -> str:
        """`Order shipped` or `every workflow (global)`, raw (as `describe` says it)."""
        return self.name or self.workflow or "every workflow (global)"


def preference_action(channel: str, on: bool) -> str:
    """A preference step's action: `email:off`."""
    return f"{channel}:{'on' if on else 'off'}"


def preference_parts(write: Write) -> tuple[str, bool, str]:
    """A preference write's channel, value, and workflow identifier ("": global)."""
    step = write.steps[0]
    channel, _, state = step.action.partition(":")
    return channel, state == "on", step.ids[0] if step.ids else ""


def toggle_of(write: Write) -> Toggle:
    channel, on, workflow = preference_parts(write)
    return Toggle(channel, on, workflow, write.label)


def preference_write(
    subscriber_id: str,
    toggle: Toggle,
    before: tuple[bool, bool] | None,
    undoes: str | None = None,
    context: tuple[str, ...] = (),
) -> Write:
    """The write that sets `toggle`, in the records of `context` (none: the no-context
    ones); `before`: (value, chosen by the subscriber)."""
    step = Step(
        preference_action(toggle.channel, toggle.on), (toggle.workflow,) if toggle.workflow else ()
    )
    return Write(
        Kind.PREFERENCE,
        subscriber_id,
        (step,),
        before=None if before is None else {toggle.channel: before},
        label=toggle.name,
        undoes=undoes,
        context=context,
    )


def value_of(prefs: SubscriberPreferences, workflow: str, channel: str) -> tuple[bool, bool] | None:
    """A channel's (value, chosen by the subscriber) in a listing; None: not listed."""
    if not workflow:
        value = prefs.global_.channels.get(channel)
        # Globally every value listed is the subscriber's, or the default of "on".
        return None if value is None else (value, not value)
    for item in prefs.workflows:
        info = item.workflow
        found = item.channels.get(channel)
        if workflow in (info.identifier, info.slug) and found is not None:
            return found, item.source(channel) == SUBSCRIBER
    return None


def after_of(write: Write, prefs: SubscriberPreferences) -> dict[str, list[bool]]:
    """The journal's "after" of a preference write: its channel as the service returned it."""
    toggle = toggle_of(write)
    found = value_of(prefs, toggle.workflow, toggle.channel)
    return {} if found is None else {toggle.channel: list(found)}


def undo_of(write: Write, after: Mapping[str, tuple[bool, bool]]) -> Write:
    """The write that puts the channel back to its value before `write`."""
    assert write.before is not None
    toggle = toggle_of(write)
    was, _ = write.before[toggle.channel]
    back = Toggle(toggle.channel, was, toggle.workflow, toggle.name)
    now = after.get(toggle.channel, (toggle.on, True))
    return preference_write(write.target, back, now, undoes=write.id, context=write.context)


def undo_note(write: Write) -> str | None:
    """What an undo of a workflow's channel changes beyond the value: the channel is the
    subscriber's own choice from now on. None for other writes of the preference."""
    if write.undoes is None:
        return None
    toggle = toggle_of(write)
    if not toggle.workflow:
        return None
    return (
        f"{toggle.channel} of {toggle.where} is now {'on' if toggle.on else 'off'} as the "
        "subscriber's own choice: it no longer follows the workflow's default."
    )


def source_words(chosen: bool, workflow: str) -> str:
    """Where a value comes from, in words: the subscriber, or the workflow's default."""
    if chosen:
        return "the subscriber's choice"
    return "the workflow's default" if workflow else "the default"


def state_words(flags: object, workflow: str) -> str:
    """A journalled (value, chosen) in words: `off (the subscriber's choice)`."""
    if isinstance(flags, list | tuple) and len(flags) == 2:
        on, chosen = flags
        return f"{'on' if on else 'off'} ({source_words(bool(chosen), workflow)})"
    return "unknown"


class Preference(WriteKind):
    kind = Kind.PREFERENCE
    things = "preferences"

    async def perform(self, write: Write, clients: Clients) -> Sent | Partial:
        toggle = toggle_of(write)
        prefs = await clients.client.update_preferences(
            write.target,
            {toggle.channel: toggle.on},
            workflow_id=toggle.workflow or None,
            idempotency_key=write.key,
            context_keys=write.context,
        )
        return Sent(write, Result(preferences=prefs))

    def after(self, event: Sent | Partial) -> dict[str, Flags]:
        """Its channel's (value, chosen) as the service returned it."""
        prefs = event.result.preferences
        if prefs is None:
            return {}
        return {k: (v[0], v[1]) for k, v in after_of(event.write, prefs).items()}

    def done_note(self, write: Write) -> str | None:
        return undo_note(write)

    def refusal(self, write: Write, answers: Answers) -> str | None:
        if write.before is None:
            return "This cannot be undone: the channel's value before it is unknown."
        return None

    def inverse(self, write: Write, answers: Answers, now: Mapping[str, Flags]) -> Write | str:
        return undo_of(write, answers.flags_after(write))

    def describe(self, write: Write) -> str:
        toggle = toggle_of(write)
        words = f"{toggle.channel} {'on' if toggle.on else 'off'} for {toggle.where}"
        if write.context:
            words += f" in context {', '.join(write.context)}"
        return f"undo: {words}" if write.undoes is not None else words

    def notice(self, event: Sent | Partial) -> Notice | None:
        said = undo_note(event.write) or "It applies to future notifications only."
        return clip(f"Preference set: {self.what(event.write)}. {said}", 200), "information"

    def section(self, write: Write, before: Any, after: Any, detail: Mapping[str, Any]) -> Section:
        channel, _, workflow = preference_parts(write)
        before, after = before or {}, after or {}
        was = state_words(before.get(channel), workflow)
        now = state_words(after.get(channel), workflow) if channel in after else "not returned"
        return Section(f"{channel}, before → after:", (f"{was} → {now}",))
