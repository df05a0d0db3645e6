"""Integrations grouped by channel, the primary of each channel clearly marked."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from inboxdesk.models import Channel, Integration
from inboxdesk.tui.widgets.keyed_table import KeyedTable

CHANNEL_ORDER = [
    c.value for c in (Channel.EMAIL, Channel.SMS, Channel.IN_APP, Channel.CHAT, Channel.PUSH)
]


def grouped(items: Iterable[Integration]) -> list[Integration]:
    """Channels in a fixed order (those with a primary first), names within each."""

    def key(item: Integration) -> tuple[int, str]:
        channel = str(item.channel)
        rank = CHANNEL_ORDER.index(channel) if channel in CHANNEL_ORDER else len(CHANNEL_ORDER)
        return rank, item.name.casefold()

    return sorted(items, key=key)


class IntegrationTable(KeyedTable):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", **kwargs)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        for key, label in (
            ("channel", "Channel"),
            ("name", "Name"),
            ("identifier", "Identifier"),
            ("provider", "Provider"),
            ("active", "Active"),
            ("primary", "Primary"),
            ("conditions", "Conditions"),
        ):
            self.add_column(label, key=key)

    def show(self, items: list[Integration], keep: str | None = None) -> None:
        """Replace the rows, keeping the cursor on `keep` when it is still listed."""
        self.clear()
        previous = None
        for item in grouped(items):
            channel = str(item.channel)
            label = Text(channel if channel != previous else "", style="bold")
            previous = channel
            self.add_row(
                label,
                Text(item.name, style="bold" if item.primary else ""),
                item.identifier,
                item.provider_id,
                Text("active", style="green") if item.active else Text("inactive", style="dim"),
                Text("★ PRIMARY", style="bold yellow") if item.primary else "",
                str(len(item.conditions or [])),
                key=item.id,
            )
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep), animate=False)
