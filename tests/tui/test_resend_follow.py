"""Resend, follow and cancel in the timeline, through Pilot on the local service. The
app and the service share one clock moved by hand: the follow reads again as it moves.
And one read-only walk through the views that change
things (the timeline, the Subscriber view, Preferences): none binds a change."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from textual.pilot import Pilot

from inboxdesk.core.delivery.tracking import UNTRACKED
from inboxdesk.tui.activity.timeline import LIVE, PAUSED, TimelineScreen, TimelineView
from inboxdesk.tui.app import InboxdeskApp
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.preferences.schedule_editor import ScheduleEditor
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.subscriber.edit import EditField
from tests.conftest import Service, ServiceFactory
from tests.trigger_fixture import TRIGGER_KEY, trigger_fixture
from tests.tui.conftest import SIZE, Notices, app_for, ran, settled
from tests.tui.test_activity import go_to
from tests.tui.test_preferences import schedule_said
from tests.tui.test_subscriber_view import view
from tests.waiting import until

START = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self) -> bool:
        """A tenth of a second on: a follow waiting on this clock reads again soon."""
        self.now += timedelta(seconds=0.1)
        return False


@pytest.fixture
def clock() -> Clock:
    return Clock()


def untracked_fixture() -> dict[str, Any]:
    """The trigger tests' data with no integration configured to track delivery (one
    template for every test here; tracking changes nothing of an in-app step)."""
    fixture = trigger_fixture()
    for item in fixture["environments"][0]["integrations"]:
        item.pop("configurations", None)
    return fixture


@pytest.fixture
def service(make_service: ServiceFactory, clock: Clock) -> Service:
    made = make_service(untracked_fixture())
    made.store.clock = clock
    return made


def trigger(service: Service, name: str) -> str:
    with service.http(TRIGGER_KEY) as http:
        answer = http.post("/v1/events/trigger", json={"name": name, "to": "ada"})
        assert answer.status_code == 201, answer.text
    service.store.worker.run_due()
    transaction: str = answer.json()["data"]["transactionId"]
    return transaction


def text(app: InboxdeskApp) -> str:
    return app.screen.query_one(TimelineView).text


async def timeline_of(pilot: Pilot[None], transaction: str, by: str) -> TimelineScreen:
    """The transaction's timeline, from the inbox: by `ctrl+g` (a notification with no
    in-app message yet: the timeline itself; to a message: tests/tui/test_find.py, and
    its `d`: the Activity walk), or by the `:txn` line."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, InboxScreen), what="the inbox")
    if by == "ctrl+g":
        await go_to(pilot, transaction)
    else:
        await ran(pilot, f":txn {transaction}")
    await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="the timeline")
    assert isinstance(app.screen, TimelineScreen)
    return app.screen


async def test_r_resends_follows_it_and_x_cancels_it_as_it_waits(
    service: Service, clock: Clock, notices: Notices
) -> None:
    """`R` resends after naming the channels, and follows the new one (paused and live
    again with `L`) as the service moves it on. Then `X` cancels it as it waits on its
    delay: asked, naming it; its cause reads cancelled, the follow ends there, and `X`
    is greyed. (A resend whose answer is lost is asked of the feed before it is tried
    again, through the same outbox and kind: tests/cli/test_resend.py
    ::test_a_resend_whose_answer_is_lost_is_not_sent_twice.)"""
    original = trigger(service, "delayed")
    clock.now += timedelta(minutes=5)
    service.store.worker.run_due()
    app = app_for(service, key=TRIGGER_KEY, subscriber="ada", clock=clock, follow_grace=0)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await timeline_of(pilot, original, by=":txn")
        assert screen.check_action("cancel_delayed", ()) is None, "nothing waits: greyed"
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert isinstance(app.screen, ConfirmScreen)
        assert "Ada gets the in-app message again" in app.screen.question
        assert "preferences apply again" in app.screen.question
        await pilot.press("y")
        await until(pilot, lambda: LIVE in (screen.sub_title or ""), what="the live mark")
        assert notices.saying("Resent: transactionId txn_")
        await pilot.press("L")
        await until(pilot, lambda: PAUSED in (screen.sub_title or ""), what="paused")
        await pilot.press("L")
        await until(pilot, lambda: LIVE in (screen.sub_title or ""), what="live again")
        await until(
            pilot,
            lambda: (
                clock.tick()
                or (screen.notification.transaction_id != original and "Step delayed" in text(app))
            ),
            what="the new one",
        )
        assert "Cause: in-app: pending, not sent yet" in text(app)
        assert "__resent_transaction_id" not in text(app)  # the payload is not the timeline's

        # What waits is cancelled with `X`: asked, naming it; greyed once nothing waits.
        await until(
            pilot,
            lambda: screen.check_action("cancel_delayed", ()) is True,
            what="cancel offered",
        )
        await pilot.press("X")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert isinstance(app.screen, ConfirmScreen)
        assert screen.notification.id in app.screen.detail, "names the notification"
        await pilot.press("y")
        await until(pilot, lambda: "Cause: in-app: cancelled" in text(app), what="cancelled")
        assert notices.saying("Cancelled")
        await until(
            pilot,
            lambda: clock.tick() or screen.following == "",
            what="the new notification followed to its end",
        )
        assert screen.notification.transaction_id != original
        assert LIVE not in (screen.sub_title or "")
        assert screen.check_action("cancel_delayed", ()) is None, "greyed once nothing waits"


async def test_read_only_binds_no_change_in_the_timeline_the_subscriber_or_preferences(
    service: Service, clock: Clock, notices: Notices
) -> None:
    """Read-only: a waiting notification's timeline binds neither resend nor cancel;
    Preferences (`5`) opens no schedule editor; an email's timeline says its integration
    tracks no delivery (decision 127); the Subscriber view (`6`) opens no form."""
    email = trigger(service, "email")
    waiting = trigger(service, "delayed")
    app = app_for(service, key=TRIGGER_KEY, subscriber="ada", clock=clock, read_only=True)
    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        screen = await timeline_of(pilot, waiting, by="ctrl+g")
        assert screen.check_action("resend", ()) is False
        assert screen.check_action("cancel_delayed", ()) is False
        await pilot.press("R", "X")
        await settled(pilot)
        assert app.screen is screen

        await pilot.press("5")
        await until(pilot, lambda: "Quiet hours: off" in schedule_said(app), what="the schedule")
        await pilot.press("Q")
        await settled(pilot)
        assert not isinstance(app.screen, ScheduleEditor)
        with service.http(TRIGGER_KEY) as http:
            body = http.get("/v2/subscribers/ada/preferences").json()["data"]
        assert body["global"].get("schedule") is None

        await ran(pilot, f":txn {email}")  # (ctrl+g from Activity: the Activity walk)
        await until(
            pilot,
            lambda: isinstance(app.screen, TimelineScreen) and UNTRACKED in text(app),
            what="the email's timeline and its note on tracking",
        )
        await pilot.press("6")
        await until(pilot, lambda: view(app) is not None, what="the subscriber view")
        await pilot.press("j", "j", "enter", "e")
        await until(pilot, lambda: notices.saying("nothing can be changed"), what="said")
        assert not isinstance(app.screen, EditField)
