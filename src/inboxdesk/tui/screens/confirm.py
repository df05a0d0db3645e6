"""Questions in a modal: yes or no, or a name to type before a switch elsewhere."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from inboxdesk.text import safe
from inboxdesk.tui.screens.shown_again import ShownAgain


class ConfirmScreen(ModalScreen[bool], ShownAgain):
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes", tooltip="Confirm"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no", tooltip="Cancel"),
    ]

    def __init__(self, question: str, detail: str, confirm_label: str = "Confirm") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        # Both may name things from the wire (an integration's name): plain, safe text.
        with Vertical(id="dialog"):
            yield Static(Text(safe(self.question), style="bold"), id="question")
            yield Static(Text(safe(self.detail)), id="detail")
            with Horizontal(id="buttons"):
                yield Button(f"{self.confirm_label} (y)", variant="warning", id="yes")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TypedConfirmScreen(ModalScreen[bool], ShownAgain):
    """A question answered by typing a name, e.g. the environment a switch acts in when
    it is not the API key's own. Escape cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="confirm.cancel", tooltip="Cancel"),
    ]

    def __init__(
        self, question: str, detail: str, prompt: str, accepts: Callable[[str], bool]
    ) -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.prompt = prompt
        self.accepts = accepts

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(safe(self.question), style="bold"), id="question")
            yield Static(Text(safe(self.detail)), id="detail")
            yield Static(Text(safe(self.prompt)), id="prompt")
            yield Input(id="typed")
            yield Static("", id="mismatch")

    def on_mount(self) -> None:
        self.query_one("#typed", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.accepts(event.value):
            self.dismiss(True)
            return
        self.query_one("#mismatch", Static).update(
            Text("That is not the environment's name; nothing changed yet.", style="bold red")
        )

    def action_cancel(self) -> None:
        self.dismiss(False)
