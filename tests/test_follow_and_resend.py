"""The rules the app and the command line share for resend, cancel and follow: what a
resend sends and says, when a follow reads again and when it stops (on a hand-moved
clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from inboxdesk.client.errors import ConnectionFailed
from inboxdesk.core.delivery.follow_notification import Ending, Follow, follow
from inboxdesk.core.delivery.resend import cancellable, context_of, plan
from inboxdesk.models.delivery import ActivityNotification

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def job(kind: str, status: str, *details: str, provider: str | None = None) -> dict[str, Any]:
    return {
        "_id": f"job-{kind}",
        "type": kind,
        "status": status,
        "providerId": provider,
        "executionDetails": [
            {"_id": f"{kind}-{n}", "detail": d, "status": "Success"} for n, d in enumerate(details)
        ],
    }


def notification(*jobs: dict[str, Any], **extra: Any) -> ActivityNotification:
    return ActivityNotification.model_validate(
        {
            "_id": "66b000000000000000000001",
            "transactionId": "txn_original",
            "_templateId": "66a000000000000000000210",
            "template": {"name": "Welcome", "triggers": [{"identifier": "welcome"}]},
            "subscriber": {"subscriberId": "ada", "firstName": "Ada"},
            "jobs": list(jobs),
            **extra,
        }
    )


def test_a_resend_names_every_channel_and_is_refused_once_the_workflow_is_gone() -> None:
    shown = notification(
        job("in_app", "completed", "Message sent"),
        job("email", "completed", "Message sent"),
        payload=None,
        critical=True,
        contextKeys=["tenant:acme", "broken", ":x", "region:eu:west"],
    )
    chosen = plan(shown, NOW)
    assert not isinstance(chosen, str)
    assert chosen.payload == {}, "no payload: none sent, and no __source"
    assert chosen.extra == {"context": {"tenant": "acme", "region": "eu:west"}}
    assert (
        "Ada gets the in-app message and the email again, if the workflow is unchanged; "
        "preferences apply again." in chosen.question
    )
    assert "critical" in chosen.question
    gone = notification(job("in_app", "completed"), template=None)
    assert plan(gone, NOW) == "It cannot be resent: its workflow was deleted."
    assert context_of(None) == {}


def test_cancel_is_offered_only_while_a_step_is_delayed_or_merged() -> None:
    assert cancellable([notification(job("delay", "delayed"), job("in_app", "pending"))])
    assert not cancellable([notification(job("in_app", "completed"))])


def test_follow_backs_off_after_a_quiet_minute_and_stops_at_its_limit() -> None:
    state = Follow(NOW)
    waiting = [notification(job("delay", "delayed", "Step delayed"))]
    assert state.look(waiting, NOW) and state.interval(NOW) == 1.0
    later = NOW + timedelta(seconds=59)
    assert not state.look(waiting, later) and state.interval(later) == 1.0
    quiet = NOW + timedelta(seconds=60)
    assert state.interval(quiet) == 10.0 and state.ending(waiting, quiet) is None
    moved = [notification(job("delay", "delayed", "Step delayed", "Still waiting"))]
    assert state.look(moved, quiet) and state.interval(quiet) == 1.0
    near = NOW + timedelta(seconds=595)
    state.look(moved, near)
    assert state.interval(near) == 5.0, "never past the limit"
    assert state.ending(moved, NOW + timedelta(minutes=10)) is Ending.LIMIT


def test_follow_keeps_a_grace_for_a_report_where_tracking_is_on() -> None:
    state = Follow(NOW, grace=5, tracked=frozenset({"sendgrid"}))
    sent = [notification(job("email", "completed", "Message sent", provider="sendgrid"))]
    state.look(sent, NOW)
    assert state.ending(sent, NOW + timedelta(seconds=4)) is None, "a bounce may come"
    bounced = [
        notification(
            job("email", "completed", "Message sent", "Message bounced", provider="sendgrid")
        )
    ]
    state.look(bounced, NOW + timedelta(seconds=4))
    assert state.ending(bounced, NOW + timedelta(seconds=4)) is Ending.FAILED
    untracked = Follow(NOW, grace=5)
    untracked.look(sent, NOW)
    assert untracked.ending(sent, NOW) is Ending.ARRIVED
    assert state.ending(sent, NOW + timedelta(seconds=5)) is Ending.ARRIVED


async def test_a_follow_rides_out_an_outage_on_its_clock() -> None:
    """The service away for one reading: no change, read again a second later."""
    now = [NOW]
    readings: list[str] = []
    answers: list[list[ActivityNotification] | Exception] = [
        [notification(job("delay", "delayed", "Step delayed"))],
        ConnectionFailed("The service is unreachable."),
        [notification(job("delay", "completed", "Step delayed", "Delay is finished"))],
    ]

    async def read() -> list[ActivityNotification]:
        answer = answers.pop(0)
        readings.append(type(answer).__name__)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def clock() -> datetime:
        now[0] += timedelta(seconds=0.25)  # each look at it a quarter second on
        return now[0]

    seen: list[bool] = []
    ending = await follow(read, Follow(NOW), clock, lambda _, moved: seen.append(moved))
    assert ending is Ending.ARRIVED
    assert readings == ["list", "ConnectionFailed", "list"]
    assert seen == [True, False, True]
