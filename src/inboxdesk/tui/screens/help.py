"""Every key that applies where help was asked for, grouped, with what it does.

Keys are read from the screen's active bindings, so a key moved by the keymap shows
where it is now. The app's own keys (they have ids) come first, grouped by the prefix of
their id; the keys Textual's widgets bring (arrows, copy) follow in a group of their own.
"""

from __future__ import annotations

from itertools import groupby

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from inboxdesk.tui.widgets.app_footer import declared_order

LEGEND = "Markers: ✔ selected   ● unread   ◌ unseen   ★ primary integration"
CLOSE = "Esc (or ?, F1, q) closes this help."
# Group titles by binding id prefix, in the order shown.
GROUPS = {
    "inbox": "Inbox",
    "integrations": "Integrations",
    "view": "Panes",
    "list": "Moving in lists",
    "app": "Everywhere",
}
GENERIC = "Textual's own"
GENERIC_NOTE = "Textual's own keys have no binding id: the keymap cannot move them."


def _group(active: ActiveBinding) -> str:
    binding_id = active.binding.id
    return GROUPS.get(binding_id.split(".")[0], "Other") if binding_id else GENERIC


def key_table(screen: Screen[object]) -> Table:
    """The screen's active bindings (after the keymap), including those greyed out."""
    table = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    table.add_column("Key", style="bold cyan", no_wrap=True)
    table.add_column("Does")
    table.add_column("Binding id", style="dim")
    table.add_column("Note", style="dim")
    groups = [*GROUPS.values(), "Other", GENERIC]
    declared = declared_order(screen)
    shown = [a for a in screen.active_bindings.values() if a.binding.description]
    # Groups in a fixed order; within one, as declared, wherever the keymap moved a key.
    shown.sort(key=lambda a: (groups.index(_group(a)), declared.get(a.binding.action, 999)))
    for group, members in groupby(shown, key=_group):
        table.add_row(Text(""), Text(group, style="bold underline"))
        # One line per binding: its keys together (`^r, f5`); a generic key bound by a
        # widget and by the screen alike is listed once.
        lines: dict[tuple[str, str], tuple[list[str], ActiveBinding]] = {}
        for active in members:
            binding = active.binding
            line = lines.setdefault(
                (binding.id or binding.action, binding.description), ([], active)
            )
            label = screen.app.get_key_display(binding)
            if label not in line[0]:
                line[0].append(label)
        for labels, active in lines.values():
            binding = active.binding
            note = active.tooltip or binding.tooltip
            if not active.enabled:
                note = f"(not available now) {note}"
            table.add_row(
                Text(", ".join(labels)),
                Text(binding.description),
                Text(binding.id or ""),
                Text(note),
            )
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="help.close")]

    def __init__(self, of: Screen[object], title: str) -> None:
        super().__init__()
        self.of = of
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            heading = Text(f"{self.title_text} — keys", style="bold")
            heading.append(f"    {CLOSE}", style="italic")
            yield Static(heading, id="help-title")
            yield Static(key_table(self.of), id="help-keys")
            yield Static(
                Text(
                    f"\n{LEGEND}\n{GENERIC_NOTE}\nCtrl+P opens the command palette: every action, "
                    "and jumping to a subscriber or integration.\n"
                    "Keys can be changed in the config file: "
                    "inboxdesk config set app.keymap.<id> <key>.",
                    style="dim",
                )
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
