"""Views as Textual modes (tui/modes.py): one list of them, each built once on first use
(left and opened again, the same screen), and the timeline's Esc back to the view it
was opened from. That an environment switch
builds them again with the new key: tests/tui/test_environments.py (the inbox and
Integrations of the other environment)."""

from __future__ import annotations

import pytest

from inboxdesk.tui import view_keys
from inboxdesk.tui.activity.screen import ActivityScreen
from inboxdesk.tui.activity.timeline import TimelineScreen
from inboxdesk.tui.modes import VIEWS, title_of
from inboxdesk.tui.screens.help import HelpScreen
from tests.conftest import Service, ServiceFactory
from tests.delivery_fixture import delivery_fixture
from tests.tui.conftest import SIZE, app_for, until
from tests.tui.test_inbox import opened


def test_every_view_key_opens_one_mode_of_the_list() -> None:
    names = [view.name for view in VIEWS]
    assert len(names) == len(set(names))
    keyed = [view for _, view, *_ in (*view_keys.VIEWS, view_keys.SUBSCRIBER_VIEW)]
    assert {"subscriber" if v == "subscriber_view" else v for v in keyed} < set(names)
    assert {"timeline", "preferences"} < set(names)
    assert title_of("timeline") == "Timeline" and title_of("help") == "inboxdesk"


@pytest.fixture
def delivered(make_service: ServiceFactory) -> Service:
    return make_service(delivery_fixture())


async def test_each_view_is_a_mode_built_once_and_esc_leaves_the_timeline_for_its_view(
    delivered: Service,
) -> None:
    app = app_for(delivered)
    async with app.run_test(size=SIZE) as pilot:
        inbox = await opened(pilot)
        assert app.current_mode == "inbox" and app.screen is inbox
        # `d`: the timeline's own mode; Esc goes back to the inbox it was opened from.
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="timeline")
        timeline = app.screen
        assert app.current_mode == "timeline"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is inbox, what="back to the inbox")
        # From Activity the same timeline screen, shown again; Esc goes back to Activity.
        await pilot.press("4")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen), what="Activity")
        activity = app.screen
        assert app.current_mode == "activity"
        await until(pilot, lambda: activity.items != {}, what="its rows")  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is timeline, what="the timeline again")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is activity, what="back to Activity")
        # A question is pushed within the current mode, over its view.
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        assert app.current_mode == "activity" and app.screen_stack == [activity, app.screen]
