"""Every key that applies where help was asked for, with what it does."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

LEGEND = "Markers: ✔ selected   ● unread   ◌ unseen   ★ primary integration"


def key_table(screen: Screen[object]) -> Table:
    """The screen's active bindings (after the keymap), including those greyed out."""
    table = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does")
    table.add_column("Binding id", style="dim")
    table.add_column("Note", style="dim")
    # The app's own keys (they have ids, so a keymap can move them) before Textual's.
    ordered = sorted(screen.active_bindings.values(), key=lambda a: a.binding.id is None)
    for active in ordered:
        binding = active.binding
        if not binding.description:
            continue
        note = active.tooltip or binding.tooltip
        if not active.enabled:
            note = f"(not available now) {note}"
        label = screen.app.get_key_display(binding)
        table.add_row(Text(label), Text(binding.description), Text(binding.id or ""), Text(note))
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close")]

    def __init__(self, of: Screen[object], title: str) -> None:
        super().__init__()
        self.of = of
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text(f"{self.title_text} — keys", style="bold"))
            yield Static(key_table(self.of))
            yield Static(
                Text(
                    f"\n{LEGEND}\nCtrl+P opens the command palette: every action, "
                    "and jumping to a subscriber or integration.\n"
                    "Keys can be changed in the config file: "
                    "inboxdesk config set app.keymap.<id> <key>.",
                    style="dim",
                )
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
