"""Activity (`4`), the timeline (Enter) and `d` from an inbox message, through Pilot on
the local service: causes in words, filters, hostile text made safe, 80x24, each view a
mode built once; and Ada's preference stories in the demo, from a timeline or a row to
Preferences (`5`)."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from inboxdesk.client import InboxClient
from inboxdesk.client.activity import ActivityFilter
from inboxdesk.core.delivery.topics import NO_TRACE
from inboxdesk.delivery import PreferenceSpot, notification_cause, preference_behind
from inboxdesk.models.delivery import ActivityNotification
from inboxdesk.text import cells, clip
from inboxdesk.tui.activity.screen import ActivityScreen, ActivityTable
from inboxdesk.tui.activity.timeline import JSON_LINE, TimelineScreen, TimelineView, lines
from inboxdesk.tui.activity.timeline import plain as line_text
from inboxdesk.tui.modes import title_of
from inboxdesk.tui.preferences.confirm import PreferenceConfirm
from inboxdesk.tui.subscriber.topics import read_subscriptions
from tests.conftest import STAGING_KEY, Service, ServiceFactory
from tests.delivery_fixture import FAILED, STORIES, delivery_fixture
from tests.templates import demo_at
from tests.tui.conftest import SIZE, Notices, app_for, plain, ran, until
from tests.tui.test_inbox import opened
from tests.tui.test_subscriber_view import row_key, view


@pytest.fixture
def delivered(make_service: ServiceFactory) -> Service:
    return make_service(delivery_fixture())


def rows(app: object) -> int:
    screen = app.screen  # type: ignore[attr-defined]
    return screen.query_one(ActivityTable).row_count if isinstance(screen, ActivityScreen) else -1


def causes(app: object) -> list[str]:
    table = app.screen.query_one(ActivityTable)  # type: ignore[attr-defined]
    return [str(table.get_cell(key, "cause")) for key in table.rows]


async def go_to(pilot: Pilot[None], key: str) -> None:
    """`ctrl+g`, then `key` in the box it opens, and Enter."""
    await pilot.press("ctrl+g")
    await until(pilot, lambda: isinstance(pilot.app.focused, Input), what="the go-to box")
    box = pilot.app.focused
    assert isinstance(box, Input)
    box.value = key
    await pilot.press("enter")


def timeline_text(app: object) -> str:
    return app.screen.query_one(TimelineView).text  # type: ignore[attr-defined, no-any-return]


@pytest.mark.slow
def test_each_timeline_says_its_story_made_safe_and_masked(delivered: Service) -> None:
    """The timeline's lines of each of jane's notifications, read from the service:
    hostile text made safe and markup kept as text, a provider's secret masked, the
    code's meaning beside the provider's words (decision 94). And the cell that `5`
    opens Preferences on, from a timeline or an Activity row: the one behind a
    preference's story alone; on any other, Preferences opens where its cursor was."""

    async def read() -> list[ActivityNotification]:
        async with InboxClient(delivered.url, STAGING_KEY) as client:
            page = await client.activity(ActivityFilter(subscriber_ids=["jane"]), limit=50)
        return page.data

    read_back = asyncio.run(read())
    said = {
        n.transaction_id or "": "\n".join(line_text(line) for line in lines(n)) for n in read_back
    }
    behind = {n.transaction_id: preference_behind(n) for n in read_back}
    assert behind.pop("txn-pref-workflow") == PreferenceSpot("order-shipped", "email")
    assert behind.pop("txn-pref-global") == PreferenceSpot(None, "sms")
    assert set(behind.values()) == {None}, "no other story has a preference behind it"
    assert set(said) == set(STORIES)
    every = "\n".join(said.values())
    assert "\x1b" not in every and "\u202e" not in every and "\x07" not in every, "made safe"
    assert "[bold]x[/bold]" in every, "markup shown as text, never applied"
    assert "Message bounced" in said["txn-11"] and "sent is not delivered" in said["txn-11"]
    assert "550 mailbox unavailable" in said["txn-11"], "the provider's raw answer"
    provider = said["txn-provider"]
    assert "21610" in provider and "sk_live_1234567890abcdef" not in provider, "masked"
    assert "Twilio 21610: the recipient replied STOP" in provider
    assert "Attempt to send to unsubscribed recipient" in provider
    assert "no email address" in said["txn-no-email"]


