"""Who the inbox belongs to, and its live unread/unseen counts."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from inboxdesk.models import Subscriber


class SubscriberHeader(Static):
    def show(
        self,
        subscriber: Subscriber | None,
        unread: int | None,
        unseen: int | None,
        subscriber_id: str = "",
    ) -> None:
        text = Text()
        if subscriber is None:
            text.append(subscriber_id or "No subscriber", style="bold")
        else:
            text.append(
                "● " if subscriber.is_online else "○ ",
                style="green" if subscriber.is_online else "dim",
            )
            text.append(subscriber.display_name, style="bold")
            if subscriber.email:
                text.append(f"  {subscriber.email}")
            text.append(f"  {subscriber.subscriber_id}", style="dim")
            text.append(
                "  online" if subscriber.is_online else "  offline",
                style="green" if subscriber.is_online else "dim",
            )
        text.append("    ")
        text.append(f"{'…' if unread is None else unread} unread", style="bold cyan")
        text.append(" · ")
        text.append(f"{'…' if unseen is None else unseen} unseen", style="yellow")
        self.update(text)
