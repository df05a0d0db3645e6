"""A screen shown again is styled and laid out again only when something changed.

Textual lays a mode's screen out again whenever the mode is switched to, even at the
size it was last laid out at: a view's screen is laid out then only when its size
changed or a layout was asked for while it was hidden (`lays_out_when_needed`).

Textual restyles the whole screen (every widget, and each of a table's or the footer's
component classes) whenever a screen resumes: twice when a view's mode is first
entered (the mode's start, then the switch), once on every later switch and every
pushed question. The screen was styled as it mounted, and a change of a widget's
classes or state restyles that widget at once, shown or not; what a suspended screen
can miss is a change of the app's own classes, pseudo-classes (focus, dark, ansi…)
or theme, which Textual restyles on the screens shown at the time only. A screen with
this base is restyled on resuming when one of those changed since it was last styled,
which is when it was last resumed or, shown since, when the app stopped showing it.

Textual also repaints the whole screen, every widget drawn again, when its focus, title
or sub-title changes: a screen with this base draws only what changed (the header the
titles, the widgets their focus).
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import App
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

from inboxdesk.private_apis import lays_out_when_needed


def app_styles(app: App[Any]) -> tuple[object, ...]:
    """What of the app a screen's styles depend on beyond the screen itself."""
    return (app.theme, frozenset(app.classes), app.pseudo_classes)


@lays_out_when_needed
class ShownAgain(Screen[Any]):
    """A base of a screen: shown again, it is restyled and laid out only when needed.

    Textual inherits CSS along each class's first base alone: listed before another
    Screen subclass (`ModalScreen`), this would hide that one's CSS, so it is refused
    there; after it, or before `Screen` itself, it changes no style.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bases = cls.__bases__
        if ShownAgain in bases:
            later = bases[bases.index(ShownAgain) + 1 :]
            hidden = [b for b in later if issubclass(b, Screen) and b is not Screen]
            if hidden:
                raise TypeError(f"{cls.__name__}: list ShownAgain after {hidden[0].__name__}")

    # Without Textual's repaint of the whole screen (the module says why).
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    # The app's styles as of the screen's last styling; None until its first resume,
    # which comes just after it mounts, styled.
    _styled_for: tuple[object, ...] | None = None
    # Whether the app shows this screen, as the app last said of its screens.
    _app_shows_it = False

    @on(events.Mount)
    def _follow_the_app(self) -> None:
        # At once, not posted: the app may change its styles before this screen handles
        # its next message.
        self.app.screen_change_signal.subscribe(self, self._app_screen_changed, immediate=True)
        self._app_shows_it = self.app.screen is self

    def _app_screen_changed(self, screen: Screen[Any]) -> None:
        # Called as the app changes screens, before it handles anything else. Shown,
        # this screen followed every change of the app's styles (Textual restyles the
        # screen shown): it leaves styled for the app as it is at this moment.
        if self._app_shows_it and screen is not self:
            self._styled_for = app_styles(self.app)
        self._app_shows_it = screen is self

    @on(events.ScreenResume)
    def _styles_kept(self, event: events.ScreenResume) -> None:
        # Handlers run from the subclass to its bases: this one before Screen's own,
        # which restyles the whole screen when `refresh_styles` is set.
        if not event.refresh_styles:
            return  # as Textual leaves it (a screen shown again as another is popped)
        now = app_styles(self.app)
        if self._styled_for in (None, now):
            event.refresh_styles = False
        self._styled_for = now