async def test_from_the_inbox_and_activity_to_a_notification_s_timeline(
    delivered: Service, notices: Notices
) -> None:
    """One walk: `d` opens the highlighted message's delivery; Activity lists every
    cause in words, filters, and Enter opens the timeline (what each timeline says:
    test_each_timeline_says_its_story_made_safe_and_masked); at 80x24, the row fits,
    the strip under it shows the whole cause, and the timeline wraps it, never cut;
    ctrl+g opens a notification by its transactionId from Activity (from the inbox:
    tests/tui/test_resend_follow.py); `i` opens the Subscriber view on the field a
    cause names; the views start from the view context's current subscriber. Views
    are Textual modes (tui/modes.py), each built once on first use (left and opened
    again, the same screen); the timeline's Esc goes back to the view it was opened
    from, its `1` to the inbox. (A question pushed within the current mode, over its
    view: the demo's walk of Ada's stories below.)"""

    app = app_for(delivered)
    async with app.run_test(size=(80, 24), message_hook=notices.hook) as pilot:
        inbox = await opened(pilot, rows=5)  # jane's newest message is txn-11's
        assert app.current_mode == "inbox" and app.screen is inbox
        assert app.context.subscriber.value == "jane"
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="its timeline")
        timeline = app.screen
        assert app.current_mode == "timeline", "the timeline's own mode"
        text = timeline_text(app)
        assert "txn-11" in text and "Message bounced" in text
        assert "sent is not delivered" in text
        assert "550 mailbox unavailable" in text, "the provider's raw answer"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is inbox, what="back to the inbox")

        await pilot.press("4")
        await until(pilot, lambda: rows(app) == len(STORIES), what="every notification")
        activity = app.screen
        assert app.current_mode == "activity"
        table = app.screen.query_one(ActivityTable)
        width = sum(c.get_render_width(table) for c in table.columns.values())
        assert width <= 80, "the row fits"
        # Each row's cause column: the start of its cause in words (the words themselves:
        # tests/client/test_delivery.py::test_every_cause_in_words_from_the_local_service);
        # the strip under the table, all of it.
        items = app.screen.items  # type: ignore[attr-defined]
        for key in table.rows:
            words = notification_cause(items[key.value]).words
            cell = str(table.get_cell(key, "cause"))
            assert cell == clip(words, len(cell)) and len(cell) >= 20, (cell, words)
        strip = app.screen.query_one("#activity-cause", Static)
        row = next(
            n
            for n, key in enumerate(table.rows)
            if items[key.value].transaction_id == "txn-provider"
        )
        table.move_cursor(row=row)
        whole = "SMS: the provider refused it: Attempt to send to unsubscribed recipient"
        await until(pilot, lambda: whole in str(strip.content), what="the cause whole")
        assert 0 < strip.region.height <= 3 and strip.region.bottom <= 24, "on screen"
        await pilot.press("down")
        await until(pilot, lambda: whole not in str(strip.content), what="follows the cursor")

        await pilot.press("f")  # a subscriber's failed ones: read by a scan of its own
        await until(pilot, lambda: rows(app) == len(FAILED), what="failed only")
        await pilot.press("f", "c")  # all again, then the in-app channel
        await until(pilot, lambda: rows(app) == 2, what="in-app ones")
        await pilot.press("escape")
        await until(pilot, lambda: rows(app) == len(STORIES), what="filters cleared")
        # The bounce: the longest cause, wrapped in the timeline at 80 columns, never cut.
        bounce = next(k.value for k in table.rows if items[k.value].transaction_id == "txn-11")
        whole = notification_cause(items[bounce]).words
        assert len(whole) > 80
        table.move_cursor(row=list(table.rows).index(bounce))
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is timeline, what="the same timeline again")
        shown = app.screen.query_one(TimelineView)
        assert shown.region.width <= 80

        def drawn() -> list[str]:
            return [line_text(line) for line in shown.shown if line and line[-1][1] != JSON_LINE]

        def widest() -> int:
            return max(cells(line) for line in drawn())

        room = shown.scrollable_content_region.width
        await until(pilot, lambda: 0 < widest() <= room, what=f"wrapped to {room}")
        assert len(shown.shown) > len(shown.lines), "some line was wrapped"
        assert whole in " ".join(" ".join(drawn()).split()), "never cut"
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is activity, what="back to Activity")
        await go_to(pilot, "txn-no-email")  # from Activity
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, TimelineScreen) and "no email address" in timeline_text(app)
            ),
            what="its timeline",
        )
        # `i` from the timeline lands on the field its cause names; from Activity, on the
        # highlighted notification's subscriber.
        await pilot.press("i")
        await until(pilot, lambda: view(app) is not None, what="the subscriber view")
        assert row_key(app) == "email"
        await pilot.press("4")
        await until(pilot, lambda: app.screen is activity, what="activity")
        await pilot.press("i")
        await until(
            pilot,
            lambda: view(app) is not None and app.screen.sub_title == "Subscriber · jane",
            what="jane's data from Activity",
        )

        # The app holds the current subscriber (the view context): the inbox sets it as
        # it opens one, and Activity, built already, and the timeline follow it. (`5`
        # reads it as it is pressed: tests/tui/test_preferences.py opens Ada's.)
        await pilot.press("1")
        await until(pilot, lambda: app.screen is inbox, what="the inbox")
        app.open_subscriber("joe")
        await until(pilot, lambda: app.context.subscriber.value == "joe", what="joe current")
        await pilot.press("4")
        await until(
            pilot,
            lambda: (
                rows(app) >= 1 and app.screen.subscriber_id == "joe"  # type: ignore[attr-defined]
            ),
            what="joe's activity",
        )
        assert app.screen is activity and rows(app) < len(STORIES)
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is timeline, what="joe's timeline")
        assert app.screen.context is app.context, "the timeline is handed the view context"
        await pilot.press("1")  # the timeline's `1` leaves it for the inbox
        await until(pilot, lambda: app.screen is inbox, what="the timeline's 1")
        assert not notices.saying("Bug")


