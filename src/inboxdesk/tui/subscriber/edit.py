"""The forms of the Subscriber view: one field, with its value before and decision
115's checks; and a token or webhook URL, typed unseen."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from inboxdesk.models.subscriber_edit import check_fields
from inboxdesk.text import safe

# What a form answers: the value to send (None clears), or nothing (cancelled).
UNCHANGED = object()


def shown_value(name: str, value: Any) -> str:
    if value is None:
        return "(none)"
    if name == "data":
        return json.dumps(value)
    return str(value)


class EditField(ModalScreen[object]):
    """One field: its value before, an input, and what the checks say. Enter sends
    (a warning is said first, and a second Enter sends all the same); Escape cancels."""

    DEFAULT_CSS = """
    EditField { align: center middle; }
    EditField #dialog { width: 72; max-width: 100%; height: auto; border: round $accent;
        padding: 0 1; background: $surface; }
    EditField #field-said { color: $warning; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="subscriber_edit.cancel", tooltip="Cancel"),
    ]

    def __init__(self, subscriber_id: str, name: str, before: Any) -> None:
        super().__init__()
        self.subscriber_id = subscriber_id
        self.name_ = name
        self.before = before
        self.warned: object = UNCHANGED  # the value a warning was said for
        # The value now, as the box shows it: made safe (a control character from the
        # wire is shown escaped), and taken as "unchanged" if sent back as it is.
        before = "" if before is None else shown_value(name, before)
        self.prefilled = safe(before, newlines=False)

    def compose(self) -> ComposeResult:
        who = safe(self.subscriber_id, newlines=False)
        was = safe(shown_value(self.name_, self.before), newlines=False)
        with Vertical(id="dialog"):
            yield Static(Text(f"{self.name_} of {who}", style="bold"), id="field-title")
            yield Static(Text(f"Now: {was}"), id="field-before")
            yield Input(value=self.prefilled, id="field-input")
            yield Static(Text(""), id="field-said")
            yield Static(
                Text("Enter saves (undoable from History) · empty clears · Escape cancels"),
                id="field-help",
            )

    def on_mount(self) -> None:
        self.query_one("#field-input", Input).focus()

    def _say(self, words: str) -> None:
        self.query_one("#field-said", Static).update(Text(safe(words)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value == self.prefilled:
            self.dismiss(UNCHANGED)
            return
        text = event.value.strip()
        value: Any = text or None
        if self.name_ == "data" and text:
            try:
                value = json.loads(text)
            except ValueError:
                self._say("data must be a JSON object.")
                return
        if value == self.before:
            self.dismiss(UNCHANGED)
            return
        checked = check_fields({self.name_: value})
        if checked.refusals:
            self._say(" ".join(checked.refusals) + " Nothing was sent.")
            return
        if checked.warnings and self.warned != value:
            self.warned = value
            self._say(" ".join(checked.warnings) + " Enter again to save it all the same.")
            return
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(UNCHANGED)


class SecretField(ModalScreen[str]):
    """A token or webhook URL, typed unseen (never shown, copied or logged)."""

    DEFAULT_CSS = """
    SecretField { align: center middle; }
    SecretField #dialog { width: 72; max-width: 100%; height: auto; border: round $accent;
        padding: 0 1; background: $surface; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="subscriber_secret.cancel", tooltip="Cancel"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_ = title

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(safe(self.title_), style="bold"), id="secret-title")
            yield Input(password=True, id="secret-input")
            yield Static(Text("Enter saves (undoable from History) · Escape cancels"))

    def on_mount(self) -> None:
        self.query_one("#secret-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss("")


class TokenPicker(ModalScreen[int]):
    """Which device token to remove, each shown masked; answers its index, -1: none."""

    DEFAULT_CSS = """
    TokenPicker { align: center middle; }
    TokenPicker #dialog { width: 60; max-width: 100%; height: auto; border: round $accent;
        padding: 0 1; background: $surface; }
    TokenPicker OptionList { height: auto; max-height: 12; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="subscriber_token.cancel", tooltip="Cancel"),
    ]

    def __init__(self, title: str, masked: list[str]) -> None:
        super().__init__()
        self.title_ = title
        self.masked = masked

    def compose(self) -> ComposeResult:
        from textual.widgets import OptionList

        with Vertical(id="dialog"):
            yield Static(Text(safe(self.title_), style="bold"))
            yield OptionList(*(Text(m) for m in self.masked), id="token-list")
            yield Static(Text("Enter removes it (undoable from History) · Escape cancels"))

    def on_mount(self) -> None:
        from textual.widgets import OptionList

        self.query_one("#token-list", OptionList).focus()

    def on_option_list_option_selected(self, event: Any) -> None:
        self.dismiss(int(event.option_index))

    def action_cancel(self) -> None:
        self.dismiss(-1)
