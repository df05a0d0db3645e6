"""Who the inbox belongs to, their unread/unseen counts, and where the app acts.

One line, filled by priority: the counts stay at every width from 80 columns, then
"read-only" if so, then the service's state, then the environment; the subscriber's
name and details give way first.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from inboxdesk.models import Count, Subscriber
from inboxdesk.text import clip

# One line: a 10,000-character name must not push the counts off-screen.
NAME_CELLS = 40
FIELD_CELLS = 32
GAP = "    "


def count_text(count: Count | None) -> str:
    """An exact count with separators (1,191); `99+` only when capped and unknown."""
    if count is None:
        return "…"
    if count.capped or count.odd:
        return str(count)
    return f"{count.value:,}"


@dataclass(frozen=True)
class HeaderState:
    """What the subscriber line shows."""

    subscriber: Subscriber | None
    subscriber_id: str
    unread: Count | None
    unseen: Count | None
    service: str = "online"  # online, reconnecting, offline: the service, not the person
    environment: str = ""
    note: str = ""  # what the source says of the service ("older service": no v2 inbox)
    read_only: bool = False  # no key writes: said right after the counts
    follow: str = ""  # "● live" or "⏸ paused" while following (the auto-refresh at 3 s)
    # The key that refreshes, while the last ask for the counts failed: those shown (if
    # any) are from before, and say so; "" while they are fresh.
    stale: str = ""


def _person(state: HeaderState) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    subscriber = state.subscriber
    if subscriber is None:
        text.append(clip(state.subscriber_id or "No subscriber", NAME_CELLS), style="bold")
        return text
    online = subscriber.is_online
    text.append("● " if online else "○ ", style="green" if online else "dim")
    text.append(clip(subscriber.display_name, NAME_CELLS), style="bold")
    if subscriber.email:
        text.append(f"  {clip(subscriber.email, FIELD_CELLS)}")
    text.append(f"  {clip(subscriber.subscriber_id, FIELD_CELLS)}", style="dim")
    # The subscriber's presence in their Inbox; the service's state is on the right.
    text.append("  present" if online else "  away", style="green" if online else "dim")
    return text


def header_text(state: HeaderState, width: int) -> Text:
    """The line for `width` cells: the right side by priority, the person in what is left."""
    counts = Text(no_wrap=True)
    counts.append(f"{count_text(state.unread)} unread", style="dim" if state.stale else "bold cyan")
    counts.append(" · ")
    counts.append(f"{count_text(state.unseen)} unseen", style="dim" if state.stale else "yellow")
    if state.stale:
        # Kept with the counts, at every width: old counts are never shown as fresh.
        never = state.unread is None and state.unseen is None
        said = "not loaded" if never else "not refreshed"
        counts.append(f" ({said} · {state.stale} retries)", style="bold red")
    service = Text(no_wrap=True)
    if state.service == "online":
        service.append("service online", style="green")
    else:
        service.append(f"service {state.service}", style="bold red")
    if state.note:
        service.append(f" ({state.note})", style="yellow")
    environment = Text(clip(state.environment, 24), style="dim") if state.environment else None
    right = counts.copy()
    if state.follow:
        live = state.follow.startswith("●")
        right = Text.assemble(Text(state.follow, style="bold green" if live else "yellow"), " · ")
        right.append_text(counts)
    read_only = Text("read-only", style="bold yellow") if state.read_only else None
    for part in (read_only, service, environment):
        if part is None:
            continue
        wider = Text.assemble(right, " · ", part)
        if wider.cell_len <= width:
            right = wider
    room = width - right.cell_len - len(GAP)
    line = Text(no_wrap=True, overflow="ellipsis")
    if room >= 8:
        person = _person(state)
        person.truncate(room, overflow="ellipsis")
        line.append_text(person)
        line.append(GAP)
    line.append_text(right)
    return line


class SubscriberHeader(Static):
    def __init__(self, **kwargs: str | None) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = HeaderState(None, "", None, None)

    def show(self, state: HeaderState) -> None:
        self.state = state
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        # Padding of 1 each side (inboxdesk.tcss).
        width = max(20, (self.size.width or 80) - 2)
        # One line high: no layout pass, which would cost tens of ms after every mark.
        self.update(header_text(self.state, width), layout=False)