async def test_a_highlight_a_title_or_a_focus_draws_what_changed_not_the_whole_screen(
    delivered: Service,
) -> None:
    """Moving Activity's cursor, a new title or sub-title, a focus lost: each is drawn
    where it changed. (Each drew the whole screen again: Textual repaints the screen
    when one of its reactives, or the app's title, changes.)"""
    from inboxdesk.private_apis import draw_frame, layout_pending

    app = app_for(delivered)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("4")
        await until(
            pilot,
            lambda: rows(app) >= 2 and not layout_pending(app.screen),
            what="Activity, its rows drawn",
        )
        screen = app.screen
        assert isinstance(screen, ActivityScreen)
        first = screen.highlighted

        async def whole_screen_drawn() -> bool:
            await pilot.pause()
            return draw_frame(app)

        screen.query_one(ActivityTable).move_cursor(row=1)
        assert not await whole_screen_drawn(), "a new highlight"
        assert screen.highlighted not in (None, first)
        app.title = "inboxdesk · another title"
        assert not await whole_screen_drawn(), "the app's title"
        screen.sub_title = "another sub-title"
        assert not await whole_screen_drawn(), "the screen's sub-title"
        assert screen.focused is not None
        screen.set_focus(None)
        assert not await whole_screen_drawn(), "the focus lost"
        screen.refresh()
        assert await whole_screen_drawn(), "the screen asked to repaint: all of it"


def test_help_is_titled_for_the_view_below() -> None:
    """The App's Help titles itself by the id of the screen it opens over (`title_of`);
    the walks check each view's screen id."""
    views = ("activity", "preferences", "timeline", "subscriber", "inbox", "history")
    assert [title_of(name) for name in views] == [
        "Activity",
        "Preferences",
        "Timeline",
        "Subscriber",
        "Inbox",
        "History",
    ]
    assert title_of(None) == title_of("no-such-view") == "inboxdesk"


DEMO_KEY = "activity-prefs-key-0123456789"
CONTEXT = "tenant:acme-eu"
COMMENT = "Comment on your post"


@functools.cache
def ada_s_demo() -> dict[str, Any]:
    """The demo as Ada sees it (never change it): every environment, workflow,
    integration, subscriber and preference of the demo, and Ada's notifications and
    messages alone. Her views read nothing of the others', and it loads in a tenth of
    a second, where the whole demo takes two."""
    demo = demo_at()  # the run's one demo, at the app tests' NOW
    ada_s = [
        {
            **environment,
            "notifications": [
                n for n in environment["notifications"] if n["subscriberId"] == "ada.lovelace"
            ],
            "messages": [m for m in environment["messages"] if m["subscriberId"] == "ada.lovelace"],
        }
        for environment in demo["environments"]
    ]
    return {**demo, "environments": ada_s}


