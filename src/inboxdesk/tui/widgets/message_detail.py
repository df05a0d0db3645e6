"""Everything a support agent may need about one message, rendered without markup."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from inboxdesk.models import EmailBlock, Message, NotificationStep
from inboxdesk.tui.format import relative


def _json(value: Any) -> Syntax:
    return Syntax(
        json.dumps(value, indent=2, ensure_ascii=False),
        "json",
        word_wrap=True,
        background_color="default",
    )


def _grid() -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    return grid


def _step_line(step: NotificationStep) -> Text:
    line = Text(f"• {step.name or step.uuid or 'step'}")
    if step.active is False:
        line.append(" (inactive)", style="dim")
    metadata = step.metadata
    if metadata is not None:
        described = metadata if isinstance(metadata, dict) else metadata.to_wire()
        kind = described.get("type", "?")
        detail = ", ".join(
            f"{k}={v}" for k, v in described.items() if k != "type" and not isinstance(v, dict)
        )
        line.append(f"  [{kind}] {detail}", style="cyan")
    for condition in step.filters or []:
        line.append(f"\n    if {condition.describe()}", style="magenta")
    return line


def render_message(message: Message, now: datetime) -> RenderableType:
    parts: list[RenderableType] = []
    title = Text(message.heading or "(no title)", style="bold")
    parts.append(title)
    state = Text()
    state.append("read" if message.read else "unread", style="" if message.read else "bold cyan")
    state.append(" · ")
    state.append("seen" if message.seen else "unseen", style="" if message.seen else "yellow")
    state.append(f" · {message.status} · {message.channel}")
    parts.append(state)

    content = Text()
    if isinstance(message.content, str):
        content.append(message.content)
    elif message.content:
        for block in message.content:
            content.append_text(_block(block))
            content.append("\n")
    parts += [Text("\nContent", style="bold underline"), content]

    cta = message.cta
    if (cta.data and cta.data.url) or cta.action:
        parts.append(Text("\nCall to action", style="bold underline"))
        grid = _grid()
        if cta.type:
            grid.add_row("type", str(cta.type))
        if cta.data and cta.data.url:
            grid.add_row("url", cta.data.url)
        if cta.action:
            grid.add_row("action", str(cta.action.status or "—"))
            for button in cta.action.buttons or []:
                label = f"[{button.content}] ({button.type})"
                if button.result_content:
                    label += f" → {button.result_content}"
                grid.add_row("button", label)
            if cta.action.result:
                grid.add_row(
                    "result",
                    f"{cta.action.result.type or ''} {json.dumps(cta.action.result.payload or {})}",
                )
        parts.append(grid)

    if message.error_id or message.error_text:
        parts.append(
            Text(f"\nError {message.error_id or ''}: {message.error_text or ''}", style="bold red")
        )

    grid = _grid()
    grid.add_row("created", f"{message.created_at} ({relative(message.created_at, now)})")
    for stamp in message.delivered_at or []:
        grid.add_row("delivered", f"{stamp} ({relative(stamp, now)})")
    for label, value in (
        ("last seen", message.last_seen_date),
        ("last read", message.last_read_date),
        ("snoozed until", message.snoozed_until),
    ):
        if value:
            grid.add_row(label, f"{value} ({relative(value, now)})")
    for label, value in (
        ("message id", message.id),
        ("transaction", message.transaction_id),
        ("notification", message.notification_id),
        ("template id", message.template_id),
        ("template", message.template_identifier),
        ("feed", message.feed_id),
        ("provider", message.provider_id),
        ("email", message.email),
        ("phone", message.phone),
    ):
        if value:
            grid.add_row(label, value)
    if message.context_keys:
        grid.add_row("context", ", ".join(message.context_keys))
    if message.device_tokens:
        grid.add_row("devices", ", ".join(message.device_tokens))
    parts += [Text("\nDetails", style="bold underline"), grid]

    if message.subscriber:
        s = message.subscriber
        who = _grid()
        who.add_row("name", s.display_name)
        for label, value in (
            ("subscriberId", s.subscriber_id),
            ("email", s.email),
            ("phone", s.phone),
            ("locale", s.locale),
            ("timezone", s.timezone),
        ):
            if value:
                who.add_row(label, value)
        parts += [Text("\nSubscriber", style="bold underline"), who]
    if message.template:
        workflow = message.template
        parts.append(Text(f"\nWorkflow: {workflow.name}", style="bold underline"))
        if workflow.description:
            parts.append(Text(workflow.description, style="dim"))
        for step in workflow.steps:
            parts.append(_step_line(step))
    for label, data in (("Payload", message.payload), ("Overrides", message.overrides)):
        if data:
            parts += [Text(f"\n{label}", style="bold underline"), _json(data)]
    return Group(*parts)


def _block(block: EmailBlock) -> Text:
    if block.type == "button":
        text = Text(f"[ {block.content} ]", style="bold reverse")
        if block.url:
            text.append(f" → {block.url}", style="underline")
        return text
    return Text(block.content)


class MessageDetail(VerticalScroll):
    """The detail pane; shows the highlighted message."""

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(Text("No message selected.", style="dim"), id="message-body")

    def show(self, message: Message | None, now: datetime) -> None:
        body = self.query_one("#message-body", Static)
        if message is None:
            body.update(Text("No message selected.", style="dim"))
        else:
            body.update(render_message(message, now))
        self.scroll_home(animate=False)
