"""A fixture's `preferences`: subscribers' own channel choices, checked before storing.

Each item names its subscriber by `subscriberId`, its workflow by `name` in `workflow`
(left out: the subscriber's global choice), and `channels` as `{channel: true|false}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inboxdesk.models import Subscriber, Workflow
from inboxdesk.models.preference import PREFERENCE_CHANNELS
from inboxdesk.server.store.preferences import GLOBAL
from inboxdesk.text import safe

# (subscriber `_id`, workflow `_id` or GLOBAL, {channel: on}), as the store takes them.
Choice = tuple[str, str, dict[str, bool]]


def stage_preferences(
    items: Sequence[Mapping[str, Any]],
    where: str,
    subscribers: Sequence[Subscriber],
    workflows: Sequence[Workflow],
    error: type[ValueError],
) -> list[Choice]:
    """The choices of `items`, or `error` naming the item and field at fault."""
    by_subscriber = {s.subscriber_id: s for s in subscribers}
    by_workflow = {w.name: w for w in workflows}
    staged: list[Choice] = []
    for n, item in enumerate(items):
        spot = f"{where}.preferences[{n}]"
        owner = by_subscriber.get(str(item.get("subscriberId", "")))
        if owner is None or owner.id is None:
            raise error(f"{spot}.subscriberId: names no subscriber of this environment")
        workflow_id = GLOBAL
        if item.get("workflow") is not None:
            workflow = by_workflow.get(str(item["workflow"]))
            if workflow is None or workflow.id is None:
                raise error(f"{spot}.workflow: names no workflow of this environment")
            workflow_id = workflow.id
        channels = item.get("channels")
        if not isinstance(channels, dict) or not channels:
            raise error(f"{spot}.channels: expected an object of channels, each true or false")
        for channel, value in channels.items():
            if channel not in PREFERENCE_CHANNELS:
                field = f"{spot}.channels.{safe(channel, newlines=False)}"
                raise error(f"{field}: must be one of {', '.join(PREFERENCE_CHANNELS)}")
            if not isinstance(value, bool):
                raise error(
                    f"{spot}.channels.{safe(channel, newlines=False)}: must be true or false"
                )
        staged.append((owner.id, workflow_id, dict(channels)))
    return staged
