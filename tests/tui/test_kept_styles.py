"""A screen resumed without a restyle still shows what the app's styles say.

`KeptStyles` (tui/screens/kept_styles.py) lets a resuming screen skip Textual's restyle
of the whole screen when nothing of the app changed since it was styled: the views and
the questions get it. What it must never skip: a change of the app's classes or theme
made while the screen was not shown. A bare app on two modes, no service needed.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.events import ScreenResume
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from inboxdesk.tui.screens.kept_styles import KeptStyles
from tests.waiting import until


class Recording(Screen[None]):
    """Keeps each resume; read once handled, it says whether the screen was restyled
    (KeptStyles's handler, after this one, may have turned that off)."""

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


class Shown(Recording, KeptStyles):
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


def test_listed_before_another_screen_class_it_is_refused_as_it_would_hide_its_css() -> None:
    with pytest.raises(TypeError, match="after ModalScreen"):

        class Hiding(KeptStyles, ModalScreen[None]):
            pass

    class Question(ModalScreen[None], KeptStyles):
        pass

    # Textual's CSS chain follows the first base: ModalScreen's CSS (its see-through
    # background) is Question's.
    assert "ModalScreen" in Question._css_type_names
