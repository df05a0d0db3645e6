"""Every key that applies where help was asked for, grouped, with what it does.

Keys are read from the screen's active bindings, so a key moved by the keymap shows
where it is now. The app's own keys (they have ids) come first, grouped by the prefix of
their id; the keys Textual's widgets bring (arrows, copy) follow in a group of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from inboxdesk.tui.screens.shown_again import ShownAgain
from inboxdesk.tui.widgets.app_footer import declared_order
from inboxdesk.tui.widgets.drawn_once import DrawnOnce

LEGEND = (
    "Markers: ✔ selected   ● unread   ◌ unseen   ▣ archived   ☾ snoozed   "
    "★ primary integration\n"
    "         ⧗ a write of this row is waiting to be sent, or for the service's answer"
)
# Below this width the note goes under what a key does, so that binding ids (what
# `config set app.keymap.<id>` takes) are never cut.
WIDE = 110
# What a key's one-line tooltip cannot say, by binding id; {key} is where the keymap
# put it now, {other} " (key)" of the binding id that follows, when this view has it.
NOTES: dict[str, tuple[str, str | None]] = {
    "inbox.select_all": (
        "{key} selects the loaded messages that the filter shows, not the whole inbox: "
        "rows not loaded yet are left out.",
        None,
    ),
    "inbox.undo": (
        "{key} undoes this session's writes here, newest first: the newest mark, archive "
        "or snooze of this subscriber, and pressed again the one before (there is no "
        "redo). History{other} undoes any write, from any session.",
        "inbox.history",
    ),
}
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


@dataclass(frozen=True)
class Line:
    """One binding of the help: its keys, what it does, its id and the note."""

    keys: str
    does: str
    binding_id: str
    note: str


def key_lines(screen: Screen[object]) -> list[Line | str]:
    """The screen's active bindings (after the keymap), including those greyed out,
    each group preceded by its title."""
    groups = [*GROUPS.values(), "Other", GENERIC]
    declared = declared_order(screen)
    shown = [a for a in screen.active_bindings.values() if a.binding.description]
    # Groups in a fixed order; within one, as declared, wherever the keymap moved a key.
    shown.sort(key=lambda a: (groups.index(_group(a)), declared.get(a.binding.action, 999)))
    out: list[Line | str] = []
    for group, members in groupby(shown, key=_group):
        out.append(group)
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
            out.append(Line(", ".join(labels), binding.description, binding.id or "", note))
    return out


@dataclass(frozen=True)
class KeyTable:
    """The help's table, laid out for the width it is drawn at: four columns when wide,
    else the note under what the key does; binding ids are never wrapped or cut. Help
    shows it drawn once per width (`DrawnOnce`): laying out this many rows to measure
    and again to draw took most of the time help took to open."""

    lines: list[Line | str]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._table(options.max_width >= WIDE)

    def _table(self, wide: bool) -> Table:
        ids = max(
            (len(line.binding_id) for line in self.lines if isinstance(line, Line)), default=0
        )
        table = Table(box=None, padding=(0, 2), show_header=True, header_style="bold", expand=True)
        table.add_column("Key", style="bold cyan", no_wrap=True)
        table.add_column("Does")
        table.add_column("Binding id", style="dim", no_wrap=True, width=ids)
        if wide:
            table.add_column("Note", style="dim")
        for line in self.lines:
            if isinstance(line, str):
                # Styled as a span, not the cell: the column's padding stays plain.
                table.add_row(Text(""), Text.assemble((line, "bold underline")))
                continue
            does = Text(line.does)
            if not wide and line.note:
                does.append(f"\n{line.note}", style="dim")
            cells = [Text(line.keys), does, Text(line.binding_id)]
            table.add_row(*cells, *([Text(line.note)] if wide else []))
        return table


def key_table(screen: Screen[object]) -> KeyTable:
    return KeyTable(key_lines(screen))


def notes(screen: Screen[object]) -> list[str]:
    """NOTES of the bindings this screen has, with their keys as the keymap put them."""
    keys: dict[str, str] = {}
    for active in screen.active_bindings.values():
        if active.binding.id:
            keys.setdefault(active.binding.id, screen.app.get_key_display(active.binding))
    out = []
    for binding_id, (note, other) in NOTES.items():
        if binding_id in keys:
            known = keys.get(other or "")
            out.append(note.format(key=keys[binding_id], other=f" ({known})" if known else ""))
    return out


class HelpScreen(ModalScreen[None], ShownAgain):
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
            keys = Static(id="help-keys")
            keys.update(DrawnOnce(keys, key_table(self.of)))
            yield keys
            if explained := notes(self.of):
                yield Static(Text("\n" + "\n".join(explained)), id="help-notes")
            yield Static(
                Text(
                    f"\n{LEGEND}\n{GENERIC_NOTE}\n"
                    "Ctrl+P opens the command palette: every action, and jumping to a "
                    "subscriber or integration.\n"
                    "Keys can be changed in the config file: "
                    "inboxdesk config set app.keymap.<id> <key>.",
                    style="dim",
                )
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
