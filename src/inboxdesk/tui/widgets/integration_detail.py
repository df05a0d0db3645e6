"""One integration in full: configurations, readable conditions, masked credentials."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from inboxdesk.models import Integration


def primary_note(item: Integration) -> str | None:
    """Why set primary does not apply to this integration, or None when it does."""
    if not item.supports_primary:
        return f"{item.channel} integrations have no primary: only email and sms do."
    if item.primary:
        return f"Already the primary {item.channel} integration."
    return None


def render_integration(item: Integration) -> RenderableType:
    parts: list[RenderableType] = [Text(item.name, style="bold")]
    state = Text(f"{item.channel} · {item.provider_id} · ")
    state.append("active" if item.active else "inactive", style="green" if item.active else "dim")
    if item.primary:
        state.append(" · ★ primary", style="bold yellow")
    parts.append(state)
    note = primary_note(item)
    parts.append(
        Text(
            f"Set primary (p): {note}"
            if note
            else f"Press p to make it the primary {item.channel} integration.",
            style="italic dim" if note else "italic",
        )
    )

    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for label, value in (
        ("id", item.id),
        ("identifier", item.identifier),
        ("environment", item.environment_id),
        ("organization", item.organization_id),
    ):
        grid.add_row(label, value or "")
    parts += [Text("\nDetails", style="bold underline"), grid]

    conditions = item.conditions or []
    parts.append(Text(f"\nConditions ({len(conditions)})", style="bold underline"))
    for n, condition in enumerate(conditions, 1):
        parts.append(Text(f"{n}. [{condition.type}] {condition.describe()}"))
    if not conditions:
        parts.append(Text("none", style="dim"))

    parts.append(Text("\nConfigurations", style="bold underline"))
    config = item.configurations.to_wire() if item.configurations else {}
    if config:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold")
        table.add_column()
        for key, value in config.items():
            shown = "••••" if "key" in key.lower() or "secret" in key.lower() else str(value)
            table.add_row(key, shown)
        parts.append(table)
    else:
        parts.append(Text("none", style="dim"))

    parts.append(Text("\nCredentials (secrets masked)", style="bold underline"))
    masked = item.credentials.masked() if item.credentials else {}
    if masked:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold")
        table.add_column()
        for key, value in masked.items():
            table.add_row(key, str(value))
        parts.append(table)
    else:
        parts.append(Text("none shown", style="dim"))
    return Group(*parts)


class IntegrationDetail(VerticalScroll):
    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("No integration selected.", style="dim"), id="integration-body")

    def show(self, item: Integration | None) -> None:
        body = self.query_one("#integration-body", Static)
        body.update(
            render_integration(item) if item else Text("No integration selected.", style="dim")
        )
