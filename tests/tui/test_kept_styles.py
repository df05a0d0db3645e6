"""A screen resumed without a restyle still shows what the app's styles say.

`KeptStyles` (tui/screens/kept_styles.py) lets a resuming screen skip Textual's restyle
of the whole screen when nothing of the app changed since it was styled: the views and
the questions get it. What it must never skip: a change of the app's classes or theme
made while the screen was not shown. A bare app on two modes, no service needed.
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.events import ScreenResume
from textual.screen import Screen
from textual.widgets import Static

from inboxdesk.tui.screens.kept_styles import KeptStyles
from tests.waiting import until


class Recording(Screen[None]):
    """Records each resume as Screen's own handler, after KeptStyles's, reads it."""

    def __init__(self) -> None:
        super().__init__()
        self.resumes: list[bool] = []  # whether each resume was to restyle

    def compose(self) -> ComposeResult:
        yield Static("text")

    def on_screen_resume(self, event: ScreenResume) -> None:
        self.resumes.append(event.refresh_styles)


class Shown(KeptStyles, Recording):
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

        # Unchanged since: the second is restyled once (styled before the change), then
        # neither again, and both stay right.
        await app.switch_mode("two")
        await app.switch_mode("one")
        await app.switch_mode("two")
        await until(pilot, lambda: len(one.resumes) >= 3, what="the switches")
        assert isinstance(two, Shown)
        assert one.resumes[-1] is False and two.resumes[-2:] == [True, False], two.resumes
        assert colour(one) == colour(two) == (255, 0, 0)
