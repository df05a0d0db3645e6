"""Notifications grouped by cause x channel x provider x provider code: counts, first and
last seen, workflows and three example subscribers, largest group first, growing as
pages arrive."""

from __future__ import annotations

import json
from typing import Any

from inboxdesk.core.delivery.grouping import Grouping, GroupKey, group
from inboxdesk.delivery import Cause, notification_cause
from inboxdesk.models.delivery import ActivityNotification


def _twilio(code: int, message: str) -> dict[str, Any]:
    return {"status": 400, "code": code, "message": message}


def notification(
    n: int,
    subscriber: str,
    job: dict[str, Any],
    workflow: str = "Security alert",
    minute: int | None = None,
) -> ActivityNotification:
    at = f"2026-11-28T10:{(n if minute is None else minute):02d}:00.000Z"
    return ActivityNotification.model_validate(
        {
            "_id": f"{n:024x}",
            "transactionId": f"t{n}",
            "createdAt": at,
            "channels": [job["type"]],
            "subscriber": {"subscriberId": subscriber},
            "template": {"name": workflow, "triggers": [{"identifier": workflow.lower()}]},
            "jobs": [job],
        }
    )


def refused(
    raw: dict[str, Any] | str, provider: str = "twilio", kind: str = "sms"
) -> dict[str, Any]:
    return {
        "type": kind,
        "status": "failed",
        "providerId": provider,
        "executionDetails": [
            {"status": "Pending", "detail": "Message created"},
            {
                "status": "Failed",
                "detail": "Unexpected provider error",
                "providerId": provider,
                "raw": raw if isinstance(raw, str) else json.dumps(raw),
            },
        ],
    }


def bounced(reason: str) -> dict[str, Any]:
    return {
        "type": "email",
        "status": "completed",
        "providerId": "sendgrid",
        "executionDetails": [
            {"status": "Success", "detail": "Message sent", "providerId": "sendgrid"},
            {
                "status": "Failed",
                "detail": "Message bounced",
                "source": "Webhook",
                "raw": json.dumps({"event": "bounce", "reason": reason}),
            },
        ],
    }


NO_PHONE = {
    "type": "sms",
    "status": "failed",
    "executionDetails": [{"status": "Failed", "detail": "Subscriber missing phone number"}],
}
SENT = {
    "type": "in_app",
    "status": "completed",
    "executionDetails": [{"status": "Success", "detail": "Message sent"}],
}


def test_provider_errors_group_by_code_never_by_text() -> None:
    found = [
        notification(1, "ada", refused(_twilio(21610, "Attempt to send to unsubscribed +1555"))),
        notification(2, "bob", refused(_twilio(21610, "Attempt to send to unsubscribed +1666"))),
        notification(3, "cy", refused(_twilio(21211, "Invalid 'To' Phone Number"))),
        notification(4, "dee", bounced("550 5.1.1 <dee@a.test> does not exist"), "Digest"),
        notification(5, "eve", bounced("550 5.1.1 <eve@b.test> does not exist"), "Digest"),
        notification(6, "fay", NO_PHONE),
    ]
    groups = group(found)
    assert [(g.key, g.count) for g in groups] == [
        (GroupKey(Cause.AFTER_SENDING, "email", "sendgrid", "550 5.1.1"), 2),
        (GroupKey(Cause.PROVIDER_ERROR, "sms", "twilio", "21610"), 2),
        (GroupKey(Cause.MISSING_ADDRESS, "sms", "", ""), 1),
        (GroupKey(Cause.PROVIDER_ERROR, "sms", "twilio", "21211"), 1),
    ]
    assert groups[1].label == "provider error · sms · twilio 21610"
    assert groups[1].family == "twilio"
    assert groups[0].family == "sendgrid" and groups[0].failed
    # The cause in words is the cause module's, as the timeline says it.
    assert groups[2].words == notification_cause(found[5]).words


