"""The demo data set: a deterministic fixture that exercises every field of the API.

Same seed and `now`, same data: ids, names, states and times are drawn from one seeded
generator, with times spread over the six weeks before `now`.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from inboxdesk.gc_paused import collector_off
from inboxdesk.server.demo.catalog import TOOL_WORKFLOW, integrations, workflows
from inboxdesk.server.demo.delivery import ADA, ada_stories, notification_for
from inboxdesk.server.demo.draws import hex_id
from inboxdesk.server.demo.fixable import add_tracking, fix_people, grace_stories
from inboxdesk.server.demo.inbox import message, subscribers
from inboxdesk.server.demo.preferences import add_sms_steps, choices
from inboxdesk.server.demo.quiet_hours import quiet_hours_stories
from inboxdesk.server.demo.tables import BIG_INBOX, BIG_INBOX_SIZE, PEOPLE, WORKFLOWS
from inboxdesk.server.demo.topics import add_topic_story


def _environment(name: str, seed: int, now: datetime, big: bool) -> dict[str, Any]:
    rng = random.Random(f"{seed}:{name}")
    people = PEOPLE if big else PEOPLE[:5]
    messages = []
    for sid, *_ in people:
        count = BIG_INBOX_SIZE if sid == BIG_INBOX else rng.randrange(45, 90)
        span = 42 * 24 * 3600
        for _ in range(count):
            at = now - timedelta(seconds=rng.randrange(60, span))
            messages.append(message(rng, now, sid, rng.choice(WORKFLOWS), at))
        for channel in ("email", "sms", "push", "chat"):
            at = now - timedelta(seconds=rng.randrange(60, span))
            messages.append(message(rng, now, sid, rng.choice(WORKFLOWS), at, channel))
    # One message that is brand new: unread, unseen, on top.
    messages.append(
        message(
            random.Random(f"{seed}:{name}:new"),
            now,
            people[0][0],
            WORKFLOWS[0],
            now - timedelta(minutes=2),
        )
        | {"read": False, "seen": False}
    )
    messages[-1].pop("lastSeenDate", None)
    messages[-1].pop("lastReadDate", None)
    # The on-call engineer paged about a sign-in, through the tool channel; drawn on its
    # own, so the rest of the demo stays as it was before the channel came.
    alert = next(w for w in WORKFLOWS if w[0] == TOOL_WORKFLOW)
    rng_tool = random.Random(f"{seed}:{name}:tool")
    messages.append(message(rng_tool, now, people[0][0], alert, now - timedelta(hours=3), "tool"))
    notifications = [notification_for(m) for m in messages]
    preferences: list[dict[str, Any]] = []
    if big:
        names = [w[0] for w in WORKFLOWS]
        # Her email opt-out is for a workflow none of her other emails since came from.
        emailed = {
            m["workflow"] for m in messages if m["subscriberId"] == ADA and m["channel"] == "email"
        }
        opted_out = next(n for n in (names[4], names[1]) if n not in emailed)
        stories, inbox, preferences = ada_stories(now, opted_out, names)
        notifications += stories
        messages += inbox
    environment: dict[str, Any] = {
        "_id": hex_id(rng, now - timedelta(days=120)),
        "name": name,
        "identifier": f"{name[:4].lower()}-{rng.getrandbits(32):08x}",
        "type": "dev" if big else "prod",
        "slug": name.lower(),
        "integrations": integrations(rng, now, name),
        "workflows": workflows(rng, now),
        "subscribers": subscribers(rng, now, people),
        "messages": messages,
        "notifications": notifications,
        "preferences": preferences + choices({sid for sid, *_ in people}, now),
    }
    add_sms_steps(random.Random(f"{seed}:{name}:sms"), now, environment["workflows"])
    add_tracking(environment["integrations"])
    fix_people(environment["subscribers"], stories=big)
    if big:
        # After every draw above: Grace's stories leave the rest of the demo as it was.
        stories, inbox = grace_stories(now, environment["integrations"], [w[0] for w in WORKFLOWS])
        notifications += stories
        messages += inbox
        # Ada's quiet hours and her context-bound opt-out, after Grace's for the same reason.
        stories, chosen = quiet_hours_stories(now, [w[0] for w in WORKFLOWS])
        notifications += stories
        environment["preferences"] += chosen
        add_topic_story(now, environment)
    return environment


def demo_fixture(now: datetime | None = None, seed: int = 7) -> dict[str, Any]:
    """The demo data set as a fixture: Development (with the big inbox) and Production."""
    now = (now or datetime.now(UTC).replace(minute=0, second=0, microsecond=0)).astimezone(UTC)
    with collector_off():  # some 300,000 objects, no cycle: a pass cost up to a third
        development = _environment("Development", seed, now, big=True)
        # Production is made from Development, as production's own environments are.
        production = _environment("Production", seed, now, big=False) | {
            "_parentId": development["_id"]
        }
    return {
        "_organizationId": hex_id(random.Random(seed), now - timedelta(days=365)),
        "organization": "Acme Robotics",
        "environments": [development, production],
    }


__all__ = ["BIG_INBOX", "BIG_INBOX_SIZE", "demo_fixture"]
