"""A strip of auto height redrawn in place: `update_in_place` asks for a layout of the
screen only when the new content is not as tall as the old (the Activity view's cause
under the cursor and its state line; the detail pane's title and body)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from inboxdesk.tui.widgets.in_place import update_in_place


class Strip(Static):
    """Keeps whether each refresh asked for a layout."""

    DEFAULT_CSS = "Strip { height: auto; max-height: 3; }"

    def __init__(self) -> None:
        super().__init__("one line")
        self.layouts: list[bool] = []

    def refresh(self, *regions: object, layout: bool = False, **kwargs: bool) -> Strip:
        self.layouts.append(layout)
        return super().refresh(*regions, layout=layout, **kwargs)  # type: ignore[arg-type]


async def test_a_strip_as_tall_as_before_is_redrawn_without_a_layout() -> None:
    class Strips(App[None]):
        def compose(self) -> ComposeResult:
            yield Strip()

    app = Strips()
    async with app.run_test(size=(40, 10)) as pilot:
        strip = app.query_one(Strip)
        await pilot.pause()
        strip.layouts.clear()
        update_in_place(strip, Text("another line", style="red"))
        assert strip.layouts == [False], "as tall: drawn in place"
        await pilot.pause()
        assert strip.content == Text("another line", style="red"), "the content it was given"
        update_in_place(strip, "a line long enough to wrap over two lines of forty cells")
        assert strip.layouts[-1] is True, "taller: laid out"
        await pilot.pause()
        assert strip.size.height == 2
        update_in_place(strip, "")
        assert strip.layouts[-1] is True, "shorter: laid out"
        await pilot.pause()
        assert strip.size.height == 1
        update_in_place(strip, "")
        assert strip.layouts[-1] is False
