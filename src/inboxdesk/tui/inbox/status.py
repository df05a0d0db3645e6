"""The inbox's status line: how many messages, the filter, the selection, the queue."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from inboxdesk.text import clip


@dataclass(frozen=True)
class Status:
    """What the status line shows."""

    answered: bool = False  # the first page came
    fetching: bool = False
    length: int = 0
    exact: bool = False  # `length` is the feed's true length, not a lower bound
    text: str = ""  # the text filter
    shown: int = 0  # rows the text filter shows
    selected: int = 0
    pending: int = 0  # messages of queued writes
    offline: bool = False
    retry_key: str = "?"  # the key that retries, said when the first page failed
    tab: str = ""  # the tab shown

    @property
    def failed(self) -> bool:
        """The first page failed (the app said why): not a spinner that never ends."""
        return not self.answered and not self.fetching


def status_text(status: Status) -> Text:
    text = Text()
    if status.tab:
        text.append(f"{status.tab}: ", style="bold")
    if status.failed:
        text.append(f"not loaded · {status.retry_key} retries", style="bold red")
    elif not status.answered:
        text.append("loading…", style="italic")
    elif status.exact:
        text.append(f"{status.length:,} message{'s' if status.length != 1 else ''}")
    else:
        # The service gives no total past the page size: a lower bound that grows.
        text.append(f"{status.length - 1:,}+ messages")
    if status.text:
        text.append(f" · filter “{clip(status.text, 30)}”: {status.shown} of loaded")
    if status.selected:
        text.append(f" · {status.selected} selected", style="bold magenta")
    if status.pending:
        text.append(f" · {status.pending} waiting to be sent (⧗)", style="bold yellow")
    if status.fetching and status.answered:
        text.append(" · loading…", style="italic")
    if status.offline:
        text.append(" · service unreachable, retrying", style="bold red")
    return text


class StatusLine(Static):
    """Redraws itself whenever the screen hands it a new `Status`."""

    status: reactive[Status] = reactive(Status, layout=False, init=False)

    def watch_status(self, status: Status) -> None:
        # One line of fixed height: no layout pass (a full reflow costs tens of ms).
        self.update(status_text(status), layout=False)
