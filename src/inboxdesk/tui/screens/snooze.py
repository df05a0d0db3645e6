"""Until when to snooze: a few presets and a typed time, shown in the local time zone.
A bad input is said in the modal, and nothing typed is lost. The bounds are the
command line's (snooze.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from inboxdesk.core.inbox.snooze import shown, snooze_end
from inboxdesk.text import safe
from inboxdesk.timeinput import TimeInputError, parse_when
from inboxdesk.tui.screens.shown_again import ShownAgain

PRESETS = ("1h", "3h", "tomorrow 09:00", "monday 09:00")
NAMES = {"1h": "in 1 hour", "3h": "in 3 hours"}


# What may be typed, besides ISO 8601: the placeholder and the hint name the same ones.
EXAMPLES = ("90m", "2h", "3d", "today 17:00", "tomorrow 09:00", "friday 17:00")


def hint(now: datetime) -> str:
    """The forms a time may take, the ISO one built from the clock (tomorrow 09:00)."""
    tomorrow = (now + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
    return f"ISO 8601 ({tomorrow.strftime('%Y-%m-%dT%H:%M')}), {', '.join(EXAMPLES)}"


class SnoozeScreen(ModalScreen[datetime | None], ShownAgain):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="snooze.cancel", tooltip="Do not snooze"),
    ]

    def __init__(self, count: int, clock: Callable[[], datetime]) -> None:
        super().__init__()
        self.count = count
        self.clock = clock

    def _now(self) -> datetime:
        return self.clock().astimezone()

    def compose(self) -> ComposeResult:
        now = self._now()
        noun = "message" if self.count == 1 else "messages"
        with Vertical(id="dialog"):
            yield Static(Text(f"Snooze {self.count:,} {noun} until…", style="bold"), id="question")
            yield OptionList(
                *(
                    Option(f"{NAMES.get(p, p)}  ({shown(parse_when(p, now, True))})", id=p)
                    for p in PRESETS
                ),
                id="presets",
            )
            typed = f"or type a time: {EXAMPLES[0]}, {EXAMPLES[1]}, {EXAMPLES[-1]}, ISO…"
            yield Input(placeholder=typed, id="typed")
            yield Static(
                Text(f"Times are local ({now.strftime('%Z')}). {hint(now)}.", style="dim"),
                id="hint",
            )
            yield Static(id="error")

    def on_mount(self) -> None:
        self.query_one("#presets", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option.id or "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._choose(event.value)

    def _choose(self, typed: str) -> None:
        try:
            moment = snooze_end(typed, self._now())
        except TimeInputError as exc:
            error = self.query_one("#error", Static)
            error.update(Text(safe(str(exc)), style="bold red"))
            return
        self.dismiss(moment)

    def action_cancel(self) -> None:
        self.dismiss(None)
