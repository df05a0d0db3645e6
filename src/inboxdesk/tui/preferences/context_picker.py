"""Choose the context whose preferences are shown: no context, one seen on the
subscriber's notifications, or one typed as `type:id` (decision 128)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from inboxdesk.core.preferences import context_words, parse_context
from inboxdesk.text import safe

NO_CONTEXT_ID = "-"


class ContextPicker(ModalScreen[tuple[str, ...] | None]):
    DEFAULT_CSS = """
    ContextPicker { align: center middle; }
    ContextPicker #context-dialog {
        width: 70; max-width: 100%; height: auto; max-height: 80%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    ContextPicker OptionList { height: auto; max-height: 12; }
    ContextPicker #context-error { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="context_picker.cancel", tooltip="Keep it"),
    ]

    def __init__(self, seen: Sequence[tuple[str, ...]], current: tuple[str, ...]) -> None:
        super().__init__()
        self.choices = [(), *dict.fromkeys(c for c in seen if c)]
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="context-dialog"):
            yield Static(
                Text(
                    "Show the preferences of which context? Choose one seen on the "
                    "subscriber's notifications, or type type:id (several: a,b) and Enter."
                )
            )
            yield Input(placeholder="tenant:acme", id="context-input")
            yield Static(id="context-error")
            yield OptionList(
                *(
                    Option(
                        Text(
                            safe(context_words(c), newlines=False)
                            + ("  (shown)" if c == self.current else "")
                        ),
                        id=",".join(c) or NO_CONTEXT_ID,
                    )
                    for c in self.choices
                ),
                id="context-list",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#context-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index])

    @on(Input.Submitted, "#context-input")
    def _typed(self, event: Input.Submitted) -> None:
        found = parse_context([event.value]) if event.value.strip() else ()
        if isinstance(found, str):
            self.query_one("#context-error", Static).update(Text(safe(found)))
            return
        self.dismiss(found)

    def action_cancel(self) -> None:
        self.dismiss(None)
