"""The demo's preferences: channels some subscribers turned off, and the steps that make
those channels matter (an SMS for shipped orders and for security alerts).

Ada turned order emails off and SMS off everywhere; others have one opt-out each. The
security alert is critical: whatever its subscribers chose, it is sent.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from inboxdesk.server.demo.draws import hex_id

# (subscriberId, the workflow's name or None for every workflow, {channel: on}).
CHOICES: list[tuple[str, str | None, dict[str, bool]]] = [
    ("ada.lovelace", "Order shipped", {"email": False}),
    ("ada.lovelace", None, {"sms": False}),
    ("grace.hopper", "Weekly digest", {"email": False}),
    ("alan.turing", None, {"email": False}),
    ("alan.turing", "Invoice ready", {"email": True}),
    ("katherine.johnson", "Comment on your post", {"in_app": False}),
]
# The workflows that also send an SMS.
SMS_WORKFLOWS = ("Order shipped", "Security alert")


def add_sms_steps(rng: random.Random, now: datetime, workflows: list[dict[str, Any]]) -> None:
    """Give the SMS workflows an SMS step after their others."""
    for workflow in workflows:
        if workflow["name"] in SMS_WORKFLOWS:
            workflow["steps"].append(
                {
                    "_id": hex_id(rng, now),
                    "uuid": f"step-{workflow['name'].lower().replace(' ', '-')}-sms",
                    "name": "SMS",
                    "active": True,
                    "shouldStopOnFail": False,
                    "template": {"type": "sms"},
                }
            )


def choices(subscriber_ids: set[str]) -> list[dict[str, Any]]:
    """The fixture's `preferences`: the choices of the subscribers the environment has."""
    out: list[dict[str, Any]] = []
    for subscriber_id, workflow, channels in CHOICES:
        if subscriber_id in subscriber_ids:
            item: dict[str, Any] = {"subscriberId": subscriber_id, "channels": dict(channels)}
            if workflow is not None:
                item["workflow"] = workflow
            out.append(item)
    return out
