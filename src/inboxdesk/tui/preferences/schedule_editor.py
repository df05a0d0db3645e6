"""The schedule editor (decision 92): a subscriber's open hours per weekday, in their
timezone, typed as `mon-fri 09:00-17:30; sat 10:00-12:00`, or `off`. A mistake is said
in the dialog and keeps what was typed; Enter saves, Escape leaves it unchanged."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from inboxdesk.schedule import NEVER_PAUSED, ScheduleError, parse_text, text_of
from inboxdesk.text import safe


class ScheduleEditor(ModalScreen[dict[str, Any] | None]):
    DEFAULT_CSS = """
    ScheduleEditor { align: center middle; }
    ScheduleEditor #dialog { width: 76; max-width: 100%; height: auto; padding: 1 2; }
    ScheduleEditor #schedule-problem { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding(
            "escape", "cancel", "Cancel", id="schedule_editor.cancel", tooltip="Change nothing"
        ),
    ]

    def __init__(self, subscriber_id: str, schedule: dict[str, Any] | None, zone: str) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.schedule = schedule
        self.zone = zone

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                Text(f"Quiet hours of {safe(self.subscriber_id, newlines=False)}", style="bold")
            )
            yield Static(
                Text(
                    f"Open hours per weekday, {self.zone}, 24-hour: `mon-fri 09:00-17:30; "
                    f"sat 10:00-12:00`, or `off`. Days not named are closed; {NEVER_PAUSED}. "
                    "Enter saves, Escape cancels."
                )
            )
            yield Input(text_of(self.schedule), id="schedule-text")
            yield Static(id="schedule-problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            wanted = parse_text(event.value)
        except ScheduleError as exc:
            self.query_one("#schedule-problem", Static).update(
                Text(safe(f"{exc}. Nothing was sent.", newlines=False))
            )
            return
        self.dismiss(wanted)

    def action_cancel(self) -> None:
        self.dismiss(None)
