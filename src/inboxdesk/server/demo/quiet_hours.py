"""Ada's stories of quiet hours and of a context.

Ada keeps quiet hours (weekdays 09:00 to 17:30, London time): an email that fell outside
them was skipped, and an email behind a delay was extended to her next open window
(it arrives then). And Ada turned comment emails off for one tenant alone
(`tenant:acme-eu`): a comment of that tenant had its email canceled by that context's
preference, which applies only where the organization has context
preferences on (the demo's service has).

Staged like her other stories: the worker never touches them. Nothing here draws from
the demo's generators, so the rest of the demo stays as it was.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from inboxdesk.server.demo.delivery import ADA
from inboxdesk.server.demo.draws import hex_id, rng_for
from inboxdesk.server.demo.preferences import CHOSEN_BEFORE_NOW
from inboxdesk.server.store import iso

TIMEZONE = "Europe/London"
OPEN = {"isEnabled": True, "hours": [{"start": "09:00 AM", "end": "05:30 PM"}]}
CLOSED = {"isEnabled": False, "hours": []}
SCHEDULE = {
    "isEnabled": True,
    "weeklySchedule": {
        **{d: OPEN for d in ("monday", "tuesday", "wednesday", "thursday", "friday")},
        "saturday": CLOSED,
        "sunday": CLOSED,
    },
}
# The tenant whose invoice emails Ada turned off.
TENANT = "tenant:acme-eu"

SKIPPED = "The step was skipped as it fell outside the subscriber's schedule"
EXTENDED = "Step was extended to the next available time in the subscriber schedule"
BY_WORKFLOW = "Step filtered by subscriber workflow preferences"


def _open(at: datetime) -> bool:
    """Whether Ada's schedule is open at `at` (weekdays 09:00 to 17:30 in London)."""
    local = at.astimezone(ZoneInfo(TIMEZONE))
    minutes = local.hour * 60 + local.minute
    return local.weekday() < 5 and 9 * 60 <= minutes < 17 * 60 + 30


def _closed_before(moment: datetime) -> datetime:
    """The latest half hour at or before `moment` outside her schedule: the stories
    happened when it was closed, whatever the demo's "now"."""
    while _open(moment):
        moment -= timedelta(minutes=30)
    return moment


def _opens_after(moment: datetime) -> datetime:
    """When her schedule next opens after `moment` (closed then)."""
    while not _open(moment):
        moment += timedelta(minutes=30)
    return moment


def _detail(at: datetime, status: str, text: str, raw: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"createdAt": iso(at), "status": status, "detail": text}
    if raw is not None:
        out["raw"] = json.dumps(raw)
    return out


def quiet_hours_stories(
    now: datetime, workflows: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The notifications of the three stories, and Ada's preferences behind them: her
    quiet hours, and her comment emails turned off for the tenant."""
    rng = rng_for("ada-quiet-hours")
    comment, _, _, _, _, deploy = workflows[:6]
    notifications: list[dict[str, Any]] = []

    def story(
        hours_ago: float, workflow: str, title: str, jobs: list[dict[str, Any]], *context: str
    ) -> None:
        at = now - timedelta(hours=hours_ago)
        notifications.append(
            {
                "_id": hex_id(rng, at),
                "subscriberId": ADA,
                "workflow": workflow,
                "transactionId": f"txn_{rng.getrandbits(48):012x}",
                "createdAt": iso(at),
                "payload": {"story": title},
                "jobs": jobs,
                **({"contextKeys": list(context)} if context else {}),
            }
        )

    def at(hours_ago: float) -> datetime:
        return now - timedelta(hours=hours_ago)

    def ago(moment: datetime) -> float:
        return (now - moment).total_seconds() / 3600

    skipped = _closed_before(at(6.5))
    story(
        ago(skipped),
        comment,
        "Email skipped outside Ada's quiet hours",
        [
            {
                "type": "email",
                "status": "canceled",
                "providerId": "sendgrid",
                "executionDetails": [
                    _detail(
                        skipped, "Success", SKIPPED, {"schedule": SCHEDULE, "timezone": TIMEZONE}
                    )
                ],
            }
        ],
    )
    # Held until her next open window; still waiting unless that has come since.
    held = _closed_before(at(0.5))
    opens = _opens_after(held)
    extension = {
        "delayMs": int((opens - held).total_seconds() * 1000),
        "nextAvailableTime": iso(opens),
        "timezone": TIMEZONE,
        "schedule": SCHEDULE,
        "scheduleExtensionsCount": 1,
        "maxScheduleExtensions": 3,
    }
    waiting = opens > now
    email: dict[str, Any] = {"type": "email", "status": "pending", "providerId": "sendgrid"}
    email["executionDetails"] = []
    if not waiting:
        answer = {"id": f"sendgrid-{rng.getrandbits(40):010x}", "date": iso(opens)}
        email["status"] = "completed"
        email["executionDetails"] = [
            _detail(opens, "Pending", "Message created"),
            _detail(opens, "Success", "Message sent", answer) | {"providerId": "sendgrid"},
        ]
    story(
        ago(held),
        deploy,
        "Email held for Ada's next open hours",
        [
            {
                "type": "delay",
                "status": "delayed" if waiting else "completed",
                "executionDetails": [
                    _detail(held, "Pending", "Step delayed"),
                    _detail(held, "Pending", EXTENDED, extension),
                ],
            },
            email,
        ],
    )
    story(
        16,
        comment,
        "Comment email canceled by Ada's preference for tenant acme-eu",
        [
            {
                "type": "email",
                "status": "canceled",
                "executionDetails": [
                    _detail(
                        at(16),
                        "Success",
                        BY_WORKFLOW,
                        {"enabled": True, "channels": {"email": False, "in_app": True}},
                    )
                ],
            }
        ],
        TENANT,
    )
    preferences = [
        # Her quiet hours, stored when her other choices were (the global record's time).
        {"subscriberId": ADA, "schedule": SCHEDULE, "updatedAt": iso(now - CHOSEN_BEFORE_NOW)},
        {
            "subscriberId": ADA,
            "workflow": comment,
            "channels": {"email": False},
            "context": [TENANT],
            "updatedAt": iso(now - timedelta(days=3)),
        },
    ]
    return notifications, preferences
