"""The question before a preference change: it changes future notifications only, and
the agent may stop being asked for the rest of the session."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Static

from inboxdesk.text import safe

# (change it, do not ask again this session)
Answer = tuple[bool, bool]


class PreferenceConfirm(ModalScreen[Answer]):
    DEFAULT_CSS = """
    PreferenceConfirm { align: center middle; }
    PreferenceConfirm #dialog { width: 70; max-width: 100%; height: auto; }
    PreferenceConfirm Checkbox { margin-top: 1; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="preference_confirm.yes", tooltip="Make the change"),
        Binding("n,escape", "answer(False)", "No", id="preference_confirm.no", tooltip="Cancel"),
        Binding(
            "a",
            "toggle_ask",
            "Don't ask again",
            id="preference_confirm.dont_ask",
            tooltip="Do not ask before preference changes for the rest of this session",
        ),
    ]

    def __init__(self, question: str, detail: str) -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(safe(self.question), style="bold"), id="question")
            yield Static(Text(safe(self.detail)), id="detail")
            yield Checkbox("Don't ask again this session (a)", id="dont-ask")
            with Horizontal(id="buttons"):
                yield Button("Change (y)", variant="warning", id="yes")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @property
    def dont_ask(self) -> bool:
        return self.query_one("#dont-ask", Checkbox).value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "yes")

    def action_toggle_ask(self) -> None:
        self.query_one("#dont-ask", Checkbox).toggle()

    def action_answer(self, yes: bool) -> None:
        self.dismiss((yes, yes and self.dont_ask))
