"""A start-up problem (no key, unreachable service, rejected key) and how to fix it."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from inboxdesk.text import safe
from inboxdesk.tui.widgets.app_footer import AppFooter


class ProblemScreen(Screen[None]):
    BINDINGS = [
        Binding("r", "app.connect", "Retry", id="problem.retry", tooltip="Try to connect again"),
        Binding("q", "quit", "Quit", id="problem.quit"),
    ]

    def __init__(self, title: str, message: str, hint: str = "", exit_code: int = 1) -> None:
        super().__init__()
        self.problem_title = title
        self.message = message
        self.hint = hint
        # Quitting here did not do what was asked: 2 for the settings, 1 for the service.
        self.exit_code = exit_code

    def action_quit(self) -> None:
        self.app.exit(return_code=self.exit_code)

    def compose(self) -> ComposeResult:
        # The message may quote the service's answer: plain, safe text.
        with Center(), Vertical(id="problem"):
            yield Static(Text(safe(self.problem_title), style="bold red"), id="problem-title")
            yield Static(Text(safe(self.message)), id="problem-message")
            if self.hint:
                yield Static(Text(f"\nWhat to do: {safe(self.hint)}"), id="problem-hint")
            yield Static(Text("\nPress r to retry, q to quit.", style="dim"))
        yield AppFooter()