def _stories() -> dict[str, str]:
    """Ada's stories in the demo: what each is called, and its transactionId."""
    development = ada_s_demo()["environments"][0]
    return {
        n["payload"]["story"]: n["transactionId"]
        for n in development["notifications"]
        if n["subscriberId"] == "ada.lovelace" and "story" in n["payload"]
    }


async def timeline_of(service: Service, transaction: str) -> str:
    """The lines of the timeline of Ada's notification `transaction`, read from the
    service as the timeline reads them."""
    async with InboxClient(service.url, DEMO_KEY) as client:
        found = ActivityFilter(subscriber_ids=["ada.lovelace"], transaction_ids=[transaction])
        (notification,) = (await client.activity(found, limit=50)).data
    return "\n".join(line_text(line) for line in lines(notification))


async def _txn(pilot: Pilot[None], transaction: str, words: str) -> None:
    """`:txn` to a notification's timeline, which says `words`."""
    await ran(pilot, f":txn {transaction}")
    await until(
        pilot,
        lambda: isinstance(pilot.app.screen, TimelineScreen) and words in timeline_text(pilot.app),
        what=words,
    )


async def test_ada_s_preference_stories_in_the_demo_open_preferences_on_their_cell(
    make_service: ServiceFactory, notices: Notices
) -> None:
    """One walk of Ada's stories in the demo (context preferences on). Her canceled
    email: from its Activity row, and from its timeline, `5` opens Preferences with the
    cursor on that workflow's email cell. Her deploy's timeline names the topic that let
    it through. Her tenant's comment: `:txn` opens its timeline, whose `5` opens
    Preferences on that context, beside the no-context choice; a change there is asked
    (pushed within the mode) as the context's and written to its records alone; `c`
    switches to no context, refuses a key not type:id, and back. Her topic subscriptions
    read as the Subscriber view reads them."""
    from inboxdesk.tui.preferences.context_picker import ContextPicker
    from inboxdesk.tui.preferences.grid import PreferenceGrid
    from inboxdesk.tui.preferences.screen import PreferencesScreen

    service = make_service(ada_s_demo(), context_preferences=True)
    env = next(r for r in service.store.environments() if r["name"] == "Development")
    service.store.add_api_key(env["id"], DEMO_KEY)
    stories = _stories()
    app = app_for(service, key=DEMO_KEY, subscriber="ada.lovelace")

    def prefs() -> PreferencesScreen | None:
        screen = app.screen
        ok = isinstance(screen, PreferencesScreen) and screen.table is not None
        return screen if ok else None

    def on_cell() -> str:
        screen = prefs()
        return "" if screen is None else plain(screen.query_one("#preference-cell", Static))

    def comment_email(context: tuple[str, ...] = ()) -> bool:
        with service.http(DEMO_KEY) as http:
            path = "/v2/subscribers/ada.lovelace/preferences"
            body = http.get(path, params=[("contextKeys", k) for k in context]).json()["data"]
        (found,) = [w for w in body["workflows"] if w["workflow"]["name"] == COMMENT]
        return bool(found["channels"]["email"])

    def comment_cell() -> str:
        screen = prefs()
        assert screen is not None
        grid = screen.query_one(PreferenceGrid)
        row = next(k.value for k in grid.rows if COMMENT in str(grid.get_cell(k, "workflow")))
        return str(grid.get_cell(row, "email"))

    async with app.run_test(size=SIZE, message_hook=notices.hook) as pilot:
        await until(pilot, lambda: app.screen.id == "inbox", what="the inbox")
        await pilot.press("4")
        await until(pilot, lambda: rows(app) > 0 and "turned email off" in " ".join(causes(app)))
        row = next(n for n, c in enumerate(causes(app)) if "turned email off for" in c)
        workflow = causes(app)[row].split("'")[1]
        # Help titles itself by the screen's id: test_help_is_titled_for_the_view_below.
        assert app.screen.id == "activity"
        # (A row no preference decided has no cell to open on:
        # test_each_timeline_says_its_story_made_safe_and_masked.)
        table = app.screen.query_one(ActivityTable)
        table.move_cursor(row=row)
        await pilot.press("5")  # from its Activity row
        await until(pilot, lambda: on_cell().startswith(f"{workflow} · email: off"))
        assert app.screen.id == "preferences"
        await pilot.press("4")
        await until(pilot, lambda: isinstance(app.screen, ActivityScreen), what="Activity")
        table.move_cursor(row=row)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), what="timeline")
        # Decision 126: when the workflow's choices last changed, against the notification.
        await until(pilot, lambda: "last changed on" in timeline_text(app), what="when")
        await pilot.press("5")  # from its timeline
        await until(pilot, lambda: "This workflow's choices last changed on" in on_cell())
        assert on_cell().startswith(f"{workflow} · email: off")

        # The deploy's timeline names the topic and the subscription that let it
        # through (as its lines read from the service; a timeline's lines drawn: above).
        deploy = await timeline_of(service, stories["Deploy of Atlas, through the deploys topic"])
        assert "came through topic deploys; subscription ada-deploys let it through" in deploy

        # Her tenant's comment. (Her quiet hours' stories, skipped and held, in words:
        # tests/server/test_demo_quiet_hours.py; a timeline draws every job's cause.)
        await _txn(
            pilot,
            stories["Comment email canceled by Ada's preference for tenant acme-eu"],
            "decided by this context's preferences where your organization has context "
            "preferences on, else by the no-context ones: 5 shows both",
        )
        assert f"     context  {CONTEXT}" in timeline_text(app)
        await pilot.press("5")
        await until(pilot, lambda: on_cell().startswith(f"{COMMENT} · email"), what="her cell")
        screen = prefs()
        assert screen is not None and screen.context_keys == (CONTEXT,)
        assert f"ada.lovelace · context {CONTEXT}" in (screen.sub_title or "")
        title = plain(screen.query_one("#preference-title", Static)).strip()
        assert title == f"Preferences of ada.lovelace · context {CONTEXT}"
        beside = plain(screen.query_one("#preference-context", Static))
        assert "context records apply only where your organization has context" in beside
        assert f"{COMMENT} · email: OFF here, on without a context" in beside
        assert comment_cell() == "OFF *"
        await pilot.press("space")  # the change goes to the context's records
        await until(pilot, lambda: isinstance(app.screen, PreferenceConfirm), what="asks")
        # A question is pushed within the current mode, over its view.
        assert app.current_mode == "preferences" and app.screen_stack == [screen, app.screen]
        asked = plain(app.screen.query_one("#question", Static))
        assert f"in context {CONTEXT}?" in asked
        await pilot.press("y")
        await until(pilot, lambda: comment_email((CONTEXT,)), what="written")
        await until(pilot, lambda: prefs() is not None and comment_cell() == "on *")
        assert comment_email(), "the no-context record as it was"

        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ContextPicker), what="the picker")
        await pilot.press("enter")  # the first choice: no context
        await until(pilot, lambda: prefs() is not None and screen.context_keys == ())
        assert "context" not in (screen.sub_title or "")
        assert screen.query_one("#preference-context").has_class("-none")
        await pilot.press("c")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, ContextPicker)
                and bool(app.screen.query_one("#context-input").region)
            ),
            what="the picker, laid out where it is clicked",
        )
        await pilot.click("#context-input")
        await pilot.press(*"acme", "enter")  # not type:id: said, nothing switched
        error = app.screen.query_one("#context-error", Static)
        await until(pilot, lambda: "is not a context key" in plain(error))
        app.screen.query_one("#context-input", Input).value = CONTEXT
        await pilot.press("enter")
        await until(pilot, lambda: prefs() is not None and screen.context_keys == (CONTEXT,))
        assert comment_cell() == "on *"

        # Her topic subscriptions, as the Subscriber view reads them (their words:
        # tests/tui/test_topics.py; the view lists them: tests/tui/test_subscriber_view.py).
        async with InboxClient(service.url, DEMO_KEY) as client:
            topics = await read_subscriptions(client, "ada.lovelace")
        shown = {key: f"{label} {words}" for key, label, words in topics.rows()}
        assert (
            "2 subscriptions · one that filtered a notification leaves no trace"
            in (shown["topics"])
        )
        invoices = next(k for k, words in shown.items() if "ada-invoices-eu" in words)
        assert "Invoice ready: passes only when payload.amount > 1000" in shown[invoices]
        assert NO_TRACE in " ".join(topics.said(invoices).split())