def test_a_group_tells_count_when_workflows_and_three_examples() -> None:
    raw = _twilio(21610, "opted out")
    found = [
        notification(n, who, refused(raw), workflow, minute)
        for n, (who, workflow, minute) in enumerate(
            [
                ("ada", "Security alert", 50),
                ("bob", "Login code", 40),
                ("ada", "Login code", 30),
                ("cy", "Login code", 20),
                ("dee", "Security alert", 10),
                ("eve", "Login code", 5),
            ]
        )
    ]
    (only,) = group(found)
    assert only.count == 6
    assert (only.first_seen, only.last_seen) == (
        "2026-11-28T10:05:00.000Z",
        "2026-11-28T10:50:00.000Z",
    )
    assert only.top_workflows() == ["Login code", "Security alert"]
    assert only.examples == ["ada", "bob", "cy"]
    assert [n.id for n in only.notifications] == [n.id for n in found]
    wire = only.to_wire()
    assert wire["code"] == "21610" and wire["providerId"] == "twilio" and wire["count"] == 6
    assert wire["examples"] == ["ada", "bob", "cy"] and wire["failed"] is True


def test_groups_grow_as_pages_arrive_and_resort() -> None:
    grouping = Grouping()
    grouping.add([notification(1, "ada", NO_PHONE), notification(2, "bob", SENT)])
    first = grouping.groups()
    # One each: the latest seen first.
    assert [g.key.cause for g in first] == [Cause.DELIVERED, Cause.MISSING_ADDRESS]
    assert not first[0].failed and first[1].failed
    grouping.add([notification(n, f"s{n}", refused(_twilio(21610, "x"))) for n in range(3, 6)])
    assert grouping.scanned == 5
    assert [(g.key.code, g.count) for g in grouping.groups()] == [("21610", 3), ("", 1), ("", 1)]


def test_ties_sort_by_latest_seen_then_key() -> None:
    groups = group(
        [
            notification(1, "a", NO_PHONE, minute=1),
            notification(2, "b", SENT, minute=9),
            notification(3, "c", refused(_twilio(21211, "x")), minute=9),
        ]
    )
    assert [g.key.cause for g in groups] == [
        Cause.DELIVERED,
        Cause.PROVIDER_ERROR,
        Cause.MISSING_ADDRESS,
    ]


def test_a_notification_without_jobs_or_subscriber_still_counts() -> None:
    bare = ActivityNotification.model_validate({"_id": "a" * 24, "jobs": []})
    (only,) = group([bare])
    assert only.key == GroupKey(Cause.PENDING, "", "", "") and only.count == 1
    assert only.examples == [] and only.first_seen == ""


def test_a_search_on_a_channel_weighs_and_groups_that_channel_s_jobs_only() -> None:
    """An SMS that arrived beside an in-app step that did not: not failed, not grouped
    under the in-app cause, when the search names sms; whole otherwise."""
    from inboxdesk.client.feed import FeedFilter

    sms_sent = {**SENT, "type": "sms"}
    skipped_in_app = {
        "type": "in_app",
        "status": "skipped",
        "executionDetails": [
            {"status": "Success", "detail": "Step was skipped based on steps conditions"}
        ],
    }
    both = ActivityNotification.model_validate(
        {
            **notification(1, "grace", sms_sent).model_dump(by_alias=True),
            "channels": ["in_app", "sms"],
            "jobs": [skipped_in_app, sms_sent],
        }
    )
    assert notification_cause(both).cause is Cause.CONDITION, "the in-app step did not arrive"
    assert FeedFilter(failed=True).keeps(both)
    assert not FeedFilter(failed=True, channels=["sms"]).keeps(both)
    on_sms = Grouping(["sms"])
    on_sms.add([both])
    (only,) = on_sms.groups()
    assert only.key.channel == "sms" and only.key.cause is Cause.SENT
    everything = Grouping()
    everything.add([both])
    assert everything.groups()[0].key.channel == "in_app"
