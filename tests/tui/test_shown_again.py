"""A screen resumed without a restyle still shows what the app's styles say.

`ShownAgain` (tui/screens/shown_again.py) lets a resuming screen skip Textual's restyle
of the whole screen when nothing of the app changed since it was styled: the views and
the questions get it. What it must never skip: a change of the app's classes or theme
made while the screen was not shown. A bare app on two modes, no service needed.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.events import ScreenResume
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from inboxdesk.private_apis import layout_pending
from inboxdesk.tui.screens.shown_again import ShownAgain
from tests.waiting import until


class Recording(Screen[None]):
    """Keeps each resume; read once handled, it says whether the screen was restyled
    (ShownAgain's handler, after this one, may have turned that off)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[ScreenResume] = []

    @property
    def resumes(self) -> list[bool]:
        return [event.refresh_styles for event in self.events]

    def compose(self) -> ComposeResult:
        yield Static("text")

    def on_screen_resume(self, event: ScreenResume) -> None:
        self.events.append(event)


class Shown(Recording, ShownAgain):
    pass


class TwoModes(App[None]):
    CSS = """
    Static { color: rgb(0, 0, 255); }
    App.-marked Static { color: rgb(255, 0, 0); }
    """
    MODES: dict[str, Any] = {"one": Shown, "two": Shown}

    def on_mount(self) -> None:
        self.switch_mode("one")


def colour(screen: Screen[Any]) -> tuple[int, int, int]:
    return screen.query_one(Static).styles.color.rgb


async def test_a_view_resumed_unchanged_is_not_restyled_and_a_changed_app_restyles_it() -> None:
    app = TwoModes()
    async with app.run_test() as pilot:
        await until(pilot, lambda: isinstance(app.screen, Shown), what="the first mode")
        one = app.screen
        assert isinstance(one, Shown)
        await until(pilot, lambda: one.resumes != [], what="its resume")
        # Styled as it mounted: the two resumes of a mode's start restyle nothing.
        assert colour(one) == (0, 0, 255) and not any(one.resumes), one.resumes

        await app.switch_mode("two")
        two = app.screen
        await until(pilot, lambda: colour(two) == (0, 0, 255), what="the second mode")
        app.add_class("-marked")  # while the first mode is not shown
        await until(pilot, lambda: colour(two) == (255, 0, 0), what="the shown one restyled")
        assert colour(one) == (0, 0, 255), "Textual restyles only the screens shown"

        await app.switch_mode("one")
        await until(pilot, lambda: colour(one) == (255, 0, 0), what="restyled on resuming")
        assert one.resumes[-1] is True

        # Unchanged since: neither is restyled again (the second was shown when the app
        # changed, so it left styled for it), and both stay right.
        await app.switch_mode("two")
        await app.switch_mode("one")
        await app.switch_mode("two")
        await until(pilot, lambda: len(one.resumes) >= 3, what="the switches")
        assert isinstance(two, Shown)
        assert one.resumes[-1] is False and two.resumes[-2:] == [False, False], two.resumes
        assert colour(one) == colour(two) == (255, 0, 0)


async def test_a_change_of_the_app_undone_while_a_view_is_hidden_restyles_it() -> None:
    """Styled for a marked app while shown, then the mark removed while hidden: the view
    is restyled on resuming, though the app is as it was at the view's last resume."""
    app = TwoModes()
    async with app.run_test() as pilot:
        await until(pilot, lambda: isinstance(app.screen, Shown), what="the first mode")
        one = app.screen
        for mode in ("two", "one"):
            await app.switch_mode(mode)
            await settled_frames(pilot)
        app.add_class("-marked")  # while the first mode is shown
        await until(pilot, lambda: colour(one) == (255, 0, 0), what="the shown one restyled")
        await app.switch_mode("two")
        await settled_frames(pilot)
        app.remove_class("-marked")  # while it is hidden
        await settled_frames(pilot)
        await app.switch_mode("one")
        await until(pilot, lambda: colour(one) == (0, 0, 255), what="restyled on resuming")
        assert one.resumes[-1] is True


async def settled_frames(pilot: Pilot[None]) -> None:
    """Until the app has made the layouts it was asked for: Textual holds every update
    back for 50 ms after a mode switch."""
    app = pilot.app
    await until(pilot, lambda: not layout_pending(app.screen), what="the layouts asked for")


def test_listed_before_another_screen_class_it_is_refused_as_it_would_hide_its_css() -> None:
    with pytest.raises(TypeError, match="after ModalScreen"):

        class Hiding(ShownAgain, ModalScreen[None]):
            pass

    class Question(ModalScreen[None], ShownAgain):
        pass

    # Textual's CSS chain follows the first base: ModalScreen's CSS (its see-through
    # background) is Question's.
    assert "ModalScreen" in Question._css_type_names


async def laid_out(pilot: Pilot[None], layouts: list[object]) -> None:
    """Until the layouts asked for are made, and a pause after the last brings none."""
    seen = -1
    while seen != len(layouts):
        seen = len(layouts)
        await settled_frames(pilot)
        await pilot.pause()


async def test_a_view_shown_again_is_laid_out_only_when_its_size_or_content_asks() -> None:
    app = TwoModes()
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Shown), what="the first mode")
        one = app.screen
        text = one.query_one(Static)
        await app.switch_mode("two")  # built (a mode's start restyles the app, laid out)
        await app.switch_mode("one")
        await until(pilot, lambda: text.region.height == 1, what="its first layout")
        layouts: list[object] = []
        one.screen_layout_refresh_signal.subscribe(one, layouts.append)
        await laid_out(pilot, layouts)  # what the start asked for
        layouts.clear()

        # Shown again as it was, five times: not laid out again. One layout the start
        # asked for may still come on a loaded machine; Textual lays out every switch.
        for _ in range(5):
            await app.switch_mode("two")
            await app.switch_mode("one")
            await laid_out(pilot, layouts)
        assert len(layouts) <= 1, f"shown again as it was, laid out {len(layouts)} times"

        await app.switch_mode("two")
        text.update("three\nlines\nnow")  # asks for a layout while hidden
        await app.switch_mode("one")
        await until(
            pilot,
            lambda: text.region.height == 3 and bool(layouts),
            what="laid out with its new text, and the layout signalled",
        )

        await app.switch_mode("two")
        await pilot.resize_terminal(50, 20)
        await app.switch_mode("one")
        await until(pilot, lambda: one.outer_size == (50, 20), what="laid out at the new size")
        assert text.region.width == 50
