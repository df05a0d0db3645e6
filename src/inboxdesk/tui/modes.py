"""The app's views, each a Textual mode: this is the one list of them.

A view is one entry here (its mode's name, which is its screen's id, its title in
help, how its screen is built) and its screen. The screen is built from the view
context the first time its mode is entered, with what it was opened to show; opened
again, it is told that instead (a message, or the timeline's `show`). Modal screens
(questions, pickers) are pushed within the current mode. An environment switch resets
every view's mode, so that each is built again with the new key on its next use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from inboxdesk.private_apis import styled_as_app

# The first frame's view, imported with the app (under the paused collector, entry.py).
from inboxdesk.tui.inbox.screen import InboxScreen
from inboxdesk.tui.messages import SubscribersListed
from inboxdesk.tui.screens.shown_again import ShownAgain

if TYPE_CHECKING:
    from inboxdesk.tui.context import ViewContext

INBOX = "inbox"
TIMELINE = "timeline"
# Shown while an environment switch resets the views' modes. Before the inbox opens the
# App's own screen ("connecting to …", Textual's default mode) shows.
SWITCHING = "switching"


def _posted(screen: Screen[Any], ask: object) -> None:
    if isinstance(ask, Message):
        screen.post_message(ask)


def _told(
    build: Callable[[ViewContext], Screen[Any]],
) -> Callable[[ViewContext, object], Screen[Any]]:
    """A screen built from the context alone, then told what to show as it mounts."""

    def built(context: ViewContext, ask: object) -> Screen[Any]:
        screen = build(context)
        _posted(screen, ask)  # queued: handled once the screen is mounted
        return screen

    return built


# Each other screen's module is imported when the screen is first built.


def _inbox(context: ViewContext, ask: object) -> Screen[Any]:
    assert isinstance(ask, SubscribersListed)  # the App opens it once connected
    return InboxScreen(ask.open or "", context, ask.first_page)


def _integrations(context: ViewContext) -> Screen[Any]:
    from inboxdesk.tui.integrations.screen import IntegrationsScreen

    return IntegrationsScreen(context)


def _history(context: ViewContext) -> Screen[Any]:
    from inboxdesk.tui.history.screen import HistoryScreen

    return HistoryScreen(context)


def _activity(context: ViewContext) -> Screen[Any]:
    from inboxdesk.tui.activity.screen import ActivityScreen

    return ActivityScreen(context)


def _preferences(context: ViewContext, ask: object) -> Screen[Any]:
    from inboxdesk.tui.preferences.messages import ShowPreferences
    from inboxdesk.tui.preferences.screen import PreferencesScreen

    assert isinstance(ask, ShowPreferences) and ask.subscriber_id  # open_preferences'
    return PreferencesScreen(context, ask.subscriber_id, ask.workflow, ask.channel, ask.context)


def _subscriber(context: ViewContext, ask: object) -> Screen[Any]:
    from inboxdesk.tui.subscriber.screen import ShowSubscriber, SubscriberScreen

    assert isinstance(ask, ShowSubscriber)  # open_subscriber_view's
    return SubscriberScreen(context, ask.subscriber_id, ask.field)


def _timeline(context: ViewContext, ask: object) -> Screen[Any]:
    from inboxdesk.models.delivery import ActivityNotification
    from inboxdesk.tui.activity.timeline import TimelineScreen

    assert isinstance(ask, ActivityNotification)  # show_timeline's
    return TimelineScreen(context, ask)


def _shown(screen: Screen[Any], ask: object) -> None:
    from inboxdesk.models.delivery import ActivityNotification
    from inboxdesk.tui.activity.timeline import TimelineScreen

    if isinstance(screen, TimelineScreen) and isinstance(ask, ActivityNotification):
        screen.show(ask)


@dataclass(frozen=True)
class View:
    name: str  # the mode's name and the screen's id
    title: str  # in help
    # The screen, from the view context and what it is first opened to show.
    build: Callable[[ViewContext, object], Screen[Any]]
    # How the built screen is told what to show when opened again.
    tell: Callable[[Screen[Any], object], None] = _posted


VIEWS = (
    View(INBOX, "Inbox", _inbox),
    View("integrations", "Integrations", _told(_integrations)),
    View("history", "History", _told(_history)),
    View("activity", "Activity", _told(_activity)),
    View(TIMELINE, "Timeline", _timeline, _shown),
    View("preferences", "Preferences", _preferences),
    View("subscriber", "Subscriber", _subscriber),
)
BY_NAME = {view.name: view for view in VIEWS}


def title_of(name: str | None) -> str:
    """A view's title in help (the app's name elsewhere)."""
    view = BY_NAME.get(name or "")
    return view.title if view is not None else "inboxdesk"


class Switching(ShownAgain, Screen[None]):
    """What shows while the views' modes are reset: a mode added on the first switch,
    so that start-up builds none (the first frame's mode is Textual's default)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("inboxdesk: switching environments…"), id="connecting")


class Views:
    """The views' modes of one App: added once, built on first use, reset on a switch."""

    def __init__(self, app: App[Any], context_of: Callable[[], ViewContext]) -> None:
        self.app = app
        self._context_of = context_of
        self._asked: dict[str, object] = {}  # what the mode being built was opened for
        self._switching = False  # whether the SWITCHING mode was added
        for view in VIEWS:
            app.add_mode(view.name, partial(self._build, view))

    def _build(self, view: View) -> Screen[Any]:
        return self._styled(view.build(self._context_of(), self._asked.pop(view.name, None)))

    def _styled(self, screen: Screen[Any]) -> Screen[Any]:
        """A mode's screen styled as it mounts, as a pushed screen is: entering the mode
        neither restyles the whole app nor reparses every stylesheet twice."""
        styled_as_app(screen, self.app)
        return screen

    def built(self, name: str) -> Screen[Any] | None:
        """The view's screen, if its mode was entered since the last reset."""
        try:
            return self.app.get_screen_stack(name)[0]
        except KeyError:
            return None

    def screens(self) -> list[Screen[Any]]:
        """Every screen of the views built, and of what is pushed over them."""
        found: list[Screen[Any]] = []
        for view in VIEWS:
            try:
                found += self.app.get_screen_stack(view.name)
            except KeyError:
                continue
        return found

    def start(self, listed: SubscribersListed) -> None:
        """The inbox, opened once connected, on the subscriber and first page found."""
        self.open(INBOX, listed)

    def open(self, name: str, ask: object = None) -> Screen[Any] | None:
        """Switch to the view's mode, and have its screen show `ask` (None: as it is).
        None, and nothing done, while the inbox is not open (not connected yet), or once
        the app is ending (a screen composed while it prunes them would crash)."""
        if self.app.return_code is not None:
            return None
        if self.built(INBOX) is None and not (name == INBOX and isinstance(ask, SubscribersListed)):
            return None
        screen = self.built(name)
        if screen is None:
            self._asked[name] = ask
            try:
                self.app.switch_mode(name)
            finally:
                self._asked.pop(name, None)
            return self.built(name)
        self.app.switch_mode(name)
        if ask is not None:
            BY_NAME[name].tell(screen, ask)
        return screen

    async def reset(self) -> None:
        """Every view's screen gone, built again on its next use (an environment
        switch); a screen that says so shows meanwhile."""
        if not self._switching:
            self._switching = True
            self.app.add_mode(SWITCHING, lambda: self._styled(Switching()))
        await self.app.switch_mode(SWITCHING)
        for view in VIEWS:
            await self.app.remove_mode(view.name)
            self.app.add_mode(view.name, partial(self._build, view))
