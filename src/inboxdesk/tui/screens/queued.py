"""Writes queued in an earlier session, offered at start: send, drop, or
keep them for later. Those older than the service's idempotency window are marked: the
service may apply them twice."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from inboxdesk.text import clip
from inboxdesk.tui.screens.confirm import ConfirmScreen
from inboxdesk.tui.screens.shown_again import ShownAgain
from inboxdesk.writes import IDEMPOTENCY_WINDOW_HOURS, Outbox, Write, describe, kind_of

SHOWN = 12


def age(made: datetime, now: datetime) -> str:
    minutes = max(0, int((now - made).total_seconds() // 60))
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 48 * 60:
        return f"{minutes // 60} h ago"
    return f"{minutes // (24 * 60)} days ago"


class QueuedWritesScreen(ModalScreen[str], ShownAgain):
    """Answers "send", "drop" or "later"."""

    BINDINGS = [
        Binding("s", "answer('send')", "Send", id="queued.send", tooltip="Send them now"),
        Binding("d", "answer('drop')", "Drop", id="queued.drop", tooltip="Drop them unsent"),
        Binding(
            "l,escape", "answer('later')", "Later", id="queued.later", tooltip="Keep them queued"
        ),
    ]

    def __init__(
        self,
        writes: list[Write],
        now: datetime,
        outbox: Outbox,
        send: Callable[[], object],
        read_only: str | None = None,
    ) -> None:
        super().__init__()
        self.writes = writes
        self.now = now
        self._answers: dict[str, Callable[[], object]] = {"send": send, "drop": self._drop}
        self._outbox = outbox
        # A read-only run lists them and offers neither send nor drop.
        self.read_only = read_only

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.read_only is None or parameters == ("later",)

    def compose(self) -> ComposeResult:
        count = len(self.writes)
        stale = [w for w in self.writes if w.stale(self.now)]
        lines = Text()
        for write in self.writes[:SHOWN]:
            mine = kind_of(write).subject == "subscriber"
            whose = f" of {clip(write.target, 30)}" if mine else ""
            lines.append(f"• {clip(describe(write), 60)}{whose} · {age(write.made_at, self.now)}")
            if write.stale(self.now):
                lines.append(f" · over {IDEMPOTENCY_WINDOW_HOURS} h old", style="bold red")
            lines.append("\n")
        if count > SHOWN:
            lines.append(f"… and {count - SHOWN} more\n")
        warning = (
            f"{len(stale)} of them are older than {IDEMPOTENCY_WINDOW_HOURS} hours: the "
            "service no longer knows their keys and may apply them twice."
            if stale
            else "Each is sent with the key it was first tried with, in order."
        )
        if self.read_only is not None:
            warning = (
                f"Read-only ({self.read_only}): they are listed, never sent, and kept for "
                "a session that may write."
            )
        with Vertical(id="dialog"):
            yield Static(
                Text(
                    f"{count} write{'s' if count != 1 else ''} from an earlier session "
                    "were not sent",
                    style="bold",
                ),
                id="question",
            )
            yield Static(lines, id="queued-list")
            yield Static(Text(warning), id="detail")
            with Horizontal(id="buttons"):
                if self.read_only is None:
                    yield Button("Send (s)", variant="warning", id="send")
                    yield Button("Drop (d)", id="drop")
                yield Button("Later (l)" if self.read_only is None else "Close (l)", id="later")

    def on_mount(self) -> None:
        self.query_one("#later", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id or "later")

    def read_only_as(self, reason: str | None) -> QueuedWritesScreen:
        """Listed only, never sent nor dropped, when `reason` (a read-only setting)."""
        self.read_only = reason
        return self

    def _drop(self) -> None:
        for write in self.writes:
            self._outbox.drop(write)

    def action_answer(self, choice: str) -> None:
        chosen = self._answers.get(choice) if self.read_only is None else None
        if chosen is not None:
            chosen()
        self.dismiss(choice)


def quit_question(queued: int) -> ConfirmScreen:
    """Asked before quitting with writes still queued: nothing is lost, but say so."""
    return ConfirmScreen(
        f"Quit with {queued} write{'s' if queued != 1 else ''} not sent?",
        "The service has been unreachable since they were made. They are kept, "
        "and offered when inboxdesk next starts with this profile.",
        "Quit",
    )
