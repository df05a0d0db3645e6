"""What the two views share: the width breakpoint, the detail toggle, the key names.

Both views get the screen class `-narrow` below `NARROW_BELOW` columns (Textual's
breakpoints); `inboxdesk.tcss` then moves the detail pane below the list. `v` hides or
shows the detail pane in any width (the class `-no-detail`).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.screen import Screen

from inboxdesk.text import clip
from inboxdesk.tui.screens.shown_again import ShownAgain

if TYPE_CHECKING:
    from inboxdesk.tui.context import ViewContext

TITLE_CELLS = 60
# Below this many columns the list takes the whole width and the detail pane goes below.
NARROW_BELOW = 120


class ServiceScreen(ShownAgain, Screen[None]):
    """What every view shares; each view is one screen that holds its own parts."""

    context: ViewContext  # what every view is handed when it is built

    HORIZONTAL_BREAKPOINTS = [
        (0, "-narrow"),
        (NARROW_BELOW, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "v",
            "toggle_detail",
            "Detail",
            show=False,
            id="view.toggle_detail",
            tooltip="Hide or show the detail pane",
        ),
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        # Born with the breakpoint class of the app's width: its first Resize then
        # changes no class, and the whole screen is not styled again before its first
        # frame.
        with suppress(RuntimeError):  # made outside a running app: Resize sets it
            self.add_class(self.breakpoint(self.app.size.width), update=False)

    def breakpoint(self, width: int) -> str:
        """The width's breakpoint class."""
        return [name for least, name in self.HORIZONTAL_BREAKPOINTS if least <= width][-1]

    def on_resize(self, event: Resize) -> None:
        # A screen's first layout sends it a Resize to the size it was just laid out at
        # (`outer_size`), and Textual's handler would lay it out once more. Nothing
        # changes then, unless the width crossed a breakpoint meanwhile. A terminal's
        # resize differs from that size: laid out.
        if event.size == self.outer_size and self.has_class(self.breakpoint(event.size.width)):
            event.prevent_default()

    def validate_sub_title(self, sub_title: object) -> str | None:
        """The header shows a subscriber's or integration's name: one safe, short line."""
        return None if sub_title is None else clip(str(sub_title), TITLE_CELLS)

    def key_for(self, action: str) -> str:
        """The key an action of this view is bound to now (after the keymap)."""
        for active in self.active_bindings.values():
            if active.binding.action == action:
                return self.app.get_key_display(active.binding)
        return "?"

    def action_toggle_detail(self) -> None:
        self.toggle_class("-no-detail")

    def action_show_preferences(self) -> None:
        """Preferences (`5`) of the inbox's subscriber: the App opens them."""
        from inboxdesk.tui.messages import OpenPreferences

        self.post_message(OpenPreferences(None, None, None))

    def action_show_subscriber(self) -> None:
        """The Subscriber view (`6`, the inbox's `i`) of the inbox's subscriber."""
        from inboxdesk.tui.subscriber.keys import OpenSubscriberView

        self.post_message(OpenSubscriberView(None))

    def action_show_activity(self) -> None:
        """Activity (`4`): the inbox's subscriber's notifications on every channel."""
        from inboxdesk.tui.activity.opening import show_activity

        show_activity(self.context)  # every view holds its context
