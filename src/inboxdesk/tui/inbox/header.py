"""Who the inbox belongs to, and its live unread/unseen counts."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from inboxdesk.models import Subscriber
from inboxdesk.text import clip

# One line: a 10,000-character name must not push the counts off-screen.
NAME_CELLS = 40
FIELD_CELLS = 32


class SubscriberHeader(Static):
    def show(
        self,
        subscriber: Subscriber | None,
        unread: int | str | None,
        unseen: int | str | None,
        subscriber_id: str = "",
    ) -> None:
        """Counts may be numbers or what the service capped them to, e.g. "99+"."""
        text = Text(no_wrap=True, overflow="ellipsis")
        if subscriber is None:
            text.append(clip(subscriber_id or "No subscriber", NAME_CELLS), style="bold")
        else:
            text.append(
                "● " if subscriber.is_online else "○ ",
                style="green" if subscriber.is_online else "dim",
            )
            text.append(clip(subscriber.display_name, NAME_CELLS), style="bold")
            if subscriber.email:
                text.append(f"  {clip(subscriber.email, FIELD_CELLS)}")
            text.append(f"  {clip(subscriber.subscriber_id, FIELD_CELLS)}", style="dim")
            text.append(
                "  online" if subscriber.is_online else "  offline",
                style="green" if subscriber.is_online else "dim",
            )
        text.append("    ")
        text.append(f"{'…' if unread is None else clip(str(unread), 8)} unread", style="bold cyan")
        text.append(" · ")
        text.append(f"{'…' if unseen is None else clip(str(unseen), 8)} unseen", style="yellow")
        # One line high (inboxdesk.tcss): no layout pass, which would cost tens of ms
        # after every mark, when the counts change.
        self.update(text, layout=False)
